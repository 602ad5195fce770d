import { describe, expect, it } from 'vitest';
import { DEFAULT_PROMPT_PACK, parsePromptPack } from '$lib/core/prompts';
import { exportPromptPack } from '$lib/core/prompts/pack-json';
import { EDITED_DEFAULT_NAME, namedForEdits } from './pack-naming';
import { PromptsState } from './prompts.svelte';
import * as validator from '$lib/core/prompts/pack';

const judge = DEFAULT_PROMPT_PACK.templates.force_judge;

describe('an edited default pack', () => {
	it('takes a name of its own on the first edit, in the exported file too, which reads back', () => {
		const state = new PromptsState(null, validator);
		expect(state.setTemplate('force_judge', `请认真。${judge}`)).toEqual([]);
		expect(state.pack.name).toBe(EDITED_DEFAULT_NAME);
		expect(state.pack.name).not.toBe(DEFAULT_PROMPT_PACK.name);
		const file = state.exportText();
		expect(JSON.parse(file).name).toBe(EDITED_DEFAULT_NAME);
		const again = new PromptsState(null, validator);
		again.importText(file);
		expect(again.pack).toEqual(state.pack);
		expect(parsePromptPack(file).name).toBe(EDITED_DEFAULT_NAME);
	});

	it('is the default again once every template is back', () => {
		const state = new PromptsState(null, validator);
		state.setTemplate('force_judge', `请认真。${judge}`);
		state.resetTemplate('force_judge');
		expect(state.isDefault).toBe(true);
	});

	it('keeps a name the user chose, and an imported pack as it is', () => {
		const own = {
			...DEFAULT_PROMPT_PACK,
			name: 'mine',
			templates: { ...DEFAULT_PROMPT_PACK.templates, force_judge: `x${judge}` }
		};
		expect(namedForEdits(own)).toBe(own);
		const state = new PromptsState(null, validator);
		const imported = { ...DEFAULT_PROMPT_PACK, templates: own.templates };
		state.importText(exportPromptPack(imported));
		expect(state.pack.name).toBe(DEFAULT_PROMPT_PACK.name);
	});
});
