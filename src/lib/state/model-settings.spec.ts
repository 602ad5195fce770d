import { describe, expect, it } from 'vitest';
import { settingsWith as settings } from '../../../tests/support/model-settings';
import { DEFAULT_BASE_URL, SETTING_LIMITS, SIMULATED_ENDPOINT } from '$lib/core/run-config';
import {
	defaultModelSettings,
	resolveEndpoints,
	runIdentity,
	settingsProblems,
	type ModelSettings
} from './model-settings';

describe('resolveEndpoints: roles fall back to the default endpoint (PROTOCOL.md §2)', () => {
	const cases: Array<[string, (s: ModelSettings) => void, string, string]> = [
		['no base URL at all → OpenAI', (s) => (s.defaults.baseURL = ''), DEFAULT_BASE_URL, ''],
		[
			'the default endpoint',
			(s) => Object.assign(s.defaults, { baseURL: 'http://localhost:11434/v1', apiKey: 'k-def' }),
			'http://localhost:11434/v1',
			'k-def'
		],
		[
			'own base URL and key',
			(s) => {
				s.defaults.apiKey = 'k-def';
				Object.assign(s.roles.judge, {
					useDefaultBaseURL: false,
					baseURL: ' https://api.deepseek.com/v1 ',
					useDefaultKey: false,
					apiKey: 'k-judge'
				});
			},
			'https://api.deepseek.com/v1',
			'k-judge'
		],
		[
			'own base URL left empty → default',
			(s) => Object.assign(s.roles.judge, { useDefaultBaseURL: false, baseURL: '  ' }),
			DEFAULT_BASE_URL,
			''
		],
		[
			'own URL but the default key',
			(s) => {
				s.defaults.apiKey = 'k-def';
				Object.assign(s.roles.judge, { useDefaultBaseURL: false, baseURL: 'http://x.test/v1' });
			},
			'http://x.test/v1',
			'k-def'
		]
	];
	it.each(cases)('%s', (_name, edit, baseURL, apiKey) => {
		const judge = resolveEndpoints(settings(edit)).judge;
		expect(judge).toEqual({ baseURL, apiKey, model: 'DeepSeek-R1' });
	});

	it('keeps the protocol defaults for the user and judge models and chooses no evaluated model', () => {
		const r = resolveEndpoints(defaultModelSettings());
		expect([r.evaluated.model, r.user.model, r.judge.model]).toEqual([
			'',
			'DeepSeek-V4.1-Flash',
			'DeepSeek-R1'
		]);
	});
});

describe('settingsProblems', () => {
	const cases: Array<[string, (s: ModelSettings) => void, string | null]> = [
		['valid', () => {}, null],
		['no evaluated model', (s) => (s.roles.evaluated.model = ' '), 'evaluated.model'],
		['empty judge model', (s) => (s.roles.judge.model = ''), 'judge.model'],
		['bad default URL', (s) => (s.defaults.baseURL = 'localhost:11434'), 'defaults.baseURL'],
		[
			'bad own URL',
			(s) => Object.assign(s.roles.user, { useDefaultBaseURL: false, baseURL: 'ftp://x' }),
			'user.baseURL'
		],
		['temperature above 2', (s) => (s.generation.temperature = 2.5), 'generation.temperature'],
		['fractional max tokens', (s) => (s.generation.max_tokens = 10.5), 'generation.max_tokens'],
		['zero timeout', (s) => (s.generation.timeout_s = 0), 'generation.timeout_s'],
		['empty retries', (s) => (s.generation.retries = NaN), 'generation.retries'],
		['zero concurrency', (s) => (s.concurrency = 0), 'concurrency']
	];
	it.each(cases)('%s', (_name, edit, field) => {
		const problems = settingsProblems(settings(edit));
		expect(problems.map((p) => p.field)).toEqual(field ? [field] : []);
	});

	it("takes retries up to the limits table's ceiling and refuses one more, with the range", () => {
		const max = SETTING_LIMITS.retries.max;
		expect(settingsProblems(settings((s) => (s.generation.retries = max)))).toEqual([]);
		const over = settingsProblems(settings((s) => (s.generation.retries = max + 1)));
		expect(over).toEqual([
			{ field: 'generation.retries', message: `Retries must be a whole number from 0 to ${max}.` }
		]);
	});

	it('needs no evaluated model or URL in simulated mode', () => {
		const s = settings((s) => {
			s.mode = 'simulated';
			s.roles.evaluated.model = '';
			s.defaults.baseURL = 'nonsense';
		});
		expect(settingsProblems(s)).toEqual([]);
	});
});

describe('runIdentity', () => {
	it('records base URLs and model ids, never keys', () => {
		const s = settings((s) => (s.defaults.apiKey = 'sk-secret-123'));
		const id = runIdentity(s);
		expect(JSON.stringify(id)).not.toContain('sk-secret-123');
		expect(id).toEqual({
			simulated: false,
			models: { evaluated: 'qwen2.5:7b', user: 'DeepSeek-V4.1-Flash', judge: 'DeepSeek-R1' },
			endpoints: { evaluated: DEFAULT_BASE_URL, user: DEFAULT_BASE_URL, judge: DEFAULT_BASE_URL }
		});
	});

	it('marks a simulated run as the CLI does', () => {
		const id = runIdentity(settings((s) => (s.mode = 'simulated')));
		expect(id.simulated).toBe(true);
		expect(id.models.evaluated).toBe('simulated');
		expect(Object.values(id.endpoints)).toEqual(Array(3).fill(SIMULATED_ENDPOINT));
	});

	it('records simulated user and judge ids, never the real models they stand in for', () => {
		const id = runIdentity(settings((s) => (s.mode = 'simulated')));
		expect(id.models).toEqual({
			evaluated: 'simulated',
			user: 'simulated-user',
			judge: 'simulated-judge'
		});
	});
});
