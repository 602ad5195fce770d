/**
 * The dataset the workbench is working on: the last valid file opened (or the sample), the
 * last file that was refused, a load in progress, and the options files are loaded with.
 * Every page reads it from here.
 *
 * Files are parsed and checked by a `DatasetLoader` (a worker in the browser), one at a
 * time in the order asked. A file that does not validate never replaces a valid dataset in
 * use: its problems are shown beside it, and the remembered file stays the valid one.
 *
 * Its parts live beside it: its shapes (`dataset-types.ts`), the category map file
 * (`category-file.svelte.ts`), the cases of a large dataset brought to the page
 * (`dataset-cases.svelte.ts`) and the remembering of the file in use (`dataset-save.ts`).
 */
import { Latest } from './latest';
import type { Dataset } from '$lib/core/dataset/load';
import type { CategoryMap, HistoryFields } from '$lib/core/dataset/types';
import { m } from '$lib/paraglide/messages';
import { queryCases, type CasePageQuery } from '$lib/core/dataset/case-filter';
import {
	withCases,
	type DatasetHead,
	type LoadOutcome,
	type ProblemList
} from '$lib/adapters/workers/dataset-load-protocol';
import {
	defaultDatasetLoader,
	inThreadLoader,
	type DatasetLoader,
	type QueryOutcome
} from '$lib/adapters/workers/dataset-loader';
import { LOAD_WORDS } from './worker-words';
import { openSavedDatasetStore, type SavedDatasetStore } from './saved-dataset';
import { CategoryFile, errorMessage } from './category-file.svelte';
import { saveOpenedFile } from './dataset-save';
import { CaseFetch } from './dataset-cases.svelte';
import {
	NO_PROBLEMS,
	type DatasetOrigin,
	type DatasetStateDeps,
	type DatasetStatus,
	type Loading,
	type OpenedFile,
	type OpenOptions,
	type Persistence,
	type Refusal
} from './dataset-types';

export type {
	DatasetOrigin,
	DatasetStateDeps,
	DatasetStatus,
	Loading,
	OpenOptions,
	Persistence,
	Refusal
} from './dataset-types';

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
	get casesLoading(): { done: number; total: number } | null {
		return this.#cases.loading;
	}
	/** Why the last `loadCases` failed, or null. */
	get casesError(): string | null {
		return this.#cases.error;
	}
	readonly #cases = new CaseFetch();
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
	readonly #category = new CategoryFile();
	/** The category map file in use, if the user loaded one. */
	get categoryFile(): { name: string; map: CategoryMap } | null {
		return this.#category.file;
	}
	/** Why the last category map file was refused, as one line in the interface language. */
	get categoryError(): string | null {
		return this.#category.error;
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
	#refused: OpenedFile | null = null;
	/** Cancelled by `forget`, so a load still running then changes nothing. */
	#latest = new Latest();
	/** Loads run one at a time, in the order asked. */
	#queue: Promise<void> = Promise.resolve();
	#loader: DatasetLoader;
	#store: SavedDatasetStore | null;
	#fetch: typeof fetch | undefined;

	constructor(deps: DatasetStateDeps = {}) {
		this.#loader = deps.loader ?? inThreadLoader(LOAD_WORDS, { load: deps.load });
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
					{ error: () => m.dataset_error_fetch_sample({ url, reason: errorMessage(e) }) }
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
		if (!this.#category.take(bytes, name)) return;
		await this.#enqueue(() => this.#reapplyOptions());
	}

	/** Goes back to the project's default category map. */
	async clearCategoryFile(): Promise<void> {
		this.#category.clear();
		await this.#enqueue(() => this.#reapplyOptions());
	}

	/** Restores the remembered file, if any (on page start). */
	restore(): Promise<void> {
		return this.#enqueue(async () => {
			if (!this.#store || this.#inUse || this.#refused) return;
			const current = this.#latest.watch();
			let saved;
			try {
				saved = await this.#store.load();
			} catch {
				this.persistence = 'failed';
				return;
			}
			if (!saved || !current()) return;
			if (saved.categoryFile)
				this.#category.take(saved.categoryFile.bytes, saved.categoryFile.name);
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
		const handle = this.#handle;
		const watched = this.#latest.watch();
		const current = () => watched() && this.head === head;
		return this.#cases.fetch(this.#loader, handle, head, current, (cases) => {
			this.dataset = withCases(head, cases);
			// The page answers every question about the cases now: one copy is enough.
			this.#loader.release(handle);
		});
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
		this.#latest.cancel();
		this.#inUse = null;
		this.#refused = null;
		this.head = null;
		this.#cases.reset();
		this.dataset = null;
		this.warnings = NO_PROBLEMS;
		this.refused = null;
		this.loading = null;
		this.sha256 = null;
		this.fileName = null;
		this.isSample = false;
		this.origin = null;
		this.historyFields = null;
		this.#category.clear();
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
		const current = this.#latest.watch();
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
					if (current()) {
						this.loading = { fileName: file.fileName, progress };
					}
				}
			);
		} catch (e) {
			outcome = { kind: 'failed', bytes: null, message: errorMessage(e) };
		}
		// Lent bytes come back whatever happened, so the file can be re-validated or saved.
		if (!(source instanceof Blob)) file.source = outcome.bytes;
		if (!current()) return null;
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
		this.#cases.reset();
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
		const persistence = await saveOpenedFile(this.#store, file, this.#category.saved);
		if (persistence) this.persistence = persistence;
	}
}

/** The app's one dataset, remembered in IndexedDB ('lexpilot-datasets') when available. */
export const datasetState = new DatasetState({
	store: openSavedDatasetStore(),
	loader: defaultDatasetLoader(LOAD_WORDS)
});
