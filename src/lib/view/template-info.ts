/** What each template of the pack is for, as the Prompts page explains it (in the UI language). */
import type { TemplateName } from '$lib/core/prompts/slots';
import type { Role } from '$lib/core/record-names';
import { m } from '$lib/paraglide/messages';

export interface TemplateInfo {
	title: string;
	role: Role;
	/** Stages whose calls fill it. */
	stages: string;
	description: string;
}

/** Who fills each template, and its stages where their names say it in any language. */
const FILLED: Record<TemplateName, { role: Role; stages?: string }> = {
	lexawn: { role: 'evaluated' },
	force_ask: { role: 'evaluated', stages: 'dcg' },
	force_judge: { role: 'evaluated' },
	user_standard: { role: 'user' },
	judge_lca: { role: 'judge', stages: 'gen' },
	judge_dcg: { role: 'judge', stages: 'dcg' },
	judge_extract: { role: 'judge', stages: 'ljp-direct, ljp-gold, ljp-interaction' }
};

/** Title, description and (where they are words) stages, as messages. */
const TEXTS: Record<TemplateName, () => [title: string, text: string, stages?: string]> = {
	lexawn: () => [m.tpl_lexawn_title(), m.tpl_lexawn_text(), m.tpl_lexawn_stages()],
	force_ask: () => [m.tpl_force_ask_title(), m.tpl_force_ask_text()],
	force_judge: () => [
		m.tpl_force_judge_title(),
		m.tpl_force_judge_text(),
		m.tpl_force_judge_stages()
	],
	user_standard: () => [
		m.tpl_user_standard_title(),
		m.tpl_user_standard_text(),
		m.tpl_user_standard_stages()
	],
	judge_lca: () => [m.tpl_judge_lca_title(), m.tpl_judge_lca_text()],
	judge_dcg: () => [m.tpl_judge_dcg_title(), m.tpl_judge_dcg_text()],
	judge_extract: () => [m.tpl_judge_extract_title(), m.tpl_judge_extract_text()]
};

/** The explanation of one template, in the current interface language. */
export function templateInfo(name: TemplateName): TemplateInfo {
	const { role, stages } = FILLED[name];
	const [title, description, translated] = TEXTS[name]();
	return { title, role, stages: translated ?? stages ?? '', description };
}

/** A role's name in the current interface language. */
export function roleLabel(role: Role): string {
	return role === 'evaluated'
		? m.role_evaluated()
		: role === 'user'
			? m.role_user()
			: m.role_judge();
}
