/**
 * The prompt pack runs use: the project's default, or one the user edited or imported. An edited
 * pack is kept in localStorage, since a run can only be resumed with the pack it started with.
 */
import { canonicalJson } from '$lib/core/hash';
import {
	codeSha256,
	DEFAULT_PROMPT_PACK,
	exportPromptPack,
	parsePromptPack,
	promptPackProblems,
	promptsSha256,
	templateProblems,
	type PromptPack,
	type TemplateName
} from '$lib/core/prompts';
import { browserStorage, type SettingsStorage } from './settings.svelte';

/** @default 'lexpilot.prompt-pack.v1' */
export const PACK_STORAGE_KEY = 'lexpilot.prompt-pack.v1';

export interface PackHashes {
	prompts: string;
	code: string;
}

export class PromptsState {
	pack = $state.raw<PromptPack>(DEFAULT_PROMPT_PACK);
	/** True when the pack is the project's default, byte for byte in its canonical JSON. */
	isDefault = $derived(canonicalJson(this.pack) === canonicalJson(DEFAULT_PROMPT_PACK));
	/** `prompts_sha256` and `code_sha256` of the pack; null while they are computed. */
	hashes = $state.raw<PackHashes | null>(null);
	/** Hashes of the default pack, to show what a comparable run would carry. */
	defaultHashes = $state.raw<PackHashes | null>(null);
	/** Why the stored pack was not used, when it could not be read. */
	restoreError = $state<string | null>(null);

	readonly #storage: SettingsStorage;
	#generation = 0;

	constructor(storage: SettingsStorage = null) {
		this.#storage = storage;
		const stored = this.#read();
		if (stored) this.pack = stored;
		void this.#hash();
		void hashesOf(DEFAULT_PROMPT_PACK).then((h) => (this.defaultHashes = h));
	}

	/** Problems of a template text, one readable line each; empty when it can be saved. */
	problemsOf(name: TemplateName, text: string): string[] {
		if (!text.trim()) return [`template "${name}" is empty`];
		return templateProblems(name, text);
	}

	/** Saves a template; refuses (returning its problems) a text that breaks the slot rules. */
	setTemplate(name: TemplateName, text: string): string[] {
		const problems = this.problemsOf(name, text);
		if (problems.length > 0) return problems;
		this.#use({ ...this.pack, templates: { ...this.pack.templates, [name]: text } });
		return [];
	}

	/** Renames the pack or changes its version; both are part of `prompts_sha256`. */
	setLabel(field: 'name' | 'version', value: string): string[] {
		const next = { ...this.pack, [field]: value };
		const problems = promptPackProblems(next);
		if (problems.length > 0) return problems;
		this.#use(next);
		return [];
	}

	resetTemplate(name: TemplateName): void {
		this.setTemplate(name, DEFAULT_PROMPT_PACK.templates[name]);
	}

	resetAll(): void {
		this.#use(DEFAULT_PROMPT_PACK);
	}

	/** Reads an exported pack; throws a `UsageError` listing every problem. */
	importText(text: string): void {
		this.#use(parsePromptPack(text));
	}

	exportText(): string {
		return exportPromptPack(this.pack);
	}

	#use(pack: PromptPack): void {
		this.pack = pack;
		this.restoreError = null;
		try {
			if (this.isDefault) this.#storage?.removeItem(PACK_STORAGE_KEY);
			else this.#storage?.setItem(PACK_STORAGE_KEY, exportPromptPack(pack));
		} catch {
			// Full or blocked storage: the pack still applies in this tab.
		}
		void this.#hash();
	}

	#read(): PromptPack | null {
		let text: string | null;
		try {
			text = this.#storage?.getItem(PACK_STORAGE_KEY) ?? null;
		} catch {
			return null;
		}
		if (text === null) return null;
		try {
			return parsePromptPack(text);
		} catch (e) {
			this.restoreError = `The edited prompt pack saved in this browser could not be read, so the default pack is in use: ${(e as Error).message}`;
			return null;
		}
	}

	async #hash(): Promise<void> {
		const generation = ++this.#generation;
		this.hashes = null;
		const hashes = await hashesOf(this.pack);
		if (generation === this.#generation) this.hashes = hashes;
	}
}

async function hashesOf(pack: PromptPack): Promise<PackHashes> {
	const [prompts, code] = await Promise.all([promptsSha256(pack), codeSha256(pack)]);
	return { prompts, code };
}

export const promptsState = new PromptsState(browserStorage());
