/**
 * The shapes of the dataset the workbench is working on (`dataset.svelte.ts`): its status, how
 * it got here, whether it is remembered, a refused file, a load in progress, a file as opened.
 */
import type { loadDataset } from '$lib/core/dataset/load';
import type { HistoryFields } from '$lib/core/dataset/types';
import type { ProblemList, Progress } from '$lib/adapters/workers/dataset-load-protocol';
import type { DatasetLoader } from '$lib/adapters/workers/dataset-loader';
import type { SavedDatasetStore } from './saved-dataset';

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
export interface OpenedFile {
	source: Blob | Uint8Array | null;
	fileName: string;
	isSample: boolean;
	origin: DatasetOrigin;
	historyFields: Partial<HistoryFields> | null;
}

/** A dataset with no findings. */
export const NO_PROBLEMS: ProblemList = { items: [], total: 0, omitted: [] };
