/** The names of the case table's outcomes, short (a column) or long (a filter), in the page's language. */
import { m } from '$lib/paraglide/messages';
import type { Outcome, Want } from '$lib/view/case-table';

const NAMES: Record<Outcome, readonly [long: () => string, short: () => string]> = {
	lca_either: [m.inspect_out_lca_either, m.inspect_out_lca_either_short],
	lca_complete: [m.inspect_out_lca_complete, m.inspect_out_lca_complete_short],
	lca_underspecified: [m.inspect_out_lca_under, m.inspect_out_lca_under_short],
	dcg: [m.inspect_out_dcg, m.inspect_out_dcg_short],
	ljp_direct: [m.inspect_out_direct, m.inspect_out_direct_short],
	ljp_gold: [m.inspect_out_gold, m.inspect_out_gold_short],
	ljp_interaction: [m.inspect_out_interaction, m.inspect_out_interaction_short],
	budget: [m.inspect_out_budget, m.inspect_out_budget_short]
};

export const outcomeName = (outcome: Outcome, short = false): string =>
	NAMES[outcome][short ? 1 : 0]();

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
