/** How the Run page names and explains each stage (PROTOCOL.md §4), in the interface language. */
import type { StageName } from '$lib/core/engine/types';
import { m } from '$lib/paraglide/messages';

// Getters, so a language switch shows at once; the stage names themselves are the protocol's.
export const STAGE_LABEL: Record<StageName, string> = {
	get gen() {
		return m.run_stage_label_gen();
	},
	get lca() {
		return m.run_stage_label_lca();
	},
	get dcg() {
		return m.run_stage_label_dcg();
	},
	'ljp-direct': 'ljp-direct',
	'ljp-gold': 'ljp-gold',
	'ljp-interaction': 'ljp-interaction'
};

export const STAGE_HELP: Record<StageName, string> = {
	get gen() {
		return m.run_stage_help_gen();
	},
	get lca() {
		return m.run_stage_help_lca();
	},
	get dcg() {
		return m.run_stage_help_dcg();
	},
	get 'ljp-direct'() {
		return m.run_stage_help_ljp_direct();
	},
	get 'ljp-gold'() {
		return m.run_stage_help_ljp_gold();
	},
	get 'ljp-interaction'() {
		return m.run_stage_help_ljp_interaction();
	}
};
