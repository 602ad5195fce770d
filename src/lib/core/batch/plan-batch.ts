/**
 * A run plan in batch mode (PROTOCOL.md §3, batch mode; §8, run plans): every run of the plan
 * advances its own rounds (`runBatch`) at the same time, each with its own saved round state and
 * its own sender, so a run never waits for another's round. A run that fails leaves the others
 * going; the outcome of each is returned in the plan's order.
 */
import type { RunKey } from '../names';
import { batchRunKey, type BatchRunOptions } from './pass';
import { runBatch, type BatchRunEvents, type BatchRunResult, type RoundSender } from './rounds';

export interface PlanBatchRun {
	options: BatchRunOptions;
	sender: RoundSender;
	events?: BatchRunEvents;
}

export type PlanBatchOutcome =
	{ run: RunKey; result: BatchRunResult } | { run: RunKey; error: unknown };

export async function runPlanBatch(runs: readonly PlanBatchRun[]): Promise<PlanBatchOutcome[]> {
	return Promise.all(
		runs.map(async ({ options, sender, events }): Promise<PlanBatchOutcome> => {
			const run = await batchRunKey(options);
			try {
				return { run, result: await runBatch(options, sender, events) };
			} catch (error) {
				return { run, error };
			}
		})
	);
}
