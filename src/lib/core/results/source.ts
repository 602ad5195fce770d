/**
 * Where the results reader finds an output root in the canonical layout (PROTOCOL.md §5): a folder
 * (CLI), IndexedDB or an imported zip bundle (browser), or a map of strings (tests).
 */
import type { CallTotals } from '../calls/totals';
import { CheckpointError } from '../errors';
import type { RunKey } from '../layout';
import type { AnyRecord } from '../records';
import { coded } from '../said';

export interface LayoutSource {
	/** Every file's path relative to the root, with `/` separators (e.g. `runs/run1/m-1a2b3c4d/manifest.json`). */
	list(): Promise<string[]>;
	/** The UTF-8 text of a listed file. */
	read(path: string): Promise<string>;
	/**
	 * The bytes of a listed file as they are read, for a reader that takes a file a line at a
	 * time (review files) and must not hold all of a large one. Without it `read` is used.
	 */
	chunks?(path: string): AsyncIterable<Uint8Array>;
	/**
	 * The records of a listed stage file, parsed and checked against its schema, where the source
	 * keeps them as records (IndexedDB does): no file text is built to be parsed again. A record
	 * that fails its check is named by file and line, as parsing the text names it. Without it
	 * `read` is used and the text parsed.
	 */
	records?(path: string): Promise<AnyRecord[]>;
	/**
	 * The totals of a listed run's call log, where the source keeps them (IndexedDB does), so a
	 * report need not read the whole log; the same totals, and the same error naming `fileLabel`
	 * for an unreadable line, as parsing the log's text. Without it the log is read.
	 */
	callTotals?(run: RunKey, fileLabel: string): Promise<CallTotals>;
	/** How messages name the root, e.g. the output folder or the bundle's file name. */
	root?: string;
}

/** A source over files held in memory, keyed by their layout path. */
export function memorySource(files: Record<string, string>, root?: string): LayoutSource {
	return {
		root,
		list: async () => Object.keys(files),
		read: async (path) => {
			if (!Object.hasOwn(files, path)) {
				throw new CheckpointError([coded('source_no_file', { file: path })]);
			}
			return files[path];
		}
	};
}

/** The name a message gives a file of the source: the root joined with the layout path. */
export function describePath(source: LayoutSource, path: string): string {
	return source.root ? `${source.root.replace(/\/+$/, '')}/${path}` : path;
}
