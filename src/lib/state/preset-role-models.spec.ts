import { describe, expect, it } from 'vitest';
import { DEFAULT_JUDGE_MODEL, DEFAULT_USER_MODEL } from '$lib/core/run-defaults';
import { paperNameFix, PRESET_ROLE_MODELS } from './preset-role-models';
import { PRESETS } from './provider-presets';

describe('paperNameFix', () => {
	it('flags the paper’s default ids on the default OpenAI endpoint and offers OpenAI ids', () => {
		expect(paperNameFix('user', DEFAULT_USER_MODEL, 'openai')).toEqual({
			suggested: 'gpt-4.1-mini'
		});
		expect(paperNameFix('judge', DEFAULT_JUDGE_MODEL, 'openai')).toEqual({ suggested: 'gpt-4.1' });
		expect(paperNameFix('judge', DEFAULT_JUDGE_MODEL, 'deepseek')).toEqual({
			suggested: 'deepseek-reasoner'
		});
	});

	it('flags them on a local server too, with nothing to offer', () => {
		expect(paperNameFix('user', DEFAULT_USER_MODEL, 'ollama')).toEqual({ suggested: null });
	});

	it('says nothing of an id the user chose, nor of the evaluated model', () => {
		expect(paperNameFix('user', 'gpt-4o', 'openai')).toBeUndefined();
		expect(paperNameFix('evaluated', DEFAULT_USER_MODEL, 'openai')).toBeUndefined();
	});

	it('pairs each preset only with ids its own list suggests', () => {
		for (const [id, pair] of Object.entries(PRESET_ROLE_MODELS)) {
			const served = PRESETS[id as keyof typeof PRESETS].models;
			expect(served).toContain(pair.user);
			expect(served).toContain(pair.judge);
		}
	});
});
