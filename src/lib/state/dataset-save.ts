/**
 * Remembers the file in use (and the category map file it was checked with) across reloads,
 * and says what became of it.
 */
import type { OpenedFile, Persistence } from './dataset-types';
import type { SavedDatasetStore } from './saved-dataset';

/**
 * Saves `file` in `store` (none: `unavailable`); a quota or a blocked database is `failed`.
 * Null, with nothing saved, for a file whose bytes are lost.
 */
export async function saveOpenedFile(
	store: SavedDatasetStore | null,
	file: OpenedFile,
	categoryFile: { name: string; bytes: Uint8Array } | undefined
): Promise<Persistence | null> {
	if (!file.source) return null;
	if (!store) return 'unavailable';
	// Bytes become a Blob once (small files: the sample, tests); a File already is one.
	if (!(file.source instanceof Blob)) {
		file.source = new Blob([file.source as Uint8Array<ArrayBuffer>]);
	}
	try {
		await store.save({
			file: file.source,
			fileName: file.fileName,
			isSample: file.isSample,
			historyFields: file.historyFields ?? undefined,
			categoryFile
		});
		return 'saved';
	} catch {
		// Quota or a blocked database: the dataset still works in memory for this tab.
		return 'failed';
	}
}
