/**
 * The prompt pack runs use: the project's default, or one the user edited or imported. An edited
 * pack is kept in localStorage, since a run can only be resumed with the pack it started with.
 *
 * The pack's validator (`core/prompts/pack.ts`, a zod schema) is not imported here, to keep zod
 * out of every page's first load: the Prompts page fetches it at start (`loadValidator`, awaited
 * before it checks a label or an import), and a page that only uses the pack awaits
 * `restored()` (the Run page's `+page.ts`), which fetches the validator only when an edited pack
 * is stored. Until then the pack is the default and `restoring` is true.
 */
import { Latest } from './latest';
import { canonicalJson } from '$lib/core/hash';
import { DEFAULT_PROMPT_PACK } from '$lib/core/prompts/default-pack';
import { codeSha256, promptsSha256 } from '$lib/core/prompts/hashes';
import type { PromptPack } from '$lib/core/prompts/pack';
import { exportPromptPack } from '$lib/core/prompts/pack-json';
import { templateProblemsSaid, type TemplateName } from '$lib/core/prompts/slots';
import { coded } from '$lib/core/said';
import { english } from '$lib/core/voice';
import { coreText } from './core-text.svelte';
import { namedForEdits } from './pack-naming';
import { browserStorage, type SettingsStorage } from './settings.svelte';

/** What the state needs of `core/prompts/pack.ts`. */
export type PackValidator = Pick<
	typeof import('$lib/core/prompts/pack'),
	'parsePromptPack' | 'promptPackProblemsSaid'
>;

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
	/**
	 * `prompts_sha256` and `code_sha256` of the pack; null while they are computed, and while a
	 * stored pack is not read yet (the default's hashes would be shown for an edited pack).
	 */
	hashes = $state.raw<PackHashes | null>(null);
	/** Hashes of the default pack, to show what a comparable run would carry. */
	defaultHashes = $state.raw<PackHashes | null>(null);
	/** Why the stored pack was not used, when it could not be read. */
	restoreError = $state<string | null>(null);

	/** True while a stored pack waits for the validator to be read. */
	restoring = $state(false);

	readonly #storage: SettingsStorage;
	#latest = new Latest();
	#validator: PackValidator | null = null;
	/** The stored pack's text, not read yet (no validator so far). */
	#pending: string | null = null;
	#loading: Promise<void> | null = null;

	constructor(storage: SettingsStorage = null, validator: PackValidator | null = null) {
		this.#storage = storage;
		this.#pending = this.#storedText();
		this.restoring = this.#pending !== null;
		void this.#hash();
		void hashesOf(DEFAULT_PROMPT_PACK).then((h) => (this.defaultHashes = h));
		if (validator) this.useValidator(validator);
	}

	/** Gives the state the pack's validator; a stored pack is read at once. */
	useValidator(validator: PackValidator): void {
		this.#validator ??= validator;
		const text = this.#pending;
		if (text === null) return;
		this.#pending = null;
		this.restoring = false;
		const stored = this.#read(text);
		if (stored) this.pack = stored;
		void this.#hash();
	}

	/** Resolves once a stored pack has been read (fetching the validator only if there is one). */
	restored(): Promise<void> {
		if (this.#pending === null) return Promise.resolve();
		return this.loadValidator();
	}

	/**
	 * Fetches the validator once and hands it over (a stored pack is read then): the Prompts page
	 * starts it at once and awaits it before checking a label or an import.
	 */
	loadValidator(): Promise<void> {
		if (this.#validator) return Promise.resolve();
		this.#loading ??= import('$lib/core/prompts/pack').then(
			(validator) => this.useValidator(validator),
			(error: unknown) => {
				this.#loading = null;
				throw error;
			}
		);
		return this.#loading;
	}

	get #checker(): PackValidator {
		if (!this.#validator) throw new Error('the prompt pack validator is not loaded');
		return this.#validator;
	}

	/** Problems of a template text, one readable line each (interface language); empty when it can be saved. */
	problemsOf(name: TemplateName, text: string): string[] {
		const said = text.trim()
			? templateProblemsSaid(name, text)
			: [coded('template_empty', { template: name })];
		return said.map((s) => coreText(english(s), s));
	}

	/** Saves a template; refuses (returning its problems) a text that breaks the slot rules. */
	setTemplate(name: TemplateName, text: string): string[] {
		const problems = this.problemsOf(name, text);
		if (problems.length > 0) return problems;
		this.#use(namedForEdits({ ...this.pack, templates: { ...this.pack.templates, [name]: text } }));
		return [];
	}

	/** Renames the pack or changes its version; both are part of `prompts_sha256`. */
	setLabel(field: 'name' | 'version', value: string): string[] {
		const next = { ...this.pack, [field]: value };
		const said = this.#checker.promptPackProblemsSaid(next);
		if (said.length > 0) return said.map((s) => coreText(english(s), s));
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
		this.#use(this.#checker.parsePromptPack(text));
	}

	exportText(): string {
		return exportPromptPack(this.pack);
	}

	#use(pack: PromptPack): void {
		// An edit or import replaces a stored pack not read yet.
		this.#pending = null;
		this.restoring = false;
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

	#storedText(): string | null {
		try {
			return this.#storage?.getItem(PACK_STORAGE_KEY) ?? null;
		} catch {
			return null;
		}
	}

	#read(text: string): PromptPack | null {
		try {
			return this.#checker.parsePromptPack(text);
		} catch (e) {
			this.restoreError = `The edited prompt pack saved in this browser could not be read, so the default pack is in use: ${(e as Error).message}`;
			return null;
		}
	}

	async #hash(): Promise<void> {
		const current = this.#latest.begin();
		this.hashes = null;
		const hashes = await hashesOf(this.pack);
		if (current() && !this.restoring) this.hashes = hashes;
	}
}

async function hashesOf(pack: PromptPack): Promise<PackHashes> {
	const [prompts, code] = await Promise.all([promptsSha256(pack), codeSha256(pack)]);
	return { prompts, code };
}

export const promptsState = new PromptsState(browserStorage());
