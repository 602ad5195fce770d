/**
 * The bootstrap intervals (`report.*.ci95`) of the runs the Results page shows: computed in the
 * stats worker after the report is drawn, in the one call that ranks the leaderboard too, with
 * where they are and how long they took.
 */
import type { Leaderboard } from '$lib/core/leaderboard/leaderboard';
import type { LoadedRun, ResultsReport } from '$lib/core/results';
import type { LeaderboardState } from './leaderboard.svelte';
import type { StatsClient } from './stats-client';

/**
 * The leaderboard the same call ranks: its options, and `take`, told at once (before the page
 * draws, so the leaderboard's panel does not ask again) of the answer to come, which rejects
 * when the call fails or is dropped.
 */
export type RankedElsewhere = Pick<LeaderboardState, 'options' | 'take'>;

/** Where the bootstrap intervals of the shown runs are. */
export type IntervalStatus = 'idle' | 'computing' | 'ready' | 'error';

export class BootstrapIntervals {
	status = $state<IntervalStatus>('idle');
	error = $state<string | null>(null);
	/** Wall time of the last bootstrap, from the report to its intervals (ms). */
	ms = $state<number | null>(null);
	/** When the last request went to the worker and when it answered (`performance.now()`). */
	window = $state.raw<{ posted: number; answered: number } | null>(null);
	#stats: StatsClient;

	constructor(stats: StatsClient) {
		this.#stats = stats;
	}

	/**
	 * Computes the intervals of every shown run and hands `show` the report with them, unless
	 * `current` says a later report replaced it meanwhile; the leaderboard of `runs` comes with
	 * them, handed to `board.take`.
	 */
	async compute(
		report: ResultsReport,
		runs: LoadedRun[],
		current: () => boolean,
		show: (report: ResultsReport) => void,
		board: RankedElsewhere
	): Promise<void> {
		this.status = 'computing';
		this.error = null;
		const started = performance.now();
		let answer!: (ranked: { leaderboard: Leaderboard | null; posted: number }) => void;
		let refuse!: (e: unknown) => void;
		board.take(runs, new Promise((resolve, reject) => ((answer = resolve), (refuse = reject))));
		try {
			// The figures draw first (Svelte flushes in microtasks); the worker's time then
			// overlaps nothing but the user's own interaction.
			await new Promise((resolve) => setTimeout(resolve, 0));
			if (!current()) throw new Error('replaced by a later report');
			const posted = performance.now();
			const { intervals, leaderboard } = await this.#stats.results(runs, {}, board.options);
			answer({ leaderboard, posted });
			if (!current()) return;
			this.window = { posted, answered: performance.now() };
			// Fetched with the first intervals: the bootstrap's code stays out of the first load.
			const { withIntervals } = await import('$lib/core/results/with-intervals');
			if (!current()) return;
			show(withIntervals(report, intervals));
			this.ms = performance.now() - started;
			this.status = 'ready';
		} catch (e) {
			refuse(e);
			if (!current()) return;
			this.error = (e as Error).message;
			this.status = 'error';
		}
	}
}
