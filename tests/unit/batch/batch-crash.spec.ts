/**
 * Crashes between two writes of batch mode, each taken as the store stood at that instant.
 *
 * A process killed between appending a round's answers (all or some) and marking the round
 * answered: started again, the round is recomputed as sent and its answers read again (polled,
 * or imported again); no request is sent twice and the records are the interactive run's.
 *
 * A process killed in the middle of a pass, after some of the calls it logs are in the call log
 * and before the next round is saved: started again, the pass logs each call once (no line
 * twice, none lost), as the interactive run logs it. The kill is taken as the store stood right
 * after the k-th line of that pass was appended: a copy of every file at that instant (what
 * `kill -9` leaves), resumed in a fresh store.
 */
import { describe, expect, it } from 'vitest';
import { filesSender } from '../../../src/lib/core/batch/files-sender';
import { providerSender } from '../../../src/lib/core/batch/provider';
import type { BatchState, SavedBatchAnswer } from '../../../src/lib/core/batch/store';
import { modelDirName } from '../../../src/lib/core/layout';
import { importBatchOutputs, outputText } from '../../../src/lib/core/batch/import';
import { runBatch, type BatchRunOptions } from '../../../src/lib/core/batch/rounds';
import { runAll } from '../../../src/lib/core/engine/run-all';
import { forwarding } from '../../../src/lib/core/forward';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { makeDataset } from '../../fixtures/engine/cases';
import { MODELS } from '../engine/harness';
import { callsLessTiming, comparableRecords, expectEachSentOnce } from './batch-compare';
import { clientAt, endpoints, fakeServers, rolesAt } from './fake-servers';
import type { FakeOpenAI } from '../../fake-openai/server';
import { answerRound, memoryFiles } from './round-files';

const dataset = makeDataset(3);
const serve = fakeServers({ delayMs: 5 });

/** Runs rounds (files mode, the cluster answering) until done, or `once`: one round imported. */
async function rounds(cluster: FakeOpenAI, options: BatchRunOptions, once = false) {
	for (;;) {
		const { files, open } = memoryFiles();
		const out = await runBatch(options, filesSender(open));
		if (out.done) return out;
		const text = await answerRound(cluster, [...files.values()].flat());
		await importBatchOutputs(options, [outputText('all.output.jsonl', text)]);
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

/** The interactive run's store, and the requests it made. */
async function interactive() {
	const live = await serve();
	const store = new MemoryStore();
	const common = { dataset, runId: 'r1', models: MODELS, endpoints };
	await runAll({ ...common, client: clientAt(live.baseURL), store });
	return { store, asked: live.chatRequests.length };
}

/**
 * A store that dies when round `at`'s answers are saved and before it is marked answered:
 * `all` of them appended, or only the first `some`.
 */
function dyingAtAnswers(store: MemoryStore, at: number, saved: 'all' | 'some') {
	let dead = false;
	return forwarding(store, {
		appendBatchAnswers: async (run, answers: readonly SavedBatchAnswer[]) => {
			if (dead || answers[0]?.round !== at) return store.appendBatchAnswers(run, answers);
			dead = true;
			await store.appendBatchAnswers(run, saved === 'all' ? answers : answers.slice(0, 2));
			throw new Error('killed');
		}
	});
}

describe("a process killed between saving a round's answers and marking it answered", () => {
	it.each(['all', 'some'] as const)(
		"provider, %s of round 2's answers saved: started again, nothing sent twice, same records",
		async (saved) => {
			const { store: expected, asked } = await interactive();
			const provider = await serve();
			const store = new MemoryStore();
			const common = { dataset, runId: 'r1', models: MODELS, endpoints };
			const run = { runId: 'r1', modelDir: await modelDirName(MODELS.evaluated) };
			const sender = () => providerSender({ run, endpoints: rolesAt(provider.baseURL), pollMs: 5 });
			await expect(
				runBatch({ ...common, store: dyingAtAnswers(store, 2, saved) }, sender())
			).rejects.toThrow('killed');
			const state = (await store.readBatchState(run)) as BatchState;
			expect(state.rounds.at(-1)).toMatchObject({ round: 2, status: 'submitted' });
			const out = await runBatch({ ...common, store }, sender());
			expect(out.done).toBe(true);
			expect(comparableRecords(store)).toEqual(comparableRecords(expected));
			expect(callsLessTiming(store)).toEqual(callsLessTiming(expected));
			expectEachSentOnce(provider, asked);
		}
	);

	it('files, an import cut short: the same import again goes on', async () => {
		const { store: expected } = await interactive();
		const cluster = await serve();
		const store = new MemoryStore();
		const options = { dataset, runId: 'r1', models: MODELS, endpoints, store };
		const { files, open } = memoryFiles();
		await runBatch(options, filesSender(open));
		const text = await answerRound(cluster, [...files.values()].flat());
		const outputs = [outputText('all.output.jsonl', text)];
		await expect(
			importBatchOutputs({ ...options, store: dyingAtAnswers(store, 1, 'some') }, outputs)
		).rejects.toThrow('killed');
		expect(await importBatchOutputs(options, outputs)).toMatchObject({ round: 1, missing: 0 });
		const out = await rounds(cluster, options);
		expect(out.done).toBe(true);
		expect(comparableRecords(store)).toEqual(comparableRecords(expected));
		expect(callsLessTiming(store)).toEqual(callsLessTiming(expected));
	});
});

describe('a process killed in the middle of a pass', () => {
	it.each([1, 4, 9])(
		'after the pass logged %i calls, started again: each call logged once',
		async (k) => {
			const live = await serve();
			const expected = new MemoryStore();
			const common = { dataset, runId: 'r1', models: MODELS, endpoints };
			await runAll({ ...common, client: clientAt(live.baseURL), store: expected });

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
