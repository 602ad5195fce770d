/**
 * The whole run at a glance, over every stage it runs: cases done in every stage, model calls
 * answered out of an estimated total, the call rate observed over the last minute of running, the
 * time left at that rate, and the concurrency in force. Pure, so it is tested in Node.
 */
import type { StageName, StageProgress } from '$lib/core/engine/types';
import { ROLES } from '$lib/core/records';
import { CALLS_PER_CASE } from './call-estimate';

export interface OverallProgress {
	/** Selected cases; one is done once every stage of the run is done for it. */
	cases: { done: number; total: number };
	calls: {
		/** Answered model calls, every stage and role. */
		done: number;
		/**
		 * Calls answered plus, per stage, the cases left times the calls a case took so far (the
		 * middle of PROTOCOL.md §4's range per case until three cases of the stage are done).
		 */
		estimatedTotal: number;
	};
	/** Answered calls per second over the last minute of running; null until it is known. */
	perSecond: number | null;
	/** Time left at `perSecond`; null while unknown or paused. */
	etaMs: number | null;
	concurrency: {
		/** Calls allowed in flight per endpoint now (lower than `max` after rate limits). */
		limit: number;
		/** The ceiling set on the Models page. */
		max: number;
		/** Cases being worked on now. */
		casesUnderWay: number;
	};
}

// The one call-rate model, the engine tracker's (`core/engine/call-rate.ts`).
export { CallRate } from '$lib/core/engine/call-rate';

/** Calls one case of a stage takes, before three of its cases have shown it. */
function priorCalls(stage: StageName): number {
	return ROLES.reduce((sum, role) => {
		const { min, max } = CALLS_PER_CASE[stage][role];
		return sum + (min + max) / 2;
	}, 0);
}

export interface OverallInput {
	stages: readonly StageName[];
	progress: Partial<Record<StageName, StageProgress>>;
	/** Selected cases. */
	total: number;
	/** Cases saved per stage before the run started (a resume); stages not started use it. */
	saved?: Partial<Record<StageName, number>>;
	perSecond: number | null;
	paused: boolean;
	concurrency: OverallProgress['concurrency'];
}

export function overallProgress(input: OverallInput): OverallProgress {
	let done = 0;
	let left = 0;
	let casesDone = input.total;
	for (const stage of input.stages) {
		const p = input.progress[stage];
		if (!p) {
			const saved = Math.min(input.total, input.saved?.[stage] ?? 0);
			casesDone = Math.min(casesDone, saved);
			left += (input.total - saved) * priorCalls(stage);
			continue;
		}
		const calls = ROLES.reduce((sum, role) => sum + p.calls[role], 0);
		done += calls;
		casesDone = Math.min(casesDone, p.done);
		// Cases in flight have made some of their calls already: count them half done.
		const generated = p.done - p.resumed;
		const perCase = generated >= 3 ? calls / (generated + p.inFlight / 2) : priorCalls(stage);
		if (p.status === 'running') left += Math.max(0, p.total - p.done - p.inFlight / 2) * perCase;
	}
	const estimatedTotal = Math.max(done, Math.round(done + left));
	const running = !input.paused && input.perSecond !== null && input.perSecond > 0;
	return {
		cases: { done: input.stages.length > 0 ? casesDone : 0, total: input.total },
		calls: { done, estimatedTotal },
		perSecond: input.perSecond,
		etaMs: running ? Math.round(((estimatedTotal - done) / input.perSecond!) * 1000) : null,
		concurrency: input.concurrency
	};
}
