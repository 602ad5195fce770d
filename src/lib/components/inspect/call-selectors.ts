/** Which call-log lines made (and judged) each response the Inspect page shows. */
import type { CallLogEntry } from '$lib/core/calls/schema';
import type { HistoryType } from '$lib/core/records';

/** The calls that made a first response (LexAwN) and labelled it (the LCA judge). */
export function firstCalls(calls: readonly CallLogEntry[], historyType: HistoryType) {
	return {
		entries: calls,
		own: { stages: ['gen'], task: 'lexawn' as const, historyType },
		judge: { stages: ['gen', 'lca'], task: 'judge_lca' as const, historyType }
	};
}
