/**
 * What the Run page shows of a plan in batch mode (PROTOCOL.md §3, batch mode; §8, run plans):
 * one row per model × repetition with the round it has out (number, state, sent time, requests)
 * and, in files mode, the round's input files to download. Plain data: it crosses from the run's
 * worker; the files' texts stay there.
 */
import type { BatchSendMode } from '$lib/core/batch/store';
import type { RunKey } from '$lib/core/layout';
import type { BatchView } from './batch-view';
import type { RunError } from './run-snapshot';

/** Where a run (or the whole plan) stands; `waiting`: a files round waits for its outputs. */
export type PlanBatchStatus = 'running' | 'waiting' | 'done' | 'failed' | 'aborted';

export interface PlanBatchRow {
	run: RunKey;
	/** The evaluated model. */
	model: string;
	repetition: number;
	status: PlanBatchStatus;
	/** The run's last round; null before its first. */
	batch: BatchView | null;
	error?: RunError;
}

export interface PlanBatchView {
	mode: BatchSendMode;
	status: PlanBatchStatus;
	rows: PlanBatchRow[];
}

/** The plan's status from its rows: running while one runs; else failed, stopped, waiting, done. */
export function planBatchStatus(rows: readonly PlanBatchRow[]): PlanBatchStatus {
	const order: PlanBatchStatus[] = ['running', 'failed', 'aborted', 'waiting'];
	return order.find((s) => rows.some((r) => r.status === s)) ?? 'done';
}
