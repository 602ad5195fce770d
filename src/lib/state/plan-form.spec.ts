import { describe, expect, it } from 'vitest';
import { planRuns } from '$lib/core/engine/plan';
import { SIMULATED_ENDPOINT } from '$lib/core/run-defaults';
import { buildPlan, isPlan, planRunIdsOf, type PlanModelRow } from './plan-form';
import { defaultModelSettings, type ModelSettings } from './model-settings';

const row = (model = '', baseURL = '', apiKey = ''): PlanModelRow => ({ model, baseURL, apiKey });

function real(): ModelSettings {
	const s = defaultModelSettings();
	s.defaults.baseURL = 'http://shared.example/v1';
	s.defaults.apiKey = 'sk-shared-0123456789';
	s.roles.evaluated.model = 'gpt-x';
	s.roles.user.model = 'user-m';
	s.roles.judge.model = 'judge-m';
	return s;
}

describe('plan form → PlanSpec', () => {
	it('one model of the Models page, once, is no plan', () => {
		expect(isPlan({ runId: 'run1', repetitions: 1, rows: [row()] })).toBe(false);
		expect(isPlan({ runId: 'run1', repetitions: 2, rows: [row()] })).toBe(true);
		expect(isPlan({ runId: 'run1', repetitions: 1, rows: [row(), row()] })).toBe(true);
		expect(isPlan({ runId: 'run1', repetitions: 1, rows: [row('other')] })).toBe(true);
	});

	it('models with their own base URL and key, or the shared ones; user and judge are the plan’s', () => {
		const built = buildPlan(
			{
				runId: 'run',
				repetitions: 3,
				rows: [row(), row('local-m', 'http://local:8000/v1?token=sk-hidden-999', 'sk-own-123456')]
			},
			real()
		);
		expect(built.spec).toEqual({
			runId: 'run',
			repetitions: 3,
			models: [
				{ evaluated: { model: 'gpt-x', endpoint: 'http://shared.example/v1' } },
				// The query value is a key's hiding place: never in the spec.
				{ evaluated: { model: 'local-m', endpoint: expect.not.stringContaining('sk-hidden') } }
			],
			user: { model: 'user-m', endpoint: 'http://shared.example/v1' },
			judge: { model: 'judge-m', endpoint: 'http://shared.example/v1' }
		});
		expect(JSON.stringify(built.spec)).not.toContain('sk-');
		expect(built.clients[0].evaluated.apiKey).toBe('sk-shared-0123456789');
		expect(built.clients[1].evaluated).toEqual({
			model: 'local-m',
			baseURL: 'http://local:8000/v1?token=sk-hidden-999',
			apiKey: 'sk-own-123456'
		});
		// A model's own base URL without a key does not send the shared key elsewhere.
		const noKey = buildPlan(
			{ runId: 'r', repetitions: 1, rows: [row('a'), row('b', 'http://other/v1')] },
			real()
		);
		expect(noKey.clients[1].evaluated.apiKey).toBe('');
		expect(built.keys.sort()).toEqual(['sk-own-123456', 'sk-shared-0123456789']);
		expect(planRuns(built.spec).map((r) => `${r.models.evaluated}/${r.runId}`)).toEqual([
			'gpt-x/run1',
			'gpt-x/run2',
			'gpt-x/run3',
			'local-m/run1',
			'local-m/run2',
			'local-m/run3'
		]);
	});

	it('simulated models are the simulated endpoint; one repetition keeps the run id as typed', () => {
		const s = defaultModelSettings();
		s.mode = 'simulated';
		const built = buildPlan(
			{ runId: 'run7', repetitions: 1, rows: [row('simulated-strong'), row('simulated-weak')] },
			s
		);
		expect(built.simulated).toBe(true);
		expect(built.keys).toEqual([]);
		expect(built.spec.repetitions).toBeUndefined();
		expect(built.spec.models.map((m) => m.evaluated.endpoint)).toEqual([
			SIMULATED_ENDPOINT,
			SIMULATED_ENDPOINT
		]);
		expect(planRunIdsOf({ runId: 'run7', repetitions: 1, rows: [row('a'), row('b')] }, s)).toEqual([
			'run7'
		]);
	});

	it('refuses what the core refuses: a model twice, repetitions outside 1–10, a bad prefix', () => {
		const s = real();
		expect(() => buildPlan({ runId: 'r', repetitions: 1, rows: [row('a'), row('a')] }, s)).toThrow(
			/named twice/
		);
		expect(() => buildPlan({ runId: 'r', repetitions: 11, rows: [row()] }, s)).toThrow(/1 to 10/);
		expect(() => buildPlan({ runId: 'r/x', repetitions: 2, rows: [row()] }, s)).toThrow(/run id/);
		expect(planRunIdsOf({ runId: 'r', repetitions: 0, rows: [row()] }, s)).toEqual([]);
	});

	it('a model may set its own user model and judge; the others keep the plan’s', () => {
		const own = {
			...row('local-m'),
			user: { model: 'user-local', baseURL: 'http://local:8000/v1', apiKey: 'sk-user-local-1' },
			judge: { model: 'judge-big', baseURL: '', apiKey: '' }
		};
		const empty = { ...row('gpt-y'), user: row(), judge: row() };
		expect(isPlan({ runId: 'r', repetitions: 1, rows: [{ ...row(), judge: row('j') }] })).toBe(
			true
		);
		const built = buildPlan({ runId: 'r', repetitions: 1, rows: [empty, own] }, real());
		expect(built.spec.models).toEqual([
			{ evaluated: { model: 'gpt-y', endpoint: 'http://shared.example/v1' } },
			{
				evaluated: { model: 'local-m', endpoint: 'http://shared.example/v1' },
				user: { model: 'user-local', endpoint: 'http://local:8000/v1' },
				judge: { model: 'judge-big', endpoint: 'http://shared.example/v1' }
			}
		]);
		expect(built.clients[1].user.apiKey).toBe('sk-user-local-1');
		// The judge at the shared URL takes the shared key; the plan's judge stays for the other model.
		expect(built.clients[1].judge.apiKey).toBe('sk-shared-0123456789');
		expect(built.clients[0].judge.model).toBe('judge-m');
		expect(planRuns(built.spec).map((r) => r.models)).toEqual([
			{ evaluated: 'gpt-y', user: 'user-m', judge: 'judge-m' },
			{ evaluated: 'local-m', user: 'user-local', judge: 'judge-big' }
		]);
		expect(JSON.stringify(built.spec)).not.toContain('sk-');
	});
});
