/**
 * A process killed in the middle of a pass, after some of the calls it logs are in the call log
 * and before the next round is saved: started again, the pass logs each call once (no line
 * twice, none lost), as the interactive run logs it. The kill is taken as the store stood right
 * after the k-th line of that pass was appended: a copy of every file at that instant (what
 * `kill -9` leaves), resumed in a fresh store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { filesSender } from '../../../src/lib/core/batch/files-sender';
import { importBatchOutputs } from '../../../src/lib/core/batch/import';
import { runBatch, type BatchRunOptions } from '../../../src/lib/core/batch/rounds';
import { runAll } from '../../../src/lib/core/engine/run-all';
import { forwarding } from '../../../src/lib/core/forward';
import { createOpenAIClient } from '../../../src/lib/core/model/openai-client';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { simulatedScript } from '../../engine/simulated-script';
import { byTask } from '../../fake-openai/by-task';
import { startFakeOpenAI, type FakeOpenAI } from '../../fake-openai/server';
import { makeDataset } from '../../fixtures/engine/cases';
import { MODELS } from '../engine/harness';
import { callsLessTiming, comparableRecords } from './batch-compare';
import { answerRound, memoryFiles } from './round-files';

const dataset = makeDataset(3);
const NODE = 'http://gpu-node:8000/v1';
const endpoints = { evaluated: NODE, user: NODE, judge: NODE };
const servers: FakeOpenAI[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve() {
	const server = await startFakeOpenAI({ handler: byTask(simulatedScript) });
	servers.push(server);
	return server;
}

/** Runs rounds (files mode, the cluster answering) until done, or `once`: one round imported. */
async function rounds(cluster: FakeOpenAI, options: BatchRunOptions, once = false) {
	for (;;) {
		const { files, open } = memoryFiles();
		const out = await runBatch(options, filesSender(open));
		if (out.done) return out;
		const text = await answerRound(cluster, [...files.values()].flat());
		await importBatchOutputs(options, [{ name: 'all.output.jsonl', text }]);
		if (once) return out;
	}
}

/** A store that "dies" right after the k-th call-log line: a copy of its files at that instant. */
function dyingAfter(store: MemoryStore, k: number) {
	let lines = 0;
	let copy: MemoryStore | null = null;
	const dying = forwarding(store, {
		appendCall: async (run, line) => {
			if (copy) return new Promise<void>(() => {});
			await store.appendCall(run, line);
			if (++lines === k) copy = MemoryStore.fromFiles(store.toFiles());
			if (copy) return new Promise<void>(() => {});
		}
	});
	return { dying, copy: () => copy };
}

describe('a process killed in the middle of a pass', () => {
	it.each([1, 4, 9])(
		'after the pass logged %i calls, started again: each call logged once',
		async (k) => {
			const live = await serve();
			const expected = new MemoryStore();
			const roles = Object.fromEntries(
				Object.entries(MODELS).map(([role, model]) => [
					role,
					{ baseURL: live.baseURL, apiKey: '', model }
				])
			) as never;
			const common = { dataset, runId: 'r1', models: MODELS, endpoints };
			await runAll({ ...common, client: createOpenAIClient(roles), store: expected });

			const cluster = await serve();
			const store = new MemoryStore();
			// Round 1 out and answered: the next pass logs its calls.
			await rounds(cluster, { ...common, store }, true);
			const { dying, copy } = dyingAfter(store, k);
			void runBatch({ ...common, store: dying }, filesSender(memoryFiles().open));
			await expect.poll(copy).not.toBeNull();
			const restarted = copy()!;
			const out = await rounds(cluster, { ...common, store: restarted });
			expect(out.done).toBe(true);
			expect(comparableRecords(restarted)).toEqual(comparableRecords(expected));
			expect(callsLessTiming(restarted)).toEqual(callsLessTiming(expected));
		}
	);
});
