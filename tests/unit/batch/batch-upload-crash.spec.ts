/**
 * A process killed while a round's input file was being uploaded (provider mode): the provider
 * stored the file, the process died before it could save the file's id. Started again with the
 * same command, the round goes out with no upload left behind unused at the provider (the
 * upload is found again by its content hash and reused; an upload of other content is deleted),
 * nothing is sent twice and the records are the interactive run's.
 *
 * The kill is taken as the store stood when the upload's answer came back: a copy of every file
 * at that instant (what `kill -9` leaves), resumed in a fresh store.
 */
import { describe, expect, it } from 'vitest';
import { providerSender } from '../../../src/lib/core/batch/provider';
import { runBatch } from '../../../src/lib/core/batch/rounds';
import type { BatchState } from '../../../src/lib/core/batch/store';
import type { RunKey } from '../../../src/lib/core/names';
import { runAll } from '../../../src/lib/core/engine/run-all';
import { modelDirName } from '../../../src/lib/core/layout';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { makeDataset } from '../../fixtures/engine/cases';
import type { FakeOpenAI } from '../../fake-openai/server';
import { MODELS } from '../engine/harness';
import { callsLessTiming, comparableRecords, expectEachSentOnce } from './batch-compare';
import { clientAt, endpoints, fakeServers, rolesAt } from './fake-servers';

const dataset = makeDataset(3);
const serve = fakeServers({ delayMs: 5 });
const common = { dataset, runId: 'r1', models: MODELS, endpoints };

/** Input files at the provider that no batch was made of: what a kill must not leave. */
function unusedUploads(provider: FakeOpenAI): string[] {
	const used = new Set([...provider.batches.batches.values()].map((b) => b.input_file_id));
	return [...provider.batches.files.values()]
		.filter((f) => f.purpose === 'batch' && !used.has(f.id))
		.map((f) => f.id);
}

/**
 * A fetch that lets the `n`-th `POST …/files` reach the provider and, when its answer is back,
 * takes a copy of `store` and never returns (the process is dead).
 */
function killedAfterUpload(store: MemoryStore, n: number) {
	let uploads = 0;
	let copy: MemoryStore | null = null;
	const fetch: typeof globalThis.fetch = async (input, init) => {
		const url = new URL(input instanceof Request ? input.url : String(input));
		const upload = (init?.method ?? 'GET') === 'POST' && url.pathname.endsWith('/files');
		if (copy) return new Promise<Response>(() => {});
		const response = await globalThis.fetch(input, init);
		if (upload && ++uploads === n) {
			copy = MemoryStore.fromFiles(store.toFiles());
			return new Promise<Response>(() => {});
		}
		return response;
	};
	return { fetch, copy: () => copy };
}

/**
 * A store whose copy is taken at the first save of round 2 that names an upload's id while no
 * batch is made yet: what `kill -9` leaves between a round's first upload and its second.
 */
class KilledBetweenUploads extends MemoryStore {
	copy: MemoryStore | null = null;
	override async writeBatchState(run: RunKey, state: BatchState): Promise<void> {
		await super.writeBatchState(run, state);
		const round = state.rounds.find((r) => r.round === 2);
		if (this.copy || !round) return;
		const uploaded = round.files.filter((f) => f.file_id).length;
		if (uploaded === 1 && round.files.every((f) => !f.batch_id)) {
			this.copy = MemoryStore.fromFiles(this.toFiles());
		}
	}
}

describe('a process killed during the upload of a round (provider mode)', () => {
	it('killed between two uploads of one round: the round goes out whole, none of it unanswered', async () => {
		const live = await serve();
		const expected = new MemoryStore();
		await runAll({ ...common, client: clientAt(live.baseURL), store: expected });

		const provider = await serve();
		const run = { runId: 'r1', modelDir: await modelDirName(MODELS.evaluated) };
		const roles = rolesAt(provider.baseURL);
		const store = new KilledBetweenUploads();
		const first = runBatch(
			{ ...common, store },
			providerSender({ run, endpoints: roles, pollMs: 5 })
		);
		// Round 2 asks the user model and the judge: two input files, two uploads.
		await expect.poll(() => store.copy, { timeout: 20_000 }).not.toBeNull();
		await first;
		const restarted = store.copy!;
		const round = (await restarted.readBatchState(run))!.rounds.find((r) => r.round === 2)!;
		expect(round.requests).toBeGreaterThan(round.files.find((f) => f.file_id)!.lines);

		const out = await runBatch(
			{ ...common, store: restarted },
			providerSender({ run, endpoints: roles, pollMs: 5 })
		);
		expect(out.done).toBe(true);
		const answers = await restarted.readBatchAnswers(run);
		expect(answers.filter((a) => 'error' in a)).toEqual([]);
		expect(comparableRecords(restarted)).toEqual(comparableRecords(expected));
		expect(callsLessTiming(restarted)).toEqual(callsLessTiming(expected));
	});

	it('started again: the upload is reused, none left unused, nothing sent twice, same records', async () => {
		const live = await serve();
		const expected = new MemoryStore();
		await runAll({ ...common, client: clientAt(live.baseURL), store: expected });
		const asked = live.chatRequests.length;

		const provider = await serve();
		const run = { runId: 'r1', modelDir: await modelDirName(MODELS.evaluated) };
		const roles = rolesAt(provider.baseURL);
		const store = new MemoryStore();
		const kill = killedAfterUpload(store, 1);
		void runBatch(
			{ ...common, store },
			providerSender({ run, endpoints: roles, pollMs: 5, fetch: kill.fetch })
		);
		await expect.poll(kill.copy).not.toBeNull();
		const restarted = kill.copy()!;
		const state = (await restarted.readBatchState(run)) as BatchState;
		// What the kill left: round 1 saved, its file's hash named before the upload, no id yet.
		expect(state.rounds.at(-1)?.files[0]).toMatchObject({ sha256: expect.any(String) });
		expect(state.rounds.at(-1)?.files[0].file_id).toBeUndefined();
		expect(unusedUploads(provider)).toHaveLength(1);

		const out = await runBatch(
			{ ...common, store: restarted },
			providerSender({ run, endpoints: roles, pollMs: 5 })
		);
		expect(out.done).toBe(true);
		expect(unusedUploads(provider)).toEqual([]);
		expect(provider.batches.deleted).toEqual([]);
		expect(comparableRecords(restarted)).toEqual(comparableRecords(expected));
		expect(callsLessTiming(restarted)).toEqual(callsLessTiming(expected));
		expectEachSentOnce(provider, asked);
	});

	it('started again on other requests: the upload it no longer uses is deleted', async () => {
		const provider = await serve();
		const run = { runId: 'r1', modelDir: await modelDirName(MODELS.evaluated) };
		const roles = rolesAt(provider.baseURL);
		const store = new MemoryStore();
		const kill = killedAfterUpload(store, 1);
		void runBatch(
			{ ...common, store },
			providerSender({ run, endpoints: roles, pollMs: 5, fetch: kill.fetch })
		);
		await expect.poll(kill.copy).not.toBeNull();
		const restarted = kill.copy()!;
		const [orphan] = unusedUploads(provider);
		// The same file name with other content (the round's requests computed otherwise).
		const state = (await restarted.readBatchState(run)) as BatchState;
		const round = state.rounds.at(-1)!;
		const name = round.files[0].name;
		const dropped = { ...round, files: [{ ...round.files[0], sha256: 'f'.repeat(64) }] };
		await restarted.writeBatchState(run, {
			...state,
			rounds: [...state.rounds.slice(0, -1), dropped]
		});
		// An upload of other content under the name it would have had, as the provider kept it.
		const stale = provider.batches.files.get(orphan)!;
		stale.filename = `${name.replace('/', '-').replace(/\.jsonl$/, '')}-${'f'.repeat(16)}.jsonl`;

		const out = await runBatch(
			{ ...common, store: restarted },
			providerSender({ run, endpoints: roles, pollMs: 5 })
		);
		expect(out.done).toBe(true);
		expect(provider.batches.deleted).toEqual([orphan]);
		expect(unusedUploads(provider)).toEqual([]);
	});
});
