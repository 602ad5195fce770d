import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../../tests/support/memory-storage';
import {
	forgetPlan,
	loadStoredPlans,
	PLAN_SPECS_KEY,
	readStoredPlan,
	setStoredPlanStatus,
	storePlan,
	type StoredPlan
} from './plan-specs';

const plan = (planId = 'a'.repeat(64)): StoredPlan => ({
	planId,
	spec: {
		runId: 'run',
		repetitions: 2,
		models: [{ evaluated: { model: 'm1', endpoint: 'http://x/v1' } }],
		user: { model: 'u', endpoint: 'http://x/v1' },
		judge: { model: 'j', endpoint: 'http://x/v1' }
	},
	stages: ['gen', 'dcg'],
	limit: 8,
	settings: { temperature: 0, judge_temperature: 0, max_tokens: 100, timeout_s: 60, retries: 3 },
	datasetName: 'lexpilot.json',
	simulated: false,
	status: 'running',
	updatedAt: '2026-01-01T00:00:00.000Z'
});

describe('stored run plans', () => {
	it('reads back what it stored, by plan id; status changes and forgetting', () => {
		const s = memoryStorage();
		storePlan(s, plan());
		storePlan(s, plan('b'.repeat(64)));
		storePlan(s, plan());
		expect(loadStoredPlans(s).map((p) => p.planId)).toEqual(['b'.repeat(64), 'a'.repeat(64)]);
		expect(loadStoredPlans(s)[1]).toEqual(plan());
		setStoredPlanStatus(s, 'a'.repeat(64), 'paused', new Date('2026-02-02T00:00:00Z'));
		expect(loadStoredPlans(s)[1]).toMatchObject({
			status: 'paused',
			updatedAt: '2026-02-02T00:00:00.000Z'
		});
		forgetPlan(s, 'b'.repeat(64));
		expect(loadStoredPlans(s).map((p) => p.planId)).toEqual(['a'.repeat(64)]);
	});

	it('drops any field it does not know (a key above all) and refuses what is not a plan', () => {
		const withKey = {
			...plan(),
			apiKey: 'sk-secret',
			spec: {
				...plan().spec,
				models: [{ evaluated: { model: 'm', endpoint: 'e', apiKey: 'sk-2' } }]
			}
		};
		expect(JSON.stringify(readStoredPlan(withKey))).not.toContain('sk-');
		expect(readStoredPlan({ ...plan(), status: 'done' })).toBeNull();
		expect(readStoredPlan({ ...plan(), stages: ['nope'] })).toBeNull();
		expect(readStoredPlan({ ...plan(), spec: { ...plan().spec, models: [] } })).toBeNull();
		expect(readStoredPlan({ ...plan(), limit: 1.5 })).toBeNull();
		expect(readStoredPlan('x')).toBeNull();
	});

	it('keeps a model’s own user model and judge, and refuses one it cannot read', () => {
		const own = { evaluated: { model: 'm', endpoint: 'e' }, judge: { model: 'j', endpoint: 'e2' } };
		const models = (v: unknown) => ({ ...plan(), spec: { ...plan().spec, models: [v] } });
		expect(readStoredPlan(models(own))?.spec.models).toEqual([own]);
		expect(readStoredPlan(models({ ...own, user: { model: '', endpoint: 'e' } }))).toBeNull();
		expect(readStoredPlan(models({ ...own, user: 'sk-x' }))).toBeNull();
	});

	it('a broken entry costs only itself; broken storage costs the list, not the page', () => {
		const s = memoryStorage();
		s.data.set(PLAN_SPECS_KEY, JSON.stringify({ x: { planId: 'x' }, a: plan() }));
		expect(loadStoredPlans(s)).toEqual([plan()]);
		s.data.set(PLAN_SPECS_KEY, '{not json');
		expect(loadStoredPlans(s)).toEqual([]);
		expect(loadStoredPlans(null)).toEqual([]);
	});
});

describe('a stored plan in batch mode', () => {
	it('keeps a batch mode it knows and drops anything else', () => {
		expect(readStoredPlan({ ...plan(), batch: 'files' })?.batch).toBe('files');
		expect(readStoredPlan({ ...plan(), batch: 'provider' })?.batch).toBe('provider');
		expect(readStoredPlan({ ...plan(), batch: 'cluster' })).not.toHaveProperty('batch');
		expect(readStoredPlan(plan())).not.toHaveProperty('batch');
	});
});
