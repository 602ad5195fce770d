/**
 * One pass of batch mode: the ordinary engine (`runAll`) with a {@link createBatchClient} as the
 * client of every role, answering from the answers known so far. It ends done, or with the
 * requests the parked cases wait for.
 */
import { runAll, type RunAllOptions } from '../engine/run-all';
import type { RunStagesResult } from '../engine/open-engine';
import { modelDirName } from '../layout';
import type { RunKey } from '../names';
import type { Role } from '../records';
import { DEFAULT_SETTINGS } from '../run-config';
import type { BatchStore } from './store';
import type { CheckpointStore } from '../store/types';
import { createBatchClient, type PendingRequest } from './client';
import type { BatchAnswer } from './output';
import { BatchWaiting } from './pending';

export interface BatchRunOptions extends Omit<RunAllOptions, 'client' | 'batch' | 'store'> {
	/** Keeps the records and the rounds (`batch/state.json`, `batch/answers.jsonl`). */
	store: CheckpointStore & BatchStore;
	/** The time a round is sent, for its `sent_at`. @default () => new Date() */
	now?: () => Date;
}

export type PassResult =
	{ done: true; result: RunStagesResult } | { done: false; pending: readonly PendingRequest[] };

/** The run's key: its id and the evaluated model's folder. */
export async function batchRunKey(options: BatchRunOptions): Promise<RunKey> {
	return { runId: options.runId, modelDir: await modelDirName(options.models.evaluated) };
}

/**
 * `fresh(id)`: the answer came back in the round this pass follows (its call is logged now);
 * `askAgain(id)`: a failure of it a stopped run already reported (asked again, `client.ts`).
 */
export async function batchPass(
	options: BatchRunOptions,
	answers: ReadonlyMap<string, BatchAnswer>,
	fresh: (customId: string) => boolean,
	askAgain?: (customId: string) => boolean
): Promise<PassResult> {
	const endpoints = Object.fromEntries(
		(Object.keys(options.models) as Role[]).map((role) => [
			role,
			{ baseURL: options.endpoints[role], apiKey: '', model: options.models[role] }
		])
	) as Record<Role, { baseURL: string; apiKey: string; model: string }>;
	const settings = options.settings ?? DEFAULT_SETTINGS;
	const client = createBatchClient(endpoints, {
		run: await batchRunKey(options),
		answers,
		retries: settings.retries,
		timeoutMs: settings.timeout_s * 1000,
		fresh,
		askAgain
	});
	try {
		return { done: true, result: await runAll({ ...options, client, batch: true }) };
	} catch (e) {
		if (!(e instanceof BatchWaiting)) throw e;
		return { done: false, pending: client.pending };
	}
}
