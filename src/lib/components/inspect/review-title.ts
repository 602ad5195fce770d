/** What a review decision is about, as its heading says it, in the page's language. */
import { m } from '$lib/paraglide/messages';
import type { DecisionId } from '$lib/core/agreement/decisions';
import type { LjpSetup } from '$lib/core/metrics/types';
import { setupName } from './stage-names';

/** "LCA label, complete history", "DCG: was round 2's question targeted?", "… claim 1 (Gold)". */
export function reviewWhat(id: DecisionId): string {
	if (id.stage === 'lca') {
		return id.history_type === 'underspecified'
			? m.inspect_diff_lca_under()
			: m.inspect_diff_lca_complete();
	}
	if (id.stage === 'dcg') return m.review_stage_dcg({ round: id.round ?? 0 });
	const setup = setupName(id.stage.slice(4) as LjpSetup);
	return m.review_stage_ljp({ claim: (id.claim ?? 0) + 1, setup });
}
