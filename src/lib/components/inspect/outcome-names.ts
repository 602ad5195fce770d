/** The names of the case table's outcomes, short (a column) or long (a filter), in the page's language. */
import { m } from '$lib/paraglide/messages';
import type { Outcome, Want } from '$lib/view/case-table';

export function outcomeName(outcome: Outcome, short = false): string {
	switch (outcome) {
		case 'lca_either':
			return short ? m.inspect_out_lca_either_short() : m.inspect_out_lca_either();
		case 'lca_complete':
			return short ? m.inspect_out_lca_complete_short() : m.inspect_out_lca_complete();
		case 'lca_underspecified':
			return short ? m.inspect_out_lca_under_short() : m.inspect_out_lca_under();
		case 'dcg':
			return short ? m.inspect_out_dcg_short() : m.inspect_out_dcg();
		case 'ljp_direct':
			return short ? m.inspect_out_direct_short() : m.inspect_out_direct();
		case 'ljp_gold':
			return short ? m.inspect_out_gold_short() : m.inspect_out_gold();
		case 'ljp_interaction':
			return short ? m.inspect_out_interaction_short() : m.inspect_out_interaction();
		case 'budget':
			return short ? m.inspect_out_budget_short() : m.inspect_out_budget();
	}
}

/** What a filter's choice means for an outcome: `yes` the problem holds, `no` it does not. */
export function wantName(outcome: Outcome, want: Want): string {
	if (outcome === 'budget')
		return want === 'yes' ? m.inspect_want_budget() : m.inspect_want_judgment();
	if (outcome === 'dcg')
		return want === 'yes' ? m.inspect_want_failed() : m.inspect_want_succeeded();
	if (outcome.startsWith('ljp_')) {
		return want === 'yes' ? m.inspect_want_mismatch() : m.inspect_want_all_match();
	}
	return want === 'yes' ? m.inspect_want_wrong() : m.inspect_want_right();
}
