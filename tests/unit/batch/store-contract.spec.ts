/**
 * The `BatchStore` contract, run on every implementation the CLI and tests use (memory,
 * filesystem); the browser's IndexedDB store runs it from its own suite.
 */
import { mkdtemp, readFile, rm, writeFile, appendFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { FsStore } from '../../../src/lib/adapters/fs-store';
import type { BatchState, BatchStore, SavedBatchAnswer } from '../../../src/lib/core/batch/store';
import { batchAnswersPath, batchStatePath, parseLayoutPath } from '../../../src/lib/core/layout';
import type { CheckpointStore } from '../../../src/lib/core/store/types';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { fsLayoutSource } from '../../../src/cli/fs-source';
import { openTestStore } from '../../support/idb';

const run = { runId: 'run1', modelDir: 'm-12345678' };
const other = { runId: 'run2', modelDir: 'm-12345678' };
const answers: SavedBatchAnswer[] = [
	{ customId: 'lp1.a', round: 1, status: 200, body: { choices: [{ text: '你好' }] } },
	{ customId: 'lp1.b', round: 2, error: { code: 'batch_expired', message: null } },
	{ customId: 'lp1.c', status: 500, body: null }
];
const state = (status: 'submitted' | 'answered'): BatchState => ({
	version: 1,
	rounds: [
		{
			round: 1,
			mode: 'provider',
			status,
			sent_at: '2026-12-05T00:00:00Z',
			requests: 2,
			files: [
				{
					name: 'r1.jsonl',
					endpoint: 'http://x/v1',
					model: 'm',
					lines: 2,
					bytes: 9,
					batch_id: 'b1'
				}
			]
		}
	]
});

const dirs: string[] = [];
afterEach(async () => {
	await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

type Store = CheckpointStore & BatchStore;
const stores: [string, () => Promise<{ store: Store; root?: string }>][] = [
	['MemoryStore', async () => ({ store: new MemoryStore() })],
	[
		'FsStore',
		async () => {
			const root = await mkdtemp(join(tmpdir(), 'lp-batch-store-'));
			dirs.push(root);
			return { store: new FsStore(root), root };
		}
	],
	['IdbStore', async () => ({ store: await openTestStore() })]
];

describe.each(stores)('BatchStore contract: %s', (_name, make) => {
	it('keeps state and answers per run, replaced and appended in order', async () => {
		const { store } = await make();
		expect(await store.readBatchState(run)).toBeNull();
		expect(await store.readBatchAnswers(run)).toEqual([]);
		await store.writeBatchState(run, state('submitted'));
		await store.writeBatchState(run, state('answered'));
		await store.appendBatchAnswers(run, answers.slice(0, 1));
		await store.appendBatchAnswers(run, answers.slice(1));
		expect(await store.readBatchState(run)).toEqual(state('answered'));
		expect(await store.readBatchAnswers(run)).toEqual(answers);
		expect(await store.readBatchState(other)).toBeNull();
		expect(await store.readBatchAnswers(other)).toEqual([]);
	});

	it('refuses a state that is not one', async () => {
		const { store } = await make();
		const bad = { version: 2, rounds: [] } as unknown as BatchState;
		await expect(store.writeBatchState(run, bad)).rejects.toThrow();
		expect(await store.readBatchState(run)).toBeNull();
	});
});

describe('FsStore batch files', () => {
	it('drops a torn last line when reading and cuts it before the next append', async () => {
		const { store, root } = await stores[1][1]();
		await store.appendBatchAnswers(run, answers.slice(0, 1));
		const path = join(root!, ...batchAnswersPath(run).split('/'));
		await appendFile(path, '{"custom_id":"lp1.b","resp');
		expect(await store.readBatchAnswers(run)).toEqual(answers.slice(0, 1));
		const fresh = new FsStore(root!);
		await fresh.appendBatchAnswers(run, answers.slice(1));
		expect(await fresh.readBatchAnswers(run)).toEqual(answers);
		expect((await readFile(path, 'utf8')).split('\n')).toHaveLength(4);
	});

	it('names the file and line of a bad saved answer, and of a damaged state', async () => {
		const { store, root } = await stores[1][1]();
		await store.appendBatchAnswers(run, answers.slice(0, 1));
		const path = join(root!, ...batchAnswersPath(run).split('/'));
		await appendFile(path, '{"custom_id":"lp1.x"}\n');
		await expect(store.readBatchAnswers(run)).rejects.toThrow(/batch\/answers\.jsonl, line 2/);
		await store.writeBatchState(run, state('submitted'));
		await writeFile(join(root!, ...batchStatePath(run).split('/')), '{"version":1');
		await expect(store.readBatchState(run)).rejects.toThrow(/batch\/state\.json: not JSON/);
	});

	it('removes both with the run, and no layout reader takes them', async () => {
		const { store, root } = await stores[1][1]();
		await store.writeBatchState(run, state('answered'));
		await store.appendBatchAnswers(run, answers);
		expect(parseLayoutPath(batchStatePath(run))).toBeNull();
		expect(parseLayoutPath(batchAnswersPath(run))).toBeNull();
		const source = await fsLayoutSource(root!);
		expect((await source.list()).filter((p) => p.includes('/batch'))).toEqual([]);
		await store.deleteRun(run);
		expect(await store.readBatchState(run)).toBeNull();
		// The run's folder is gone: nothing of it stays behind.
		expect(await readdir(join(root!, 'runs'))).toEqual([]);
	});
});
