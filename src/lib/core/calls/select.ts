/** Which log lines made a response: what Inspect shows under "the exact prompt / raw output". */
import type { CallLogEntry } from './schema';

/** Names the calls behind one response of a case. */
export interface CallSelector {
	/** Stages that may have made it (an LCA label comes from `gen` or a re-judging `lca`). */
	stages: readonly string[];
	task: CallLogEntry['task'];
	historyType?: 'complete' | 'underspecified';
	round?: number;
}

export interface SelectedCalls {
	/** The calls of the latest session that answered, in the order they were made. */
	calls: CallLogEntry[];
	/** Matching calls of earlier sessions (a case interrupted and regenerated), not shown. */
	earlier: number;
}

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

/**
 * The lines of `entries` (one case's) that match `selector`. A case regenerated after an
 * interruption has lines from two sessions; the saved record comes from the last session that
 * got an answer, so that session's lines are the ones returned (judge re-asks included, each
 * a line of its own), and the rest are only counted.
 */
export function selectCalls(
	entries: readonly CallLogEntry[],
	selector: CallSelector
): SelectedCalls {
	const matching = entries.filter(
		(e) =>
			selector.stages.includes(e.stage) &&
			e.task === selector.task &&
			same(e.history_type, selector.historyType) &&
			same(e.round, selector.round)
	);
	if (matching.length === 0) return { calls: [], earlier: 0 };
	const answered = matching.filter((e) => e.response !== null);
	const pool = answered.length ? answered : matching;
	const latest = pool.reduce((a, b) => (b.started_at > a.started_at ? b : a));
	const calls = matching.filter((e) => e.session === latest.session).sort((a, b) => a.seq - b.seq);
	return { calls, earlier: matching.length - calls.length };
}
