import { afterEach, describe, expect, it } from 'vitest';
import {
	DEFAULT_PROMPT_PACK,
	exportPromptPack,
	parsePromptPack,
	promptPackProblemsSaid,
	promptsSha256
} from '$lib/core/prompts';
import { baseLocale, overwriteGetLocale } from '$lib/paraglide/runtime';
import { coreTexts } from './core-text.svelte';
import { PACK_STORAGE_KEY, PromptsState } from './prompts.svelte';
import { memoryStorage } from '../../../tests/support/memory-storage';

const validator = { parsePromptPack, promptPackProblemsSaid };

afterEach(() => overwriteGetLocale(() => baseLocale));

async function hashesSettled(state: PromptsState) {
	for (let i = 0; i < 100 && state.hashes === null; i++) await new Promise((r) => setTimeout(r, 1));
	return state.hashes;
}

describe('PromptsState', () => {
	it('saves a valid edit, keeps it across a reload, and goes back to the default on reset', async () => {
		const storage = memoryStorage();
		const state = new PromptsState(storage, validator);
		expect(state.isDefault).toBe(true);
		const edited = `${DEFAULT_PROMPT_PACK.templates.force_ask}\n请只问一个问题。`;
		expect(state.setTemplate('force_ask', edited)).toEqual([]);
		expect(state.isDefault).toBe(false);
		expect((await hashesSettled(state))?.prompts).toBe(await promptsSha256(state.pack));

		const reopened = new PromptsState(storage, validator);
		expect(reopened.pack.templates.force_ask).toBe(edited);

		state.resetAll();
		expect(state.isDefault).toBe(true);
		expect(storage.data.has(PACK_STORAGE_KEY)).toBe(false);
	});

	it.each([
		[
			'a hidden slot in an evaluated-model prompt',
			'lexawn',
			'<对话历史>{history}</对话历史>{claims}',
			'unknown slot {claims}'
		],
		['a missing required slot', 'judge_extract', '请判断：{response}', 'missing slot {claims}'],
		['an empty template', 'judge_lca', '  ', 'is empty']
	] as const)('refuses %s and keeps the saved text', (_name, template, text, problem) => {
		const state = new PromptsState(null, validator);
		const problems = state.setTemplate(template, text);
		expect(problems.join('\n')).toContain(problem);
		expect(state.pack.templates[template]).toBe(DEFAULT_PROMPT_PACK.templates[template]);
	});

	it('refuses an empty name or version in the interface language', async () => {
		const state = new PromptsState(null, validator);
		expect(state.setLabel('name', ' ')).toEqual(['name: name must not be empty']);
		await coreTexts.load();
		overwriteGetLocale(() => 'zh-CN');
		expect(state.setLabel('name', ' ')).toEqual(['name：名称不能为空']);
		expect(state.setLabel('version', '')).toEqual(['version：版本不能为空']);
		expect(state.pack.name).toBe(DEFAULT_PROMPT_PACK.name);
		expect(state.setLabel('name', 'mine')).toEqual([]);
		expect(state.pack.name).toBe('mine');
	});

	it('falls back to the default, saying why, when the stored pack is broken', () => {
		const storage = memoryStorage();
		const broken = {
			...DEFAULT_PROMPT_PACK,
			templates: { ...DEFAULT_PROMPT_PACK.templates, lexawn: '{key_details}' }
		};
		storage.setItem(PACK_STORAGE_KEY, JSON.stringify(broken));
		const state = new PromptsState(storage, validator);
		expect(state.isDefault).toBe(true);
		expect(state.restoreError).toContain('unknown slot {key_details}');
	});

	it('without a validator, reads a stored pack once restored() has fetched it, and its hashes', async () => {
		const storage = memoryStorage();
		const pack = { ...DEFAULT_PROMPT_PACK, name: 'lab-pack', version: '3' };
		storage.setItem(PACK_STORAGE_KEY, exportPromptPack(pack));
		const state = new PromptsState(storage);
		expect(state.restoring).toBe(true);
		await state.restored();
		expect(state.restoring).toBe(false);
		expect(state.pack).toEqual(pack);
		expect((await hashesSettled(state))?.prompts).toBe(await promptsSha256(pack));
	});

	it('shows no hashes while a stored pack is not read yet (never the default’s for an edited pack)', async () => {
		const storage = memoryStorage();
		const pack = { ...DEFAULT_PROMPT_PACK, name: 'lab-pack', version: '3' };
		storage.setItem(PACK_STORAGE_KEY, exportPromptPack(pack));
		const state = new PromptsState(storage);
		const defaultHashes = await hashesSettled(new PromptsState(memoryStorage()));
		expect(defaultHashes).not.toBeNull();
		expect(state.hashes).toBeNull();
		await state.restored();
		expect((await hashesSettled(state))?.prompts).toBe(await promptsSha256(pack));
	});

	it('without a stored pack, is restored at once with the default', async () => {
		const state = new PromptsState(memoryStorage());
		expect(state.restoring).toBe(false);
		await state.restored();
		expect(state.isDefault).toBe(true);
	});

	it('imports what it exports', () => {
		const state = new PromptsState(null, validator);
		const pack = { ...DEFAULT_PROMPT_PACK, name: 'lab-pack', version: '2' };
		state.importText(exportPromptPack(pack));
		expect(state.pack).toEqual(pack);
		expect(state.exportText()).toBe(exportPromptPack(pack));
	});
});
