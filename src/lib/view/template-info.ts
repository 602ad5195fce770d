/** What each template of the pack is for, as the Prompts page explains it (in the UI language). */
import type { TemplateName } from '$lib/core/prompts/pack';
import type { Role } from '$lib/core/records';
import { m } from '$lib/paraglide/messages';

export interface TemplateInfo {
	title: string;
	role: Role;
	/** Stages whose calls fill it. */
	stages: string;
	description: string;
}

/** The explanation of one template, in the current interface language. */
export function templateInfo(name: TemplateName): TemplateInfo {
	switch (name) {
		case 'lexawn':
			return {
				title: m.tpl_lexawn_title(),
				role: 'evaluated',
				stages: m.tpl_lexawn_stages(),
				description: m.tpl_lexawn_text()
			};
		case 'force_ask':
			return {
				title: m.tpl_force_ask_title(),
				role: 'evaluated',
				stages: 'dcg',
				description: m.tpl_force_ask_text()
			};
		case 'force_judge':
			return {
				title: m.tpl_force_judge_title(),
				role: 'evaluated',
				stages: m.tpl_force_judge_stages(),
				description: m.tpl_force_judge_text()
			};
		case 'user_standard':
			return {
				title: m.tpl_user_standard_title(),
				role: 'user',
				stages: m.tpl_user_standard_stages(),
				description: m.tpl_user_standard_text()
			};
		case 'judge_lca':
			return {
				title: m.tpl_judge_lca_title(),
				role: 'judge',
				stages: 'gen',
				description: m.tpl_judge_lca_text()
			};
		case 'judge_dcg':
			return {
				title: m.tpl_judge_dcg_title(),
				role: 'judge',
				stages: 'dcg',
				description: m.tpl_judge_dcg_text()
			};
		case 'judge_extract':
			return {
				title: m.tpl_judge_extract_title(),
				role: 'judge',
				stages: 'ljp-direct, ljp-gold, ljp-interaction',
				description: m.tpl_judge_extract_text()
			};
	}
}

/** A role's name in the current interface language. */
export function roleLabel(role: Role): string {
	return role === 'evaluated'
		? m.role_evaluated()
		: role === 'user'
			? m.role_user()
			: m.role_judge();
}
