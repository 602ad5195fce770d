/**
 * The Results page's choices in its URL, so a reload or a shared link shows the same runs, the
 * same series and the same class figures: `?runs=run1/gpt-x-1a2b3c4d,run2/…&mode=groups&sim=1&
 * lca=f1_u&dcg=round1_rate&ljp=gold&measure=accuracy`, the paired comparison shown and its class
 * (`compare=A,B&class=…`), the run and class of the confusion matrices (`matrix=…&matrix_class=…`),
 * the leaderboard's sort, metric and class (`leaderboard-query.ts`) and a bundle opened from its URL (`bundle=https://…`). Only what the user chose is written; a
 * link is hostile text, so what does not name a run or a choice is dropped, never shown.
 */
import { isRunKey } from '$lib/core/layout';
import type { SeriesMode } from './figures';
import {
	parseLeaderboardQuery,
	writeLeaderboardQuery,
	type LeaderboardQuery
} from './leaderboard-query';
import { checkedChoice, DEFAULT_FIGURE_CHOICE, type FigureChoice } from './figure-choice';

export interface ResultsQuery {
	/** Keys (`run_id/model_dir`) of the runs shown; null when the user chose none (all shown). */
	runs: string[] | null;
	/** null: not chosen (the page averages once runs can be averaged). */
	mode: SeriesMode | null;
	/** Draw simulated runs beside real ones. */
	mixSimulated: boolean;
	choice: FigureChoice;
	/** The runs of the paired comparison shown (keys of A and B); null when none is shown. */
	compare: readonly [string, string] | null;
	/** The cause class the comparison is read over; '' for all cases. */
	compareClass: string;
	/** The run whose confusion matrices are shown (key); null for the first shown. */
	matrix: string | null;
	/** The cause class of the confusion matrices; '' for all cases. */
	matrixClass: string;
	/** The leaderboard's sort column and direction, heat-map metric and class. */
	leaderboard: LeaderboardQuery;
	/** The URL of a bundle opened from a link, as the link gave it (checked where it is opened). */
	bundle: string | null;
}

/** At most this many runs are read from a link. */
export const MAX_LINKED_RUNS = 500;
/** A class name or bundle URL longer than this is not read from a link. */
export const MAX_LINKED_TEXT = 2048;

const PARAMS: Record<keyof FigureChoice, string> = {
	lcaClass: 'lca',
	dcgClass: 'dcg',
	ljpSetup: 'ljp',
	ljpMeasure: 'measure'
};

/** The choices a URL's query names; anything it does not name is the default. */
export function parseResultsQuery(params: URLSearchParams): ResultsQuery {
	const runs = params.get('runs');
	const mode = params.get('mode');
	const choice = checkedChoice(
		Object.fromEntries(
			Object.entries(PARAMS).map(([key, param]) => [key, params.get(param) ?? undefined])
		)
	);
	return {
		runs:
			runs === null
				? null
				: [...new Set(runs.split(',').slice(0, MAX_LINKED_RUNS).filter(isRunKey))],
		mode: mode === 'runs' || mode === 'groups' ? mode : null,
		mixSimulated: params.get('sim') === '1',
		choice,
		compare: comparedPair(params.get('compare')),
		compareClass: boundedText(params.get('class')) ?? '',
		matrix: runKeyOrNull(params.get('matrix')),
		matrixClass: boundedText(params.get('matrix_class')) ?? '',
		leaderboard: parseLeaderboardQuery(params),
		bundle: boundedText(params.get('bundle'))
	};
}

/** A non-empty text of bounded length, or null. */
const boundedText = (value: string | null) =>
	value && value.length <= MAX_LINKED_TEXT ? value : null;

const runKeyOrNull = (value: string | null) => (value !== null && isRunKey(value) ? value : null);

/** `A,B` of two run keys, or null. */
function comparedPair(value: string | null): readonly [string, string] | null {
	const keys = value?.split(',') ?? [];
	return keys.length === 2 && keys.every(isRunKey) ? [keys[0], keys[1]] : null;
}

/**
 * The query string (with its `?`, or '' when nothing was chosen) for `query`. Slashes and commas
 * stay as they are, which a query may hold, so the link reads as the run names it holds.
 */
export function resultsSearch(query: ResultsQuery): string {
	const params = new URLSearchParams();
	if (query.runs) params.set('runs', query.runs.join(','));
	if (query.mode) params.set('mode', query.mode);
	if (query.mixSimulated) params.set('sim', '1');
	for (const [key, param] of Object.entries(PARAMS) as [keyof FigureChoice, string][]) {
		if (query.choice[key] !== DEFAULT_FIGURE_CHOICE[key]) params.set(param, query.choice[key]);
	}
	if (query.compare) params.set('compare', query.compare.join(','));
	if (query.compareClass) params.set('class', query.compareClass);
	if (query.matrix) params.set('matrix', query.matrix);
	if (query.matrixClass) params.set('matrix_class', query.matrixClass);
	writeLeaderboardQuery(params, query.leaderboard);
	if (query.bundle) params.set('bundle', query.bundle);
	const text = params.toString().replace(/%2F/gi, '/').replace(/%2C/gi, ',');
	return text ? `?${text}` : '';
}
