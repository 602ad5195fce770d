/**
 * Remembers the last dataset file the user opened, as raw bytes in IndexedDB, so a reload
 * restores the same screen. It has its own small database: checkpoints live elsewhere and
 * must never be touched by "Forget this dataset".
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { HistoryFields } from '$lib/core/dataset/types';

/** What is kept about the last opened dataset. Never holds keys or model output. */
export interface SavedDataset {
	/**
	 * The file's exact bytes (the sha256 and every problem are recomputed from them), as a
	 * Blob: IndexedDB keeps a Blob by reference, so saving or restoring 100 MB never copies it
	 * through the page's thread (a Uint8Array is serialised there: hundreds of ms).
	 */
	file: Blob;
	fileName: string;
	/** True when it came from "Load the sample", so the synthetic-data notice comes back too. */
	isSample: boolean;
	/** History fields the user picked in the mapping form, if any. */
	historyFields?: Partial<HistoryFields>;
	/** A category map file the user loaded, if any. */
	categoryFile?: { name: string; bytes: Uint8Array };
	/** ISO time of saving. */
	savedAt: string;
}

/** Storage for the one remembered dataset. */
export interface SavedDatasetStore {
	load(): Promise<SavedDataset | null>;
	/** Replaces the remembered dataset; the store stamps `savedAt`. */
	save(saved: Omit<SavedDataset, 'savedAt'>): Promise<void>;
	clear(): Promise<void>;
}

/** @default 'lexpilot-datasets' */
export const SAVED_DATASET_DB = 'lexpilot-datasets';
const STORE = 'last';
const KEY = 'current';

/** A row as stored; rows saved before the Blob were written with `bytes`. */
type SavedRow = Omit<SavedDataset, 'file'> & { file?: Blob; bytes?: Uint8Array };

interface Schema extends DBSchema {
	/** One row, keyed 'current': the last opened dataset. */
	last: { key: string; value: SavedRow };
}

/**
 * The IndexedDB store, or null when IndexedDB is unavailable (some private windows), in
 * which case the dataset simply lives in memory for this tab.
 */
export function openSavedDatasetStore(dbName = SAVED_DATASET_DB): SavedDatasetStore | null {
	if (typeof globalThis.indexedDB === 'undefined') return null;
	let db: Promise<IDBPDatabase<Schema>> | null = null;
	const open = () =>
		(db ??= openDB<Schema>(dbName, 1, {
			upgrade(database) {
				database.createObjectStore(STORE);
			}
		}));
	return {
		async load() {
			const row = await (await open()).get(STORE, KEY);
			if (!row) return null;
			const { bytes, file, ...rest } = row;
			const blob = file ?? (bytes ? new Blob([bytes as Uint8Array<ArrayBuffer>]) : null);
			return blob ? { ...rest, file: blob } : null;
		},
		async save(saved) {
			await (await open()).put(STORE, { ...saved, savedAt: new Date().toISOString() }, KEY);
		},
		async clear() {
			await (await open()).delete(STORE, KEY);
		}
	};
}
