/**
 * The call log across a pass cut short: a pass logs a call when it first uses its answer
 * (rounds.ts), so a pass stopped half-way (the tab closed, Stop, a crash) has logged some of its
 * calls; the pass that starts again must log only the others. Each call is logged once, and the
 * log ends as an uninterrupted run's (PROTOCOL.md §5).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { providerSender } from '../../../src/lib/core/batch/provider';
import { runBatch } from '../../../src/lib/core/batch/rounds';
import type { BatchState } from '../../../src/lib/core/batch/store';
import { forwarding } from '../../../src/lib/core/forward';
import { modelDirName, type RunKey } from '../../../src/lib/core/layout';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { simulatedScript } from '../../engine/simulated-script';
import { byTask } from '../../fake-openai/by-task';
import { startFakeOpenAI, type FakeOpenAI } from '../../fake-openai/server';
import { makeDataset } from '../../fixtures/engine/cases';
import { MODELS } from '../engine/harness';
import { callsLessTiming } from './batch-compare';

const dataset = makeDataset(4);
const NODE = 'http://gpu-node:8000/v1';
const common = {
	dataset,
	runId: 'r1',
	models: MODELS,
	endpoints: { evaluated: NODE, user: NODE, judge: NODE }
};
const servers: FakeOpenAI[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => s.close()));
});

const roles = (baseURL: string) => ({
	evaluated: { baseURL, apiKey: 'sk-batch-0123456789', model: MODELS.evaluated },
	user: { baseURL, apiKey: 'sk-batch-0123456789', model: MODELS.user },
	judge: { baseURL, apiKey: 'sk-batch-0123456789', model: MODELS.judge }
});

async function batched(store: MemoryStore, signal?: AbortSignal) {
	const server = await startFakeOpenAI({ handler: byTask(simulatedScript), batch: { delayMs: 5 } });
	servers.push(server);
	const run: RunKey = { runId: 'r1', modelDir: await modelDirName(MODELS.evaluated) };
	const sender = providerSender({ run, endpoints: roles(server.baseURL), pollMs: 5 });
	return runBatch({ ...common, store, signal }, sender);
}

/**
 * `store`, aborting `stop` once `after` lines are logged by the pass that follows round `round`'s
 * answers (the round marked answered, the next not saved yet).
 */
function stopsMidPass(store: MemoryStore, stop: AbortController, round: number, after: number) {
	let following = false;
	let logged = 0;
	return forwarding(store, {
		async writeBatchState(run: RunKey, state: BatchState) {
			await store.writeBatchState(run, state);
			const last = state.rounds.at(-1);
			following = last?.round === round && last.status === 'answered';
		},
		async appendCall(run: RunKey, line: string) {
			await store.appendCall(run, line);
			if (following && ++logged === after) stop.abort();
		}
	});
}

describe('batch mode: the call log of a pass cut short', () => {
	it.each([1, 2])(
		'stopped after round %i’s pass logged 2 calls: each call logged once',
		async (round) => {
			const whole = new MemoryStore();
			expect((await batched(whole)).done).toBe(true);

			const store = new MemoryStore();
			const stop = new AbortController();
			await expect(batched(stopsMidPass(store, stop, round, 2), stop.signal)).rejects.toThrow();
			expect(stop.signal.aborted).toBe(true);
			expect((await batched(store)).done).toBe(true);
			expect(callsLessTiming(store)).toEqual(callsLessTiming(whole));
		}
	);
});
