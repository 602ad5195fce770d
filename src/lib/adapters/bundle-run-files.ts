/** A bundled run's other files read: its manifest, its call log and its review files. */
import { mergeReviews, readReviewFile, type PlacedReview } from '../core/agreement/merge';
import { parseCallLog } from '../core/calls/log';
import type { RunKey } from '../core/layout';
import type { Manifest } from '../core/records';
import { readManifestBytes } from '../core/store/manifest-file';
import { decodeLayoutText } from '../core/text';
import { readJsonlLines } from './bundle-lines';
import type { Problems } from './bundle-problems';
import type { BundleCalls } from './bundle-types';

/** A run's manifest as written, or null with the problem noted. */
export async function readManifest(
	entry: { run: RunKey; path: string; bytes: Uint8Array },
	label: string,
	problems: Problems
): Promise<Manifest | null> {
	try {
		// Kept as written (field order, unknown fields): export gives it back unchanged.
		return await readManifestBytes(entry.bytes, label, { run: entry.run, asWritten: true });
	} catch (e) {
		problems.pushError(
			e,
			`${(e as Error).message}${(e as Error).message.endsWith('.') ? '' : '.'}`
		);
		return null;
	}
}

/** Parses a run's calls.jsonl: every line a valid, bounded call-log entry (file and line named). */
export function readCallsFile(
	bytes: Uint8Array,
	label: string,
	problems: Problems
): BundleCalls | null {
	return readJsonlLines(bytes, label, problems, (text) => parseCallLog(text, label));
}

/** A run's review files, merged (conflicts refused by place); null after a problem. */
export function readReviewFiles(
	files: readonly { run: RunKey; path: string; bytes: Uint8Array }[],
	label: (path: string) => string,
	problems: Problems
): PlacedReview[] | null {
	let merged: PlacedReview[] = [];
	try {
		for (const f of files) {
			const text = decodeLayoutText(f.bytes, label(f.path));
			merged = mergeReviews(merged, readReviewFile(text, label(f.path), f.run)).merged;
		}
	} catch (e) {
		problems.pushError(e);
		return null;
	}
	return merged;
}
