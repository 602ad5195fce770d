/**
 * The whole run's figures of one start (`RunController`): cases selected and saved before, the
 * concurrency ceiling, the client's limiters and the call rate, turned into `OverallProgress`.
 */
import type { RunSnapshot as EngineSnapshot, StageName } from '$lib/core/engine/types';
import type { LimiterPool } from '$lib/core/model/limiter';
import { CallRate, overallProgress, type OverallProgress } from './run-overall';
import type { RunSnapshot } from './run-snapshot';

export interface FiguresInput {
	stages: readonly StageName[];
	progress: RunSnapshot['progress'];
	paused: boolean;
	/** Cases under way now (not counting those held at the pause gate). */
	underWay: number;
	now: number;
	/** The tracker's snapshot when stages run together. */
	engine?: EngineSnapshot;
}

export class RunFigures {
	#run: {
		total: number;
		saved: Partial<Record<StageName, number>>;
		max: number;
		limiters: LimiterPool | null;
	} | null = null;
	readonly #rate = new CallRate();

	/** A new start: `total` cases selected, `saved` per stage before it, `max` calls per endpoint. */
	begin(total: number, saved: Partial<Record<StageName, number>>, max: number): void {
		this.#rate.reset();
		this.#run = { total, saved, max, limiters: null };
	}

	/** The client's limiters, once it is built (their limits drop after rate limits). */
	useLimiters(limiters: LimiterPool | null): void {
		if (this.#run) this.#run.limiters = limiters;
	}

	/** Forgets the call rate (a pause, a resume): the rate is of running time only. */
	resetRate(): void {
		this.#rate.reset();
	}

	overall({
		stages,
		progress,
		paused,
		underWay,
		now,
		engine
	}: FiguresInput): OverallProgress | null {
		const run = this.#run;
		if (!run) return null;
		let calls = 0;
		for (const p of Object.values(progress)) {
			calls += p.calls.evaluated + p.calls.user + p.calls.judge;
		}
		if (!paused) this.#rate.note(calls, now);
		const limits = engine?.concurrency.endpoints ?? run.limiters?.limits() ?? [];
		const overall = overallProgress({
			stages,
			progress,
			total: run.total,
			saved: run.saved,
			perSecond: this.#rate.perSecond(now),
			paused,
			concurrency: {
				limit: limits.length > 0 ? Math.min(...limits.map((l) => l.limit)) : run.max,
				max: run.max,
				casesUnderWay: engine?.status === 'running' || !engine ? Math.max(0, underWay) : 0
			}
		});
		// Stages run together: a case is done once all its stages are, whichever finished last.
		if (engine) overall.cases.done = engine.cases.done;
		return overall;
	}
}
