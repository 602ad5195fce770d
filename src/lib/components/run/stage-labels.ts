/** How the Run page names and explains each stage (SPEC §4). */
import type { StageName } from '$lib/core/engine/types';

export const STAGE_LABEL: Record<StageName, string> = {
	gen: 'gen — ask or answer, interaction',
	lca: 'lca — re-judge saved answers',
	dcg: 'dcg — forced questions',
	'ljp-direct': 'ljp-direct',
	'ljp-gold': 'ljp-gold',
	'ljp-interaction': 'ljp-interaction'
};

export const STAGE_HELP: Record<StageName, string> = {
	gen: 'One answer after each history, labelled ask/answer (LCA), then the interaction on the underspecified history: up to 3 questions answered by the user model, then a forced prediction.',
	lca: 'Labels saved a1 answers that have no LCA label yet.',
	dcg: 'Two forced questions on the underspecified history, each judged against the focal points.',
	'ljp-direct': 'A forced prediction on the underspecified history, verdicts extracted per claim.',
	'ljp-gold': 'A forced prediction on the complete history, verdicts extracted per claim.',
	'ljp-interaction':
		'Verdicts extracted from the final answer of each interaction. Needs gen saved for every selected case.'
};
