import { describe, expect, it } from 'vitest';
import { KEYS_STORAGE_KEY, SETTINGS_STORAGE_KEY } from './model-settings';
import { memoryStorage } from '../../../tests/support/memory-storage';
import { SettingsState } from './settings.svelte';

const everything = (s: { data: Map<string, string> }) => [...s.data.values()].join('\n');

describe('SettingsState', () => {
	it('writes settings but no key until the user opts in, and forgets keys on request', async () => {
		const storage = memoryStorage();
		const state = new SettingsState(storage);
		state.value.defaults.apiKey = 'sk-live-1234';
		state.value.roles.evaluated.model = 'deepseek-chat';
		state.persist();
		expect(storage.data.has(SETTINGS_STORAGE_KEY)).toBe(true);
		expect(everything(storage)).not.toContain('sk-live-1234');

		state.value.rememberKeys = true;
		state.persist();
		expect(storage.data.get(KEYS_STORAGE_KEY)).toContain('sk-live-1234');
		const again = new SettingsState(storage);
		await again.restored();
		expect(again.value.defaults.apiKey).toBe('sk-live-1234');

		state.forgetKeys();
		expect(state.value.defaults.apiKey).toBe('');
		expect(state.value.rememberKeys).toBe(false);
		expect(everything(storage)).not.toContain('sk-live-1234');
		const reopened = new SettingsState(storage);
		await reopened.restored();
		expect(reopened.value.defaults.apiKey).toBe('');
		expect(reopened.value.roles.evaluated.model).toBe('deepseek-chat');
	});

	it('reads stored settings only once restored, and writes nothing before', async () => {
		const storage = memoryStorage();
		const stored = new SettingsState(storage);
		stored.value.roles.evaluated.model = 'kept-model';
		stored.persist();
		const state = new SettingsState(storage);
		expect(state.loaded).toBe(false);
		state.persist();
		expect(storage.data.get(SETTINGS_STORAGE_KEY)).toContain('kept-model');
		await state.restored();
		expect(state.loaded).toBe(true);
		expect(state.value.roles.evaluated.model).toBe('kept-model');
	});

	it('fills the base URL from a preset, and a role preset gives the role its own URL', () => {
		const state = new SettingsState(null);
		state.applyPreset('defaults', 'ollama');
		expect(state.resolved.judge.baseURL).toBe('http://localhost:11434/v1');
		state.applyPreset('judge', 'deepseek');
		expect(state.value.roles.judge.useDefaultBaseURL).toBe(false);
		expect(state.resolved.judge.baseURL).toBe('https://api.deepseek.com/v1');
		expect(state.resolved.user.baseURL).toBe('http://localhost:11434/v1');
		// `custom` keeps whatever URL is there.
		state.applyPreset('judge', 'custom');
		expect(state.resolved.judge.baseURL).toBe('https://api.deepseek.com/v1');
	});

	it('says a port the browser refuses is blocked, without calling it', async () => {
		const state = new SettingsState(null);
		state.value.defaults.baseURL = 'http://localhost:9/v1';
		state.value.roles.evaluated.model = 'm';
		await state.testConnection('evaluated');
		const test = state.tests.evaluated;
		expect(test.state === 'done' && test.result.message).toContain('port 9');
		expect(test.state === 'done' && test.result.hint).toContain('8000');
	});

	it('answers Test connection in simulated mode as an endpoint does: its model, time and place', async () => {
		const state = new SettingsState(null);
		state.value.mode = 'simulated';
		await state.testConnection('judge');
		const test = state.tests.judge;
		if (test.state !== 'done') throw new Error(`test ${test.state}`);
		expect(test.simulated).toBe(true);
		expect(test.result.status).toBe('ok');
		expect(test.result.said?.code).toBe('conn_ok');
		expect(test.result.latencyMs).toBeGreaterThanOrEqual(40);
		expect(test.result.message).toBe(
			`simulated-judge at simulated://offline answered in ${test.result.latencyMs} ms.`
		);
	});
});
