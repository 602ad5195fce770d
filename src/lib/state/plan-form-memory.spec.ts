import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../../tests/support/memory-storage';
import {
	dropPlanFormKeys,
	keepPlanForm,
	loadPlanForm,
	MAX_FORM_ROWS,
	PLAN_FORM_KEY,
	readPlanForm,
	restorePlanForm,
	type PlanFormFields
} from './plan-form-memory';

const role = (model = '', baseURL = '', apiKey = '') => ({ model, baseURL, apiKey });
const fields = (): PlanFormFields => ({
	runId: 'plan',
	runIdEdited: true,
	active: false,
	plan: {
		repetitions: 3,
		rows: [
			{
				...role('simulated-strong'),
				user: role(),
				judge: role('judge-b', 'http://j/v1', 'sk-j-1')
			},
			{ ...role('local', 'http://local/v1', 'sk-own-2'), user: role(), judge: role() }
		]
	}
});
const fresh = (): PlanFormFields => ({
	runId: '',
	runIdEdited: false,
	active: false,
	plan: { repetitions: 1, rows: [{ ...role(), user: role(), judge: role() }] }
});

describe('the plan form across a reload', () => {
	it('comes back as typed, keys only when the Models page remembers keys', () => {
		for (const keys of [false, true]) {
			const s = memoryStorage();
			keepPlanForm(fields(), s, keys);
			expect(s.data.get(PLAN_FORM_KEY)!.includes('sk-')).toBe(keys);
			const back = fresh();
			restorePlanForm(back, s, keys);
			const want = fields();
			if (!keys) for (const r of want.plan.rows) r.apiKey = r.judge!.apiKey = '';
			expect(back).toEqual(want);
		}
	});

	it('never reads a key back once keys are not remembered, and drops them when told', () => {
		const s = memoryStorage();
		keepPlanForm(fields(), s, true);
		expect(JSON.stringify(loadPlanForm(s, false))).not.toContain('sk-');
		dropPlanFormKeys(s);
		expect(s.data.get(PLAN_FORM_KEY)).not.toContain('sk-');
		expect(loadPlanForm(s, true)?.rows[1].baseURL).toBe('http://local/v1');
	});

	it('keeps a suggested or typed run id of a single run to the page', () => {
		const s = memoryStorage();
		keepPlanForm({ ...fresh(), runId: 'run4' }, s, false);
		const back = fresh();
		restorePlanForm(back, s, false);
		expect(back.runId).toBe('');
		const typed = { ...fields(), runId: '' };
		const withId = { ...fields(), runId: 'mine' };
		keepPlanForm(withId, s, false);
		restorePlanForm(typed, s, false);
		expect(typed.runId).toBe('mine');
	});

	it('reads hostile storage field by field, bounded, and changes nothing while a run is under way', () => {
		const bad = readPlanForm(
			{
				runId: 'x'.repeat(65),
				repetitions: 11,
				rows: [
					...Array.from({ length: MAX_FORM_ROWS + 5 }, () => ({ model: 7, apiKey: 'sk-3' })),
					'junk'
				],
				extra: 'sk-4'
			},
			false
		)!;
		expect(bad.runId).toBe('');
		expect(bad.repetitions).toBe(1);
		expect(bad.rows).toHaveLength(MAX_FORM_ROWS);
		expect(bad.rows[0]).toEqual({ ...role(), user: role(), judge: role() });
		expect(JSON.stringify(bad)).not.toContain('sk-');
		expect(readPlanForm({ rows: [] }, false)).toBeNull();
		expect(readPlanForm('[', false)).toBeNull();
		const s = memoryStorage();
		s.data.set(PLAN_FORM_KEY, '{not json');
		expect(loadPlanForm(s, false)).toBeNull();
		keepPlanForm(fields(), s, false);
		const busy = { ...fresh(), active: true };
		restorePlanForm(busy, s, false);
		expect(busy).toEqual({ ...fresh(), active: true });
	});
});
