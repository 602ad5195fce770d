import { describe, expect, it } from 'vitest';
import { DEFAULT_BASE_URL, SETTING_LIMITS, SIMULATED_ENDPOINT } from '$lib/core/run-config';
import {
	defaultModelSettings,
	fromStored,
	resolveEndpoints,
	runIdentity,
	settingsProblems,
	toStored,
	type ModelSettings
} from './model-settings';

function settings(edit: (s: ModelSettings) => void = () => {}): ModelSettings {
	const s = defaultModelSettings();
	s.roles.evaluated.model = 'qwen2.5:7b';
	edit(s);
	return s;
}

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

describe('stored settings', () => {
	const withKeys = (remember: boolean) =>
		settings((s) => {
			s.rememberKeys = remember;
			s.defaults.apiKey = 'sk-default-key';
			Object.assign(s.roles.judge, { useDefaultKey: false, apiKey: 'sk-judge-key' });
			s.generation.temperature = 0.3;
			s.concurrency = 8;
		});

	it('keeps keys out of storage unless the user opted in', () => {
		const stored = toStored(withKeys(false));
		expect(stored.keys).toBeNull();
		expect(stored.settings).not.toMatch(/sk-(default|judge)-key/);
		const back = fromStored(stored.settings, stored.keys);
		expect(back.defaults.apiKey).toBe('');
		expect(back.roles.judge.apiKey).toBe('');
		expect(back.generation.temperature).toBe(0.3);
		expect(back.concurrency).toBe(8);
	});

	it('restores keys, in their own entry, when remembered', () => {
		const s = withKeys(true);
		const stored = toStored(s);
		expect(stored.settings).not.toMatch(/sk-(default|judge)-key/);
		expect(fromStored(stored.settings, stored.keys)).toEqual(s);
	});

	it('ignores remembered keys once the opt-in is off', () => {
		const stored = toStored(withKeys(true));
		const off = toStored(withKeys(false)).settings;
		expect(fromStored(off, stored.keys).defaults.apiKey).toBe('');
	});

	it('keeps the other settings when one stored value is unusable (an emptied number field)', () => {
		const s = withKeys(false);
		const stored = JSON.parse(toStored(s).settings);
		stored.generation.max_tokens = null;
		const back = fromStored(JSON.stringify(stored), null);
		expect(back.generation).toEqual({ ...s.generation, max_tokens: 8192 });
		expect(back.roles.evaluated.model).toBe('qwen2.5:7b');
		expect(back.concurrency).toBe(8);
	});

	it('checks each stored field on its own: odd values fall back, unknown fields and keys are dropped', () => {
		const back = fromStored(
			JSON.stringify({
				mode: 'quantum',
				defaults: { preset: 'nope', baseURL: 7, apiKey: 'sk-smuggled-0123456789' },
				roles: {
					evaluated: { model: 'm', useDefaultKey: 'yes', preset: 'ollama', extra: 1 },
					user: 'not a role',
					judge: { apiKey: 'sk-smuggled-0123456789' }
				},
				generation: [1, 2],
				concurrency: '8',
				rememberKeys: 1,
				unknown: true
			}),
			JSON.stringify({ defaults: 'k', evaluated: 'k', user: 'k', judge: 'k' })
		);
		const d = defaultModelSettings();
		expect(back).toEqual({
			...d,
			defaults: { preset: 'custom', baseURL: d.defaults.baseURL, apiKey: '' },
			roles: {
				evaluated: { ...d.roles.evaluated, model: 'm', preset: 'ollama' },
				user: d.roles.user,
				judge: d.roles.judge
			}
		});
		// Keys are read only with the opt-in, and only as four strings.
		const opted = JSON.stringify({ rememberKeys: true });
		expect(
			fromStored(opted, JSON.stringify({ defaults: 'k', evaluated: 'k', user: 'k' })).defaults
				.apiKey
		).toBe('');
		expect(
			fromStored(opted, JSON.stringify({ defaults: 'k', evaluated: 'e', user: 'u', judge: 'j' }))
				.roles.judge.apiKey
		).toBe('j');
	});

	it.each([
		['nothing stored', null],
		['not JSON', '{oops'],
		['an older shape', JSON.stringify({ mode: 'api', roles: {} })]
	])('falls back to the defaults for %s', (_name, text) => {
		expect(fromStored(text, null)).toEqual(defaultModelSettings());
	});
});
