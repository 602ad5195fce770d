import { describe, expect, it } from 'vitest';
import { KEYS_STORAGE_KEY, SETTINGS_STORAGE_KEY } from './model-settings';
import { memoryStorage } from '../../../tests/support/memory-storage';
import { SettingsState } from './settings.svelte';

const everything = (s: { data: Map<string, string> }) => [...s.data.values()].join('\n');

describe('SettingsState', () => {
	it('writes settings but no key until the user opts in, and forgets keys on request', () => {
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
		expect(new SettingsState(storage).value.defaults.apiKey).toBe('sk-live-1234');

		state.forgetKeys();
		expect(state.value.defaults.apiKey).toBe('');
		expect(state.value.rememberKeys).toBe(false);
		expect(everything(storage)).not.toContain('sk-live-1234');
		const reopened = new SettingsState(storage);
		expect(reopened.value.defaults.apiKey).toBe('');
		expect(reopened.value.roles.evaluated.model).toBe('deepseek-chat');
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

	it('answers Test connection offline in simulated mode', async () => {
		const state = new SettingsState(null);
		state.value.mode = 'simulated';
		await state.testConnection('judge');
		const test = state.tests.judge;
		expect(test.state === 'done' && test.result.status).toBe('ok');
		expect(test.state === 'done' && test.result.message).toContain('offline');
	});
});
