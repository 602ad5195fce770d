/** What each template of the pack is for, as the Prompts page explains it. */
import type { TemplateName } from '$lib/core/prompts/pack';
import type { Role } from '$lib/core/records';

export interface TemplateInfo {
	title: string;
	role: Role;
	/** Stages whose calls fill it. */
	stages: string;
	description: string;
}

export const TEMPLATE_INFO: Record<TemplateName, TemplateInfo> = {
	lexawn: {
		title: 'LexAwN: ask or answer',
		role: 'evaluated',
		stages: 'gen (a1 and interaction rounds)',
		description:
			'The evaluated model sees the conversation so far and either asks for missing facts or gives its analysis.'
	},
	force_ask: {
		title: 'Forced clarification',
		role: 'evaluated',
		stages: 'dcg',
		description:
			'The evaluated model must ask questions, not judge; each question is scored by the DCG judge.'
	},
	force_judge: {
		title: 'Forced prediction',
		role: 'evaluated',
		stages: 'ljp-direct, ljp-gold, the interaction’s final answer',
		description:
			'The evaluated model must predict the outcome from the facts given, stating its assumptions.'
	},
	user_standard: {
		title: 'Standard User Model',
		role: 'user',
		stages: 'gen (interaction), dcg',
		description:
			'The simulated client answers the lawyer’s question using only the case’s hidden facts.'
	},
	judge_lca: {
		title: 'LCA judge',
		role: 'judge',
		stages: 'gen',
		description:
			'Labels one response as a clarification (澄清) or a direct judgment (直接判断), as JSON.'
	},
	judge_dcg: {
		title: 'DCG judge',
		role: 'judge',
		stages: 'dcg',
		description:
			'Decides (是/否) whether a question targets the focal points and hidden facts, as JSON.'
	},
	judge_extract: {
		title: 'Verdict extraction',
		role: 'judge',
		stages: 'ljp-direct, ljp-gold, ljp-interaction',
		description:
			'Reads the final response and gives one verdict (支持/部分支持/驳回) per claim, in claim order, as JSON.'
	}
};

export const ROLE_LABEL: Record<Role, string> = {
	evaluated: 'evaluated model',
	user: 'user model',
	judge: 'judge'
};
