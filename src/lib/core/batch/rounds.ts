/**
 * Batch mode's loop (PROTOCOL.md §3, batch mode): one pass of the ordinary engine per round, with
 * a {@link createBatchClient} answering from the answers known so far. A pass that parks tasks
 * hands its pending requests to `send` (a provider's Batch API, files for a cluster, or a test)
 * and the next pass replays the parked cases with the answers that came back. The number of
 * rounds is the longest chain of dependent calls of a case, retries included.
 */
import { runAll, type RunAllOptions } from '../engine/run-all';
import type { RunStagesResult } from '../engine/open-engine';
import { modelDirName } from '../layout';
import type { Role } from '../records';
import { DEFAULT_SETTINGS } from '../run-config';
import { createBatchClient, type PendingRequest } from './client';
import type { BatchAnswer } from './output';
import { BatchWaiting } from './pending';

/** Sends one round and returns its answers; a request left unanswered counts as failed. */
export type SendRound = (
	requests: readonly PendingRequest[],
	round: number
) => Promise<BatchAnswer[]>;

export interface BatchRunOptions extends Omit<RunAllOptions, 'client' | 'batch'> {
	/** Answers known before the first pass (saved with the run by an earlier start). */
	answers?: ReadonlyMap<string, BatchAnswer>;
}

export interface BatchRunResult {
	result: RunStagesResult;
	/** Rounds sent by this call. */
	rounds: number;
}

export async function runBatch(options: BatchRunOptions, send: SendRound): Promise<BatchRunResult> {
	const run = { runId: options.runId, modelDir: await modelDirName(options.models.evaluated) };
	const endpoints = Object.fromEntries(
		(Object.keys(options.models) as Role[]).map((role) => [
			role,
			{ baseURL: options.endpoints[role], apiKey: '', model: options.models[role] }
		])
	) as Record<Role, { baseURL: string; apiKey: string; model: string }>;
	const answers = new Map(options.answers);
	let fresh: ReadonlySet<string> = new Set(answers.keys());
	for (let rounds = 0; ;) {
		const client = createBatchClient(endpoints, {
			run,
			answers,
			retries: (options.settings ?? DEFAULT_SETTINGS).retries,
			fresh: (id) => fresh.has(id)
		});
		try {
			return { result: await runAll({ ...options, client, batch: true }), rounds };
		} catch (e) {
			if (!(e instanceof BatchWaiting)) throw e;
		}
		rounds++;
		const got = await send(client.pending, rounds);
		const asked = new Set(client.pending.map((p) => p.customId));
		for (const answer of got) if (asked.has(answer.customId)) answers.set(answer.customId, answer);
		for (const id of asked) {
			if (!answers.has(id)) {
				answers.set(id, {
					customId: id,
					error: { code: 'no_answer', message: 'the round returned no answer' }
				});
			}
		}
		fresh = asked;
	}
}
