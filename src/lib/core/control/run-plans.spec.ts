import { describe, expect, it } from 'vitest';
import {
	loadPlans,
	PLANS_STORAGE_KEY,
	removePlan,
	savePlan,
	updatePlanStatus,
	type RunPlan
} from './run-plans';
import { memoryStorage } from '../../../../tests/support/memory-storage';
import { coded } from '../said';

/** A storage holding `plans` as the run plans' entry, or nothing. */
const storage = (plans?: string) =>
	memoryStorage(plans === undefined ? {} : { [PLANS_STORAGE_KEY]: plans });

function plan(runId: string, overrides: Partial<RunPlan> = {}): RunPlan {
	return {
		runId,
		modelDir: 'qwen-1a2b3c4d',
		stages: ['gen', 'dcg'],
		concurrency: 4,
		datasetName: 'lexpilot.json',
		status: 'running',
		error: null,
		updatedAt: '2025-01-01T00:00:00.000Z',
		...overrides
	};
}

describe('run plans', () => {
	it('adds, replaces, updates and removes plans by run id and model', () => {
		const s = storage();
		savePlan(s, plan('run1'));
		savePlan(s, plan('run2'));
		savePlan(s, plan('run1', { stages: ['gen'] }));
		expect(loadPlans(s).map((p) => [p.runId, p.stages])).toEqual([
			['run2', ['gen', 'dcg']],
			['run1', ['gen']]
		]);
		updatePlanStatus(s, plan('run2'), 'failed', 'case #3: 401', new Date('2025-02-02T00:00:00Z'));
		expect(loadPlans(s)[0]).toMatchObject({
			status: 'failed',
			error: 'case #3: 401',
			updatedAt: '2025-02-02T00:00:00.000Z'
		});
		removePlan(s, plan('run1'));
		expect(loadPlans(s).map((p) => p.runId)).toEqual(['run2']);
	});

	it('keeps a failure’s coded pieces beside its English, and drops pieces that do not read back', () => {
		const s = storage();
		savePlan(s, plan('run1'));
		const said = [
			coded('run_stopped_at_case', { stage: 'gen', index: 3, caseNumber: 'A\u001b' }),
			coded('run_saved_cases', { done: 3, total: 9 })
		];
		updatePlanStatus(s, plan('run1'), 'failed', 'gen stopped at case #3', new Date(), said);
		expect(loadPlans(s)[0].errorSaid).toEqual(said);
		expect(JSON.stringify(said)).toContain('A\\\\u001b');
		// Another status drops them with the error.
		updatePlanStatus(s, plan('run1'), 'running');
		expect(loadPlans(s)[0]).not.toHaveProperty('errorSaid');
		// An unknown code, a missing parameter, a parameter too many: the English alone is kept.
		for (const bad of [
			[{ code: 'no_such_code', params: {} }],
			[{ code: 'run_saved_cases', params: { done: 3 } }],
			[{ code: 'run_saved_cases', params: { done: 3, total: 9, extra: 'x' } }],
			'not a list'
		]) {
			const text = JSON.stringify([{ ...plan('run2', { error: 'boom' }), errorSaid: bad }]);
			const [read] = loadPlans(storage(text));
			expect(read.error).toBe('boom');
			expect(read).not.toHaveProperty('errorSaid');
		}
	});

	it('never stores a field it does not know, such as a key', () => {
		const s = storage();
		savePlan(s, { ...plan('run1'), apiKey: 'sk-should-not-be-kept' } as RunPlan);
		expect([...s.data.values()].join()).not.toContain('sk-should-not-be-kept');
	});

	it.each([
		['not JSON', '{'],
		['not an array', '{"runId":"x"}'],
		['a broken entry among good ones', JSON.stringify([{ runId: 'x' }, plan('ok')])]
	])('reads %s without failing, keeping what is valid', (_name, text) => {
		const runIds = loadPlans(storage(text)).map((p) => p.runId);
		expect(runIds).toEqual(text.includes('"ok"') ? ['ok'] : []);
	});

	it('drops each entry that breaks one rule of a plan, and only those', () => {
		const broken: [string, unknown][] = [
			['an empty run id', { runId: '' }],
			['no model folder', { modelDir: undefined }],
			['no stages', { stages: [] }],
			['an unknown stage', { stages: ['gen', 'deploy'] }],
			['concurrency 0', { concurrency: 0 }],
			['a fractional concurrency', { concurrency: 1.5 }],
			['an unknown status', { status: 'exploded' }],
			['a numeric error', { error: 3 }],
			['no date', { updatedAt: null }]
		];
		const entries = broken.map(([, o]) => ({ ...plan('bad'), ...(o as object) }));
		const s = storage(JSON.stringify([...entries, plan('ok', { status: 'done', error: 'x' })]));
		expect(loadPlans(s)).toEqual([plan('ok', { status: 'done', error: 'x' })]);
		expect(() => savePlan(storage(), { ...plan('x'), concurrency: 0 })).toThrow(
			/not a valid run plan/
		);
	});

	it('works without localStorage at all', () => {
		expect(loadPlans(null)).toEqual([]);
		expect(() => savePlan(null, plan('run1'))).not.toThrow();
	});
});
