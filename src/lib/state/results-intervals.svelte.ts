/**
 * The bootstrap intervals (`report.*.ci95`) of the runs the Results page shows: computed in the
 * stats worker after the report is drawn, with where they are and how long they took.
 */
import type { LoadedRun, ResultsReport } from '$lib/core/results';
import type { StatsClient } from './stats-client';

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
	 * `current` says a later report replaced it meanwhile.
	 */
	async compute(
		report: ResultsReport,
		loaded: Map<string, LoadedRun>,
		current: () => boolean,
		show: (report: ResultsReport) => void
	): Promise<void> {
		this.status = 'computing';
		this.error = null;
		const started = performance.now();
		try {
			// The figures draw first (Svelte flushes in microtasks); the worker's time then
			// overlaps nothing but the user's own interaction.
			await new Promise((resolve) => setTimeout(resolve, 0));
			if (!current()) return;
			const posted = performance.now();
			const tables = [...loaded].map(([key, l]) => ({ key, table: l.table }));
			const intervals = await this.#stats.intervals(tables);
			if (!current()) return;
			this.window = { posted, answered: performance.now() };
			// Fetched with the first intervals: the bootstrap's code stays out of the first load.
			const { withIntervals } = await import('$lib/core/results/with-intervals');
			if (!current()) return;
			show(withIntervals(report, intervals));
			this.ms = performance.now() - started;
			this.status = 'ready';
		} catch (e) {
			if (!current()) return;
			this.error = (e as Error).message;
			this.status = 'error';
		}
	}
}
