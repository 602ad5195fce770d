import { describe, expect, it } from 'vitest';
import { settingsWith as settings } from '../../../tests/support/model-settings';
import { SETTING_LIMITS } from '$lib/core/run-defaults';
import { defaultModelSettings, toStored } from './model-settings';
import { readStoredModelSettings } from './stored-settings';

const fromStored = (text: string | null, keys: string | null) =>
	readStoredModelSettings(text, keys).settings;

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

describe('stored numbers, held to SETTING_LIMITS by the schema', () => {
	const stored = (edit: (raw: Record<string, Record<string, unknown>>) => void) => {
		const raw = JSON.parse(toStored(settings()).settings);
		edit(raw);
		return JSON.stringify(raw);
	};

	it.each([
		['timeout_s', 0, 120],
		['timeout_s', SETTING_LIMITS.timeout_s.max + 1, 120],
		['retries', 2.5, 3],
		['max_tokens', SETTING_LIMITS.max_tokens.max + 1, 8192],
		['temperature', -0.1, 0.7]
	] as const)('sets %s = %s back to %s and says so', (key, value, used) => {
		const read = readStoredModelSettings(
			stored((raw) => (raw.generation[key] = value)),
			null
		);
		expect(read.settings.generation[key]).toBe(used);
		expect(read.repaired).toEqual([
			{ field: `generation.${key}`, stored: JSON.stringify(value), used }
		]);
	});

	it('keeps every value at the ends of its range', () => {
		const text = stored((raw) => {
			raw.generation.timeout_s = SETTING_LIMITS.timeout_s.max;
			raw.generation.retries = SETTING_LIMITS.retries.min;
			(raw as Record<string, unknown>).concurrency = SETTING_LIMITS.concurrency.max;
		});
		const read = readStoredModelSettings(text, null);
		expect(read.repaired).toEqual([]);
		expect(read.settings.concurrency).toBe(SETTING_LIMITS.concurrency.max);
	});
});
