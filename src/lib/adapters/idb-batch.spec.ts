/** IdbStore as a `BatchStore`: rounds and answers per run, checked rows, whole appends. */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeTestStores, fillStorageAt, openTestStore, rawDbOf } from '../../../tests/support/idb';
import { allStoredFiles } from '../../../tests/support/stored-runs';
import { makeA1, makeManifest } from '../../../tests/support/record-factories';
import { isBatchStore, type BatchState, type SavedBatchAnswer } from '../core/batch/store';
import { CheckpointError } from '../core/errors';

const run = { runId: 'run1', modelDir: 'gpt-x-4e02b150' };
const other = { runId: 'run2', modelDir: 'gpt-x-4e02b150' };

const state: BatchState = {
	version: 1,
	rounds: [
		{
			round: 1,
			mode: 'provider',
			status: 'submitted',
			sent_at: '2026-12-05T10:00:00.000Z',
			requests: 3,
			files: [
				{
					name: 'round-1/ep-0.jsonl',
					endpoint: 'https://api.example/v1',
					model: 'gpt-x',
					lines: 3,
					bytes: 900,
					file_id: 'file-1',
					batch_id: 'batch-1',
					status: 'in_progress'
				}
			]
		}
	]
};

const answer = (i: number): SavedBatchAnswer =>
	i % 2
		? { customId: `lp1.${i}`, round: i, error: { code: 'expired', message: null } }
		: {
				customId: `lp1.${i}`,
				status: 200,
				body: { choices: [{ message: { content: `答${i}` } }] }
			};

afterEach(() => {
	vi.restoreAllMocks();
	closeTestStores();
});

describe('IdbStore batch rounds', () => {
	it('keeps the state and the answers of each run apart, in written order', async () => {
		const store = await openTestStore();
		expect(isBatchStore(store)).toBe(true);
		expect(await store.readBatchState(run)).toBeNull();
		expect(await store.readBatchAnswers(run)).toEqual([]);
		await store.writeBatchState(run, state);
		const answered = { ...state, rounds: [{ ...state.rounds[0], status: 'answered' as const }] };
		await store.writeBatchState(run, answered);
		await store.appendBatchAnswers(run, [answer(0), answer(1)]);
		await store.appendBatchAnswers(run, [answer(2)]);
		await store.appendBatchAnswers(other, [answer(9)]);
		expect(await store.readBatchState(run)).toEqual(answered);
		expect(await store.readBatchState(other)).toBeNull();
		expect(await store.readBatchAnswers(run)).toEqual([answer(0), answer(1), answer(2)]);
		expect(await store.readBatchAnswers(other)).toEqual([answer(9)]);
	});

	it('refuses a state that is not one, before anything is written', async () => {
		const store = await openTestStore();
		const bad = { ...state, rounds: [{ ...state.rounds[0], status: 'lost' }] } as never;
		await expect(store.writeBatchState(run, bad)).rejects.toThrow();
		expect(await store.readBatchState(run)).toBeNull();
	});

	it('refuses damaged rows naming the run and its file', async () => {
		const store = await openTestStore();
		await store.writeBatchState(run, state);
		await store.appendBatchAnswers(run, [answer(0), answer(2)]);
		const raw = await rawDbOf(store);
		await raw.put('batch_states', { ...run, json: '{"version":1,"rounds":[{"round":0}]}' });
		await expect(store.readBatchState(run)).rejects.toThrow(
			/browser storage: \S*run1\/gpt-x-4e02b150\/batch\/state\.json: not a valid batch state: field "rounds\.0/
		);
		await raw.put('batch_states', { ...run, json: '{"version":1,' });
		await expect(store.readBatchState(run)).rejects.toThrow(
			/run1\/gpt-x-4e02b150\/batch\/state\.json: not JSON/
		);
		await raw.put('batch_answers', { ...run, seq: 1, json: '{"custom_id":"lp1.2","resp' });
		await expect(store.readBatchAnswers(run)).rejects.toThrow(
			/browser storage: \S*run1\/gpt-x-4e02b150\/batch\/answers\.jsonl, line 2/
		);
	});

	it('saves nothing of an append the disk is too full for, and everything before it', async () => {
		const store = await openTestStore();
		await store.appendBatchAnswers(run, [answer(0)]);
		// The third answer of the append finds the disk full.
		fillStorageAt(3);
		const error = await store
			.appendBatchAnswers(run, [answer(1), answer(2), answer(3), answer(4)])
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(CheckpointError);
		expect((error as Error).message).toMatch(/batch\/answers\.jsonl: browser storage is full/);
		vi.restoreAllMocks();
		expect(await store.readBatchAnswers(run)).toEqual([answer(0)]);
		await store.appendBatchAnswers(run, [answer(1)]);
		expect(await store.readBatchAnswers(run)).toEqual([answer(0), answer(1)]);
	});

	it('goes with the run, and stays out of exports', async () => {
		const store = await openTestStore();
		await store.createManifest(makeManifest(run));
		await store.appendRecord(run, 'a1', makeA1('1'));
		await store.writeBatchState(run, state);
		await store.appendBatchAnswers(run, [answer(0)]);
		await store.writeBatchState(other, state);
		const files = await allStoredFiles(store);
		expect([...files.keys()].some((path) => path.includes('/batch/'))).toBe(false);
		await store.deleteRun(run);
		expect(await store.readBatchState(run)).toBeNull();
		expect(await store.readBatchAnswers(run)).toEqual([]);
		expect(await store.readBatchState(other)).toEqual(state);
	});
});
