/**
 * A well-formed dataset file read a stretch of top-level items at a time, so the bytes and the
 * cases are what stays alive, not a decoded text and a parse tree of the whole file.
 */
import { wideEncoding } from '../wide-encoding';
import { NotWellFormed, readItems, scanItems } from './json-items';
import { type LoadOptions, PROGRESS_STEPS, type Items, type Checked } from './load-types';
import { checkAsRead } from './check-as-read';

/**
 * A well-formed file read a stretch of items at a time (see `loadDataset`), or null when it is
 * not one and must be read whole.
 */
export function readInStretches(bytes: Uint8Array, options: LoadOptions): Checked | null {
	if (wideEncoding(bytes)) return null;
	const onProgress = options.onProgress;
	let nextReport = 0;
	const step = Math.max(1, Math.ceil(bytes.length / PROGRESS_STEPS));
	const scan = scanItems(
		bytes,
		onProgress
			? (end) => {
					if (end < nextReport) return;
					nextReport = end + step;
					onProgress({ phase: 'reading', done: end, total: bytes.length });
				}
			: undefined
	);
	if (!scan) return null;
	const items: Items = {
		count: scan.count,
		each: (visit) => readItems(bytes, scan, visit)
	};
	try {
		return checkAsRead(items, options.historyFields, onProgress);
	} catch (e) {
		if (e instanceof NotWellFormed) return null;
		throw e;
	}
}
