/**
 * The Results page's choices in its URL, so a reload or a shared link shows the same runs, the
 * same series and the same class figures: `?runs=run1/gpt-x-1a2b3c4d,run2/…&mode=groups&sim=1&
 * lca=f1_u&dcg=round1_rate&ljp=gold&measure=accuracy`. Only what the user chose is written; a
 * link is hostile text, so what does not name a run or a choice is dropped, never shown.
 */
import { isRunKey } from '$lib/core/layout';
import type { SeriesMode } from './figures';
import { checkedChoice, DEFAULT_FIGURE_CHOICE, type FigureChoice } from './result-figures';

export interface ResultsQuery {
	/** Keys (`run_id/model_dir`) of the runs shown; null when the user chose none (all shown). */
	runs: string[] | null;
	/** null: not chosen (the page averages once runs can be averaged). */
	mode: SeriesMode | null;
	/** Draw simulated runs beside real ones. */
	mixSimulated: boolean;
	choice: FigureChoice;
}

/** At most this many runs are read from a link. */
export const MAX_LINKED_RUNS = 500;

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
		choice
	};
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
	const text = params.toString().replace(/%2F/gi, '/').replace(/%2C/gi, ',');
	return text ? `?${text}` : '';
}
