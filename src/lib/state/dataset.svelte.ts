/**
 * The dataset the workbench is working on: the last file opened (or the sample), its
 * validation outcome, and the options it was loaded with. Every page reads it from here.
 */
import { parseCategoryMap } from '$lib/core/dataset/categories';
import {
	loadDataset,
	type Dataset,
	type DatasetProblem,
	type LoadResult
} from '$lib/core/dataset/load';
import type { CategoryMap, HistoryFields } from '$lib/core/dataset/types';
import { openSavedDatasetStore, type SavedDatasetStore } from './saved-dataset';

/**
 * `empty`: nothing opened; `loading`: validating; `ready`: a valid dataset;
 * `invalid`: the file has problems (or needs a history-field mapping); `error`: the file
 * could not be read at all.
 */
export type DatasetStatus = 'empty' | 'loading' | 'ready' | 'invalid' | 'error';

/** How the current dataset got here. */
export type DatasetOrigin = 'file' | 'sample' | 'restored';

/** Whether the current file is remembered across reloads. */
export type Persistence = 'saved' | 'unavailable' | 'failed' | 'none';

/** Injected collaborators, so tests can run the class without a browser. */
export interface DatasetStateDeps {
	/** @default loadDataset from the core */
	load?: typeof loadDataset;
	/** Where the last file is remembered; null keeps it in memory only. @default null */
	store?: SavedDatasetStore | null;
	/** @default globalThis.fetch */
	fetch?: typeof fetch;
}

/** Options of {@link DatasetState.open}. */
export interface OpenOptions {
	fileName: string;
	/** @default false */
	isSample?: boolean;
}

export class DatasetState {
	status = $state<DatasetStatus>('empty');
	/** The valid dataset, or null. Large: never deep-proxied. */
	dataset = $state.raw<Dataset | null>(null);
	/** Non-blocking findings of a valid dataset (e.g. causes that fall into 未分类). */
	warnings = $state.raw<DatasetProblem[]>([]);
	/** Every problem of an invalid file. */
	problems = $state.raw<DatasetProblem[]>([]);
	/** How many problems the file has in all; past a few hundred, `problems` lists only the first. */
	problemCount = $state(0);
	/** Set when the two history fields need the user's mapping. */
	mapping = $state.raw<{ candidates: string[]; detected: Partial<HistoryFields> } | null>(null);
	/** SHA-256 of the current file's bytes, valid or not (null when unreadable). */
	sha256 = $state<string | null>(null);
	fileName = $state<string | null>(null);
	isSample = $state(false);
	origin = $state<DatasetOrigin | null>(null);
	/** A message when the file could not be read or validated at all. */
	error = $state<string | null>(null);
	/** History fields the user chose in the mapping form. */
	historyFields = $state.raw<Partial<HistoryFields> | null>(null);
	/** The category map file in use, if the user loaded one. */
	categoryFile = $state.raw<{ name: string; map: CategoryMap } | null>(null);
	categoryError = $state<string | null>(null);
	persistence = $state<Persistence>('none');

	#bytes: Uint8Array | null = null;
	#categoryBytes: Uint8Array | null = null;
	/** Bumped per load, so a slow earlier load never overwrites a later one. */
	#generation = 0;
	#load: typeof loadDataset;
	#store: SavedDatasetStore | null;
	#fetch: typeof fetch | undefined;

	constructor(deps: DatasetStateDeps = {}) {
		this.#load = deps.load ?? loadDataset;
		this.#store = deps.store ?? null;
		this.#fetch = deps.fetch;
	}

	/** Opens a file's bytes: validates them and remembers the file. */
	async open(bytes: Uint8Array, options: OpenOptions): Promise<void> {
		this.#bytes = bytes;
		this.fileName = options.fileName;
		this.isSample = options.isSample ?? false;
		this.origin = this.isSample ? 'sample' : 'file';
		this.historyFields = null;
		await this.#validate();
		await this.#save();
	}

	/** Fetches and opens the bundled synthetic sample. */
	async loadSample(url: string): Promise<void> {
		const doFetch = this.#fetch ?? globalThis.fetch;
		let bytes: Uint8Array;
		try {
			const response = await doFetch(url);
			if (!response.ok) throw new Error(`HTTP ${response.status}`);
			bytes = new Uint8Array(await response.arrayBuffer());
		} catch (e) {
			this.#fail(
				`Could not fetch the sample from ${url}: ${message(e)}. Reload the page and try again.`
			);
			return;
		}
		await this.open(bytes, { fileName: url.split('/').pop() ?? 'sample.json', isSample: true });
	}

	/** Re-validates the current file with the history fields the user picked. */
	async mapHistoryFields(fields: HistoryFields): Promise<void> {
		if (!this.#bytes) return;
		this.historyFields = fields;
		await this.#validate();
		await this.#save();
	}

	/**
	 * Loads a category map file (JSON object cause → class). A bad file leaves the current
	 * map in place and sets `categoryError`.
	 */
	async setCategoryFile(bytes: Uint8Array, name: string): Promise<void> {
		let map: CategoryMap;
		try {
			map = parseCategoryMap(bytes);
		} catch (e) {
			this.categoryError = `${name}: ${message(e)}`;
			return;
		}
		this.categoryError = null;
		this.categoryFile = { name, map };
		this.#categoryBytes = bytes;
		if (this.#bytes) await this.#validate();
		await this.#save();
	}

	/** Goes back to the project's default category map. */
	async clearCategoryFile(): Promise<void> {
		this.categoryFile = null;
		this.categoryError = null;
		this.#categoryBytes = null;
		if (this.#bytes) await this.#validate();
		await this.#save();
	}

	/** Restores the remembered file, if any (on page start). */
	async restore(): Promise<void> {
		if (!this.#store || this.#bytes) return;
		let saved;
		try {
			saved = await this.#store.load();
		} catch {
			this.persistence = 'failed';
			return;
		}
		// A file opened while the store was loading wins over the remembered one.
		if (!saved || this.#bytes) return;
		this.#bytes = saved.bytes;
		this.fileName = saved.fileName;
		this.isSample = saved.isSample;
		this.origin = 'restored';
		this.historyFields = saved.historyFields ?? null;
		if (saved.categoryFile) {
			try {
				this.categoryFile = {
					name: saved.categoryFile.name,
					map: parseCategoryMap(saved.categoryFile.bytes)
				};
				this.#categoryBytes = saved.categoryFile.bytes;
			} catch (e) {
				this.categoryError = `${saved.categoryFile.name}: ${message(e)}`;
			}
		}
		this.persistence = 'saved';
		await this.#validate();
	}

	/** Forgets the current dataset here and in storage. Checkpoints are not touched. */
	async forget(): Promise<void> {
		this.#generation++;
		this.#bytes = null;
		this.#categoryBytes = null;
		this.status = 'empty';
		this.dataset = null;
		this.warnings = [];
		this.problems = [];
		this.problemCount = 0;
		this.mapping = null;
		this.sha256 = null;
		this.fileName = null;
		this.isSample = false;
		this.origin = null;
		this.error = null;
		this.historyFields = null;
		this.categoryFile = null;
		this.categoryError = null;
		try {
			await this.#store?.clear();
			this.persistence = 'none';
		} catch {
			this.persistence = 'failed';
		}
	}

	async #validate(): Promise<void> {
		const bytes = this.#bytes;
		if (!bytes) return;
		const generation = ++this.#generation;
		this.status = 'loading';
		this.error = null;
		let result: LoadResult;
		try {
			result = await this.#load(bytes, {
				fileName: this.fileName ?? undefined,
				historyFields: this.historyFields ?? undefined,
				categories: this.categoryFile?.map
			});
		} catch (e) {
			if (generation === this.#generation) {
				this.#fail(`${this.fileName ?? 'The file'} could not be validated: ${message(e)}`);
			}
			return;
		}
		if (generation !== this.#generation) return;
		if (result.ok) {
			this.dataset = result.dataset;
			this.warnings = result.warnings;
			this.problems = [];
			this.problemCount = 0;
			this.mapping = null;
			this.sha256 = result.dataset.sha256;
			this.status = 'ready';
		} else {
			this.dataset = null;
			this.warnings = [];
			this.problems = result.problems;
			this.problemCount = result.problemCount;
			this.mapping = result.mapping ?? null;
			this.sha256 = result.sha256;
			this.status = 'invalid';
		}
	}

	#fail(text: string): void {
		this.#generation++;
		this.status = 'error';
		this.error = text;
		this.dataset = null;
		this.problems = [];
		this.problemCount = 0;
		this.warnings = [];
		this.mapping = null;
	}

	async #save(): Promise<void> {
		if (!this.#bytes || !this.fileName) return;
		if (!this.#store) {
			this.persistence = 'unavailable';
			return;
		}
		try {
			await this.#store.save({
				bytes: this.#bytes,
				fileName: this.fileName,
				isSample: this.isSample,
				historyFields: this.historyFields ?? undefined,
				categoryFile:
					this.categoryFile && this.#categoryBytes
						? { name: this.categoryFile.name, bytes: this.#categoryBytes }
						: undefined
			});
			this.persistence = 'saved';
		} catch {
			// Quota or a blocked database: the dataset still works in memory for this tab.
			this.persistence = 'failed';
		}
	}
}

function message(e: unknown): string {
	return e instanceof Error ? e.message : String(e);
}

/** The app's one dataset, remembered in IndexedDB ('lexpilot-datasets') when available. */
export const datasetState = new DatasetState({ store: openSavedDatasetStore() });
