/**
 * Key ranges over the browser store's object stores: one run's rows of a kind, in key order.
 */
import type { RunKey } from '../core/layout';
import type { StageFile } from '../core/record-names';

/** A run's review rows, by reviewer then decision. */
export function reviewRange(run: RunKey): IDBKeyRange {
	return IDBKeyRange.bound([run.runId, run.modelDir, ''], [run.runId, run.modelDir, '\uffff', []]);
}

/** The case_number of a call-log line as a string ('' when it has none), for `by_case`. */
export function callCaseKey(json: string): string {
	try {
		const value = (JSON.parse(json) as { case_number?: unknown }).case_number;
		return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
	} catch {
		return '';
	}
}

/** A run's rows keyed [runId, modelDir, seq] in seq order: its call log, its batch answers. */
export function callRange(run: RunKey): IDBKeyRange {
	return IDBKeyRange.bound(
		[run.runId, run.modelDir, -Infinity],
		[run.runId, run.modelDir, Infinity]
	);
}

/**
 * One stage file's rows in seq order, in `records` or in `heads`: both are keyed by
 * [runId, modelDir, file, seq].
 */
export function fileRange(run: RunKey, file: StageFile): IDBKeyRange {
	return IDBKeyRange.bound(
		[run.runId, run.modelDir, file, -Infinity],
		[run.runId, run.modelDir, file, Infinity]
	);
}
