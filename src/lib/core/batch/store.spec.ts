import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../store/memory-store';
import { batchAnswerLine, isBatchStore, parseBatchAnswers, type BatchState } from './store';
import type { BatchAnswer } from './output';

const run = { runId: 'run1', modelDir: 'm-12345678' };
const answers: BatchAnswer[] = [
	{ customId: 'lp1.a', status: 200, body: { choices: [] } },
	{ customId: 'lp1.b', error: { code: 'expired', message: null } }
];

describe('batch store', () => {
	it('round-trips answers through their lines, dropping a torn last line', async () => {
		const text = answers.map(batchAnswerLine).join('');
		expect(await parseBatchAnswers(text, 'f')).toEqual(answers);
		expect(await parseBatchAnswers(text + '{"custom_id":"lp1.c","resp', 'f')).toEqual(answers);
		await expect(parseBatchAnswers('{"custom_id":"x"}\n', 'batch/answers.jsonl')).rejects.toThrow(
			/batch\/answers\.jsonl, line 1/
		);
	});

	it('MemoryStore keeps state and answers per run, and deletes them with the run', async () => {
		const store = new MemoryStore();
		expect(isBatchStore(store)).toBe(true);
		expect(await store.readBatchState(run)).toBeNull();
		const state: BatchState = {
			version: 1,
			rounds: [
				{
					round: 1,
					mode: 'files',
					status: 'written',
					sent_at: '2026-12-05T00:00:00Z',
					requests: 2,
					files: []
				}
			]
		};
		await store.writeBatchState(run, state);
		await store.appendBatchAnswers(run, answers.slice(0, 1));
		await store.appendBatchAnswers(run, answers.slice(1));
		expect(await store.readBatchState(run)).toEqual(state);
		expect(await store.readBatchAnswers(run)).toEqual(answers);
		await store.deleteRun(run);
		expect(await store.readBatchState(run)).toBeNull();
		expect(await store.readBatchAnswers(run)).toEqual([]);
	});
});
