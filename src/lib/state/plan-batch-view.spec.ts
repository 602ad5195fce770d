import { describe, expect, it } from 'vitest';
import { planBatchStatus, type PlanBatchRow, type PlanBatchStatus } from './plan-batch-view';

const rows = (...statuses: PlanBatchStatus[]): PlanBatchRow[] =>
	statuses.map((status, i) => ({
		run: { runId: `r${i}`, modelDir: 'm-12345678' },
		model: 'm',
		repetition: i + 1,
		status,
		batch: null
	}));

describe('a plan in batch mode, as a whole', () => {
	it('runs while a run runs; else says a failure, a stop, a wait, and done last', () => {
		expect(planBatchStatus(rows('done', 'running', 'failed'))).toBe('running');
		expect(planBatchStatus(rows('waiting', 'failed', 'done'))).toBe('failed');
		expect(planBatchStatus(rows('waiting', 'aborted'))).toBe('aborted');
		expect(planBatchStatus(rows('done', 'waiting'))).toBe('waiting');
		expect(planBatchStatus(rows('done', 'done'))).toBe('done');
	});
});
