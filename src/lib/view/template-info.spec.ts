import { describe, expect, it } from 'vitest';
import { TEMPLATE_NAMES } from '$lib/core/prompts/pack';
import { m } from '$lib/paraglide/messages';
import { roleLabel, templateInfo } from './template-info';

describe('templateInfo', () => {
	it('explains every template of the pack: who fills it, in which stages, and what for', () => {
		expect(TEMPLATE_NAMES.map((name) => [name, templateInfo(name).role])).toEqual([
			['lexawn', 'evaluated'],
			['force_ask', 'evaluated'],
			['force_judge', 'evaluated'],
			['user_standard', 'user'],
			['judge_lca', 'judge'],
			['judge_dcg', 'judge'],
			['judge_extract', 'judge']
		]);
		for (const name of TEMPLATE_NAMES) {
			const info = templateInfo(name);
			expect(info.title.trim(), name).not.toBe('');
			expect(info.stages.trim(), name).not.toBe('');
			expect(info.description.trim(), name).not.toBe('');
		}
	});

	it('names stages by their command where that says it, in words where it does not', () => {
		expect(templateInfo('force_ask').stages).toBe('dcg');
		expect(templateInfo('judge_extract').stages).toBe('ljp-direct, ljp-gold, ljp-interaction');
		expect(templateInfo('lexawn')).toEqual({
			title: m.tpl_lexawn_title(),
			role: 'evaluated',
			stages: m.tpl_lexawn_stages(),
			description: m.tpl_lexawn_text()
		});
		expect(roleLabel(templateInfo('judge_dcg').role)).toBe(m.role_judge());
	});
});
