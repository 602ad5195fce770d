/**
 * The dataset the workbench is working on: the last valid file opened (or the sample), the
 * last file that was refused, a load in progress, and the options files are loaded with.
 * Every page reads it from here.
 *
 * Files are parsed and checked by a `DatasetLoader` (a worker in the browser), one at a
 * time in the order asked. A file that does not validate never replaces a valid dataset in
 * use: its problems are shown beside it, and the remembered file stays the valid one.
 *
 * One file: it is the one state class every page reads the dataset from. Splitting it by
 * concern is still to do.
 */
import { saidOf } from '$lib/core/errors';
import { coreText } from './core-text.svelte';
import { parseCategoryMap } from '$lib/core/dataset/categories';
import type { Dataset, loadDataset } from '$lib/core/dataset/load';
import type { CategoryMap, HistoryFields } from '$lib/core/dataset/types';
import { m } from '$lib/paraglide/messages';
import { queryCases, type CasePageQuery } from './case-filter';
import {
	withCases,
	type DatasetHead,
	type LoadOutcome,
	type ProblemList,
	type Progress
} from './dataset-load-protocol';
import {
	defaultDatasetLoader,
	lazyInlineLoader,
	type DatasetLoader,
	type QueryOutcome
} from './dataset-loader';
import { openSavedDatasetStore, type SavedDatasetStore } from './saved-dataset';

/**
 * `empty`: nothing opened; `loading`: the first file is being validated; `ready`: a valid
 * dataset is in use (another file may be loading, or may have been refused, meanwhile);
 * `invalid`: no valid dataset, and the file opened has problems (or needs a history-field
 * mapping); `error`: no valid dataset, and the file could not be read or validated at all.
 */
export type DatasetStatus = 'empty' | 'loading' | 'ready' | 'invalid' | 'error';

/** How the current dataset got here. */
export type DatasetOrigin = 'file' | 'sample' | 'restored';

/** Whether the current file is remembered across reloads. */
export type Persistence = 'saved' | 'unavailable' | 'failed' | 'none';

/** A file that did not give a valid dataset: its problems, or why it could not be checked. */
export interface Refusal {
	fileName: string;
	/** Every problem found (cut to what the page needs; see `ProblemList`). Empty with `error`. */
	problems: ProblemList;
	/** Set when the two history fields need the user's mapping. */
	mapping: { candidates: string[]; detected: Partial<HistoryFields> } | null;
	/** SHA-256 of the file's bytes (null when unreadable). */
	sha256: string | null;
	/**
	 * A message when the file could not be read or validated at all, in the interface language
	 * (read anew on each access, so it follows a language switch).
	 */
	readonly error: string | null;
	/** True when a valid dataset stayed in use in spite of this file. */
	keptDataset: boolean;
}

/** A load in progress. */
export interface Loading {
	fileName: string;
	/** Null until the loader first reports. */
	progress: Progress | null;
}

/** Injected collaborators, so tests can run the class without a browser. */
export interface DatasetStateDeps {
	/** Where files are parsed and checked. @default in this thread, with `load` */
	loader?: DatasetLoader;
	/** The core loader the default in-thread loader calls. @default loadDataset from the core */
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

/**
 * A file as opened: a Blob (a File from the page, or IndexedDB's copy), which is only a
 * handle, or bytes, which are null while lent to the loader or after a worker lost them.
 */
interface OpenedFile {
	source: Blob | Uint8Array | null;
	fileName: string;
	isSample: boolean;
	origin: DatasetOrigin;
	historyFields: Partial<HistoryFields> | null;
}

const NO_PROBLEMS: ProblemList = { items: [], total: 0, omitted: [] };

export class DatasetState {
	/** The valid dataset in use without its cases (summary, sha256, categories…), or null. */
	head = $state.raw<DatasetHead | null>(null);
	/**
	 * The valid dataset in use with every case, or null: set with `head` for a small dataset;
	 * a large one's cases stay in the loader's worker until `loadCases` (the Run and Inspect
	 * pages call it). Large: never deep-proxied.
	 */
	dataset = $state.raw<Dataset | null>(null);
	/** Cases of a large dataset arriving on the page after `loadCases`, or null. */
	casesLoading = $state.raw<{ done: number; total: number } | null>(null);
	/** Why the last `loadCases` failed, or null. */
	casesError = $state<string | null>(null);
	/** Non-blocking findings of the dataset in use (e.g. causes that fall into 未分类). */
	warnings = $state.raw<ProblemList>(NO_PROBLEMS);
	/** The last file refused since the dataset in use was loaded, or null. */
	refused = $state.raw<Refusal | null>(null);
	/** A load in progress, or null. */
	loading = $state.raw<Loading | null>(null);
	/** SHA-256 of the dataset in use (or, with none, of the refused file). */
	sha256 = $state<string | null>(null);
	/** Name of the dataset in use (or, with none, of the refused file). */
	fileName = $state<string | null>(null);
	isSample = $state(false);
	origin = $state<DatasetOrigin | null>(null);
	/** History fields the user chose in the mapping form for the dataset in use. */
	historyFields = $state.raw<Partial<HistoryFields> | null>(null);
	/** The category map file in use, if the user loaded one. */
	categoryFile = $state.raw<{ name: string; map: CategoryMap } | null>(null);
	/** Why the last category map file was refused: its name and the core's error. */
	#categoryFailure = $state.raw<{ name: string; error: unknown } | null>(null);
	/** That refusal as one line in the interface language (English where the core gave no code). */
	get categoryError(): string | null {
		const f = this.#categoryFailure;
		return f ? `${f.name}: ${coreText(message(f.error), saidOf(f.error))}` : null;
	}
	persistence = $state<Persistence>('none');

	status: DatasetStatus = $derived(
		this.head
			? 'ready'
			: this.loading
				? 'loading'
				: this.refused
					? this.refused.error === null
						? 'invalid'
						: 'error'
					: 'empty'
	);

	#inUse: OpenedFile | null = null;
	/** Names the dataset in use to the loader, which keeps a large one's cases. */
	#handle = 0;
	#casesPending: { head: DatasetHead; done: Promise<void> } | null = null;
	#refused: OpenedFile | null = null;
	#categoryBytes: Uint8Array | null = null;
	/** Bumped by `forget`, so a load still running then changes nothing. */
	#generation = 0;
	/** Loads run one at a time, in the order asked. */
	#queue: Promise<void> = Promise.resolve();
	#loader: DatasetLoader;
	#store: SavedDatasetStore | null;
	#fetch: typeof fetch | undefined;

	constructor(deps: DatasetStateDeps = {}) {
		this.#loader = deps.loader ?? lazyInlineLoader({ load: deps.load });
		this.#store = deps.store ?? null;
		this.#fetch = deps.fetch;
	}

	/**
	 * Opens a file (a File, or its bytes, which are handed over): validates it and, when valid
	 * (or when no valid dataset is in use), makes it the current file and remembers it.
	 */
	open(source: Blob | Uint8Array, options: OpenOptions): Promise<void> {
		const isSample = options.isSample ?? false;
		const file: OpenedFile = {
			source,
			fileName: options.fileName,
			isSample,
			origin: isSample ? 'sample' : 'file',
			historyFields: null
		};
		return this.#enqueue(() => this.#openFile(file));
	}

	/** Fetches and opens the bundled synthetic sample. */
	async loadSample(url: string): Promise<void> {
		const doFetch = this.#fetch ?? globalThis.fetch;
		const fileName = url.split('/').pop() ?? 'sample.json';
		let blob: Blob;
		try {
			const response = await doFetch(url);
			if (!response.ok) throw new Error(`HTTP ${response.status}`);
			blob = await response.blob();
		} catch (e) {
			await this.#enqueue(async () =>
				this.#refuse(
					{ source: null, fileName, isSample: true, origin: 'sample', historyFields: null },
					{ error: () => m.dataset_error_fetch_sample({ url, reason: message(e) }) }
				)
			);
			return;
		}
		await this.open(blob, { fileName, isSample: true });
	}

	/** Re-validates the refused file with the history fields the user picked. */
	mapHistoryFields(fields: HistoryFields): Promise<void> {
		return this.#enqueue(async () => {
			const file = this.#refused;
			if (!file) return;
			file.historyFields = fields;
			await this.#openFile(file);
		});
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
			this.#categoryFailure = { name, error: e };
			return;
		}
		this.#categoryFailure = null;
		this.categoryFile = { name, map };
		this.#categoryBytes = bytes;
		await this.#enqueue(() => this.#reapplyOptions());
	}

	/** Goes back to the project's default category map. */
	async clearCategoryFile(): Promise<void> {
		this.categoryFile = null;
		this.#categoryFailure = null;
		this.#categoryBytes = null;
		await this.#enqueue(() => this.#reapplyOptions());
	}

	/** Restores the remembered file, if any (on page start). */
	restore(): Promise<void> {
		return this.#enqueue(async () => {
			if (!this.#store || this.#inUse || this.#refused) return;
			const generation = this.#generation;
			let saved;
			try {
				saved = await this.#store.load();
			} catch {
				this.persistence = 'failed';
				return;
			}
			if (!saved || generation !== this.#generation) return;
			if (saved.categoryFile) {
				try {
					this.categoryFile = {
						name: saved.categoryFile.name,
						map: parseCategoryMap(saved.categoryFile.bytes)
					};
					this.#categoryBytes = saved.categoryFile.bytes;
				} catch (e) {
					this.#categoryFailure = { name: saved.categoryFile.name, error: e };
				}
			}
			this.persistence = 'saved';
			await this.#validate({
				source: saved.file,
				fileName: saved.fileName,
				isSample: saved.isSample,
				origin: 'restored',
				historyFields: saved.historyFields ?? null
			});
		});
	}

	/**
	 * Brings every case of the dataset in use to the page (`dataset`), for a large one whose
	 * cases the loader kept; at once for a small one. Progress is in `casesLoading`.
	 */
	loadCases(): Promise<void> {
		const head = this.head;
		if (!head || this.dataset) return Promise.resolve();
		if (this.#casesPending?.head === head) return this.#casesPending.done;
		const handle = this.#handle;
		const generation = this.#generation;
		const current = () => generation === this.#generation && this.head === head;
		this.casesError = null;
		this.casesLoading = { done: 0, total: head.caseCount };
		const run = (async () => {
			const outcome = await this.#loader.cases(handle, head.caseCount, (progress) => {
				if (current()) this.casesLoading = { done: progress.done, total: progress.total };
			});
			if (!current()) return;
			this.casesLoading = null;
			if (!outcome.ok) {
				this.casesError = outcome.message;
				return;
			}
			this.dataset = withCases(head, outcome.cases);
			// The page answers every question about the cases now: one copy is enough.
			this.#loader.release(handle);
		})();
		const pending = {
			head,
			done: run.finally(() => {
				if (this.#casesPending === pending) this.#casesPending = null;
			})
		};
		this.#casesPending = pending;
		return pending.done;
	}

	/**
	 * A page of the case browser: computed here when the cases are on the page, else by the
	 * loader's worker, which kept them.
	 */
	async queryCases(query: CasePageQuery): Promise<QueryOutcome> {
		const dataset = this.dataset;
		if (dataset) return { ok: true, page: queryCases(dataset.cases, dataset.categories, query) };
		if (!this.head) return { ok: true, page: { listed: 0, rows: [], current: null } };
		return this.#loader.query(this.#handle, query);
	}

	/** Forgets the current dataset here and in storage. Checkpoints are not touched. */
	async forget(): Promise<void> {
		this.#loader.release(this.#handle);
		this.#generation++;
		this.#inUse = null;
		this.#refused = null;
		this.#categoryBytes = null;
		this.head = null;
		this.casesLoading = null;
		this.casesError = null;
		this.dataset = null;
		this.warnings = NO_PROBLEMS;
		this.refused = null;
		this.loading = null;
		this.sha256 = null;
		this.fileName = null;
		this.isSample = false;
		this.origin = null;
		this.historyFields = null;
		this.categoryFile = null;
		this.#categoryFailure = null;
		try {
			await this.#store?.clear();
			this.persistence = 'none';
		} catch {
			this.persistence = 'failed';
		}
	}

	#enqueue(task: () => Promise<void>): Promise<void> {
		const run = this.#queue.then(task);
		// One failed task must not stop the ones queued after it.
		this.#queue = run.catch(() => {});
		return run;
	}

	async #openFile(file: OpenedFile): Promise<void> {
		const kept = await this.#validate(file);
		// Remember the file now shown: a valid one, or a refused one when nothing valid is in use.
		if (kept === 'valid' || kept === 'refused-alone') await this.#save(file);
	}

	/** Re-validates the file on screen with the current category map, and remembers the choice. */
	async #reapplyOptions(): Promise<void> {
		const file = this.#inUse ?? this.#refused;
		if (!file) return;
		const kept = await this.#validate(file);
		if (kept !== null) await this.#save(this.#inUse ?? file);
	}

	/**
	 * Validates a file and puts the outcome on screen. Returns what became of it, or null when
	 * `forget` was called meanwhile.
	 */
	async #validate(file: OpenedFile): Promise<'valid' | 'refused-alone' | 'refused-kept' | null> {
		const generation = this.#generation;
		const source = file.source;
		if (!source) {
			this.#refuse(file, { error: () => m.dataset_error_lost({ file: file.fileName }) });
			return this.head ? 'refused-kept' : 'refused-alone';
		}
		// Bytes are lent to the loader (transferred); a Blob is a handle and stays.
		if (!(source instanceof Blob)) file.source = null;
		this.loading = { fileName: file.fileName, progress: null };
		let outcome: LoadOutcome;
		try {
			outcome = await this.#loader.load(
				source,
				{
					fileName: file.fileName,
					historyFields: file.historyFields ?? undefined,
					categories: this.categoryFile?.map
				},
				(progress) => {
					if (generation === this.#generation) {
						this.loading = { fileName: file.fileName, progress };
					}
				}
			);
		} catch (e) {
			outcome = { kind: 'failed', bytes: null, message: message(e) };
		}
		// Lent bytes come back whatever happened, so the file can be re-validated or saved.
		if (!(source instanceof Blob)) file.source = outcome.bytes;
		if (generation !== this.#generation) return null;
		this.loading = null;
		if (outcome.kind === 'invalid') {
			const { problems, mapping, sha256 } = outcome;
			this.#refuse(file, { problems, mapping, sha256 });
			return this.head ? 'refused-kept' : 'refused-alone';
		}
		if (outcome.kind === 'failed') {
			const reason = outcome.message;
			this.#refuse(file, {
				error: () => m.dataset_error_not_validated({ file: file.fileName, reason })
			});
			return this.head ? 'refused-kept' : 'refused-alone';
		}
		this.#inUse = file;
		this.#refused = null;
		this.refused = null;
		this.#handle = outcome.handle;
		this.casesLoading = null;
		this.casesError = null;
		this.head = outcome.head;
		this.dataset = outcome.dataset;
		this.warnings = outcome.warnings;
		this.#showFile(file, outcome.head.sha256);
		return 'valid';
	}

	#refuse(
		file: OpenedFile,
		what: {
			problems?: ProblemList;
			mapping?: Refusal['mapping'];
			sha256?: string | null;
			/** Builds the message, so that it is in the language of the moment it is read. */
			error?: () => string;
		}
	): void {
		this.#refused = file;
		const error = what.error ?? null;
		this.refused = {
			fileName: file.fileName,
			problems: what.problems ?? NO_PROBLEMS,
			mapping: what.mapping ?? null,
			sha256: what.sha256 ?? null,
			get error() {
				return error ? error() : null;
			},
			keptDataset: this.head !== null
		};
		if (!this.head) this.#showFile(file, what.sha256 ?? null);
	}

	#showFile(file: OpenedFile, sha256: string | null): void {
		this.fileName = file.fileName;
		this.isSample = file.isSample;
		this.origin = file.origin;
		this.historyFields = file.historyFields;
		this.sha256 = sha256;
	}

	async #save(file: OpenedFile): Promise<void> {
		if (!file.source) return;
		if (!this.#store) {
			this.persistence = 'unavailable';
			return;
		}
		// Bytes become a Blob once (small files: the sample, tests); a File already is one.
		if (!(file.source instanceof Blob)) {
			file.source = new Blob([file.source as Uint8Array<ArrayBuffer>]);
		}
		try {
			await this.#store.save({
				file: file.source,
				fileName: file.fileName,
				isSample: file.isSample,
				historyFields: file.historyFields ?? undefined,
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
export const datasetState = new DatasetState({
	store: openSavedDatasetStore(),
	loader: defaultDatasetLoader()
});
