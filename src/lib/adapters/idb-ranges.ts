/**
 * Key ranges over the browser store's object stores: one run's rows of a kind, in key order.
 */
import type { RunKey } from '../core/layout';
import type { StageFile } from '../core/record-names';

/** The case_number of a call-log line as a string ('' when it has none), for `by_case`. */
export function callCaseKey(json: string): string {
	try {
		const value = (JSON.parse(json) as { case_number?: unknown }).case_number;
		return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
	} catch {
		return '';
	}
}

/**
 * Every row of a run in a store keyed [runId, modelDir, …] (all but `plans`), in key order: its
 * call log and batch answers in seq order, its reviews by reviewer. An array sorts after every
 * other key, so `[]` closes the range.
 */
export function runRange(run: RunKey): IDBKeyRange {
	return IDBKeyRange.bound([run.runId, run.modelDir], [run.runId, run.modelDir, []]);
}

/**
 * One stage file's rows in seq order, in `records` or in `heads`: both are keyed by
 * [runId, modelDir, file, seq].
 */
export function fileRange(run: RunKey, file: StageFile): IDBKeyRange {
	return IDBKeyRange.bound([run.runId, run.modelDir, file], [run.runId, run.modelDir, file, []]);
}
