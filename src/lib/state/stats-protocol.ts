/**
 * The Results page's statistics worker's calls (`stats.worker.ts`, through `worker-rpc`): the
 * work itself as plain functions, so the worker, the in-page fallback and unit tests run one
 * code. Everything crossing is plain data (case tables are typed arrays; structuredClone keeps
 * them). A refusal of the core is thrown with its coded pieces, which cross to the page.
 */
import type { RpcHandlers } from '$lib/adapters/worker-rpc';
import {
	bootstrapRun,
	type BootstrapOptions,
	type RunIntervals
} from '$lib/core/metrics/bootstrap';
import {
	computeLeaderboard,
	type Leaderboard,
	type LeaderboardOptions
} from '$lib/core/leaderboard/leaderboard';
import { compareLoaded, type ComparisonReport, type LoadedRun } from '$lib/core/results/compare';
import { reportRunKey } from '$lib/core/names';
import { coded } from '$lib/core/said';

export type StatsApi = {
	/**
	 * What the Results view needs, in one call: each run's case-bootstrap intervals (keyed by
	 * `reportRunKey`) and the leaderboard of them all (null when no run has a record).
	 */
	results: {
		call: { runs: LoadedRun[]; options: BootstrapOptions; leaderboard: LeaderboardOptions };
		result: { intervals: Record<string, RunIntervals>; leaderboard: Leaderboard | null };
	};
	/** The paired comparison B − A. */
	compare: {
		call: { a: LoadedRun; b: LoadedRun; options: BootstrapOptions };
		result: ComparisonReport;
	};
	/** The leaderboard of `runs` (one bootstrap for every model at once). */
	leaderboard: {
		call: { runs: LoadedRun[]; options: LeaderboardOptions };
		result: Leaderboard;
	};
};

export const statsHandlers: RpcHandlers<StatsApi> = {
	results({ runs, options, leaderboard }) {
		const intervals: Record<string, RunIntervals> = {};
		for (const l of runs) intervals[reportRunKey(l.run)] = bootstrapRun(l.table, options);
		const ranked = runs.every((l) => l.run.empty) ? null : computeLeaderboard(runs, leaderboard);
		return { intervals, leaderboard: ranked };
	},
	leaderboard: ({ runs, options }) => computeLeaderboard(runs, options),
	compare: ({ a, b, options }) =>
		compareLoaded(a, b, {
			bootstrap: options,
			what: coded('compare_cannot_these', {}),
			advice: coded('compare_advice_selection', {})
		})
};
