/**
 * Messages between the Results page and its statistics worker (`stats.worker.ts`), and the work
 * itself as plain functions, so the worker, the in-page fallback and unit tests run one code.
 * Everything crossing is plain data (case tables are typed arrays; structuredClone keeps them).
 */
import {
	bootstrapRun,
	type BootstrapOptions,
	type RunIntervals
} from '$lib/core/metrics/bootstrap';
import type { CaseTable } from '$lib/core/metrics/case-table';
import {
	computeLeaderboard,
	type Leaderboard,
	type LeaderboardOptions
} from '$lib/core/leaderboard/leaderboard';
import { compareLoaded, type ComparisonReport, type LoadedRun } from '$lib/core/results/compare';
import { saidOf } from '$lib/core/errors';
import { coded, type CoreText } from '$lib/core/said';

export type StatsRequest =
	| {
			id: number;
			kind: 'intervals';
			tables: { key: string; table: CaseTable }[];
			options: BootstrapOptions;
	  }
	| { id: number; kind: 'compare'; a: LoadedRun; b: LoadedRun; options: BootstrapOptions }
	| { id: number; kind: 'leaderboard'; runs: LoadedRun[]; options: LeaderboardOptions };

export type StatsResponse =
	| { id: number; kind: 'intervals'; intervals: Record<string, RunIntervals> }
	| { id: number; kind: 'compare'; comparison: ComparisonReport }
	| { id: number; kind: 'leaderboard'; leaderboard: Leaderboard }
	| { id: number; kind: 'error'; message: string; said?: CoreText[] };

/** Answers one request; a refusal or failure becomes an `error` response with its message. */
export function handleStatsRequest(request: StatsRequest): StatsResponse {
	try {
		if (request.kind === 'intervals') {
			const intervals: Record<string, RunIntervals> = {};
			for (const { key, table } of request.tables) {
				intervals[key] = bootstrapRun(table, request.options);
			}
			return { id: request.id, kind: 'intervals', intervals };
		}
		if (request.kind === 'leaderboard') {
			const leaderboard = computeLeaderboard(request.runs, request.options);
			return { id: request.id, kind: 'leaderboard', leaderboard };
		}
		return {
			id: request.id,
			kind: 'compare',
			comparison: compareLoaded(request.a, request.b, {
				bootstrap: request.options,
				what: coded('compare_cannot_these', {}),
				advice: coded('compare_advice_selection', {})
			})
		};
	} catch (e) {
		// The coded pieces go along, so the page says the refusal in its own language.
		return { id: request.id, kind: 'error', message: (e as Error).message, said: saidOf(e) };
	}
}
