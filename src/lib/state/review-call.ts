/** Which logged call made a judge decision: the judge's prompt and raw answer a reviewer sees. */
import type { DecisionId } from '$lib/core/agreement';
import type { CallLogEntry } from '$lib/core/calls/schema';

/**
 * The last judge call of the decision's stage and case (and history for LCA, round for DCG) that
 * got an answer; a resumed run may have called again, and its last answer is the one saved.
 */
export function judgeCallOf(calls: readonly CallLogEntry[], d: DecisionId): CallLogEntry | null {
	const matching = calls.filter(
		(c) =>
			c.role === 'judge' &&
			c.response !== null &&
			// LCA labels the first response during generation; the interaction's rounds have a round.
			(d.stage === 'lca'
				? c.task === 'judge_lca' && c.history_type === d.history_type && (c.round ?? null) === null
				: c.stage === d.stage && (d.round === null || c.round === d.round))
	);
	return matching.at(-1) ?? null;
}
