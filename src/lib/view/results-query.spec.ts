import { describe, expect, it } from 'vitest';
import { DEFAULT_FIGURE_CHOICE } from './result-figures';
import {
	MAX_LINKED_RUNS,
	parseResultsQuery,
	resultsSearch,
	type ResultsQuery
} from './results-query';

const none: ResultsQuery = {
	runs: null,
	mode: null,
	mixSimulated: false,
	choice: { ...DEFAULT_FIGURE_CHOICE }
};
const parse = (search: string) => parseResultsQuery(new URLSearchParams(search));

describe('the Results query', () => {
	it('writes nothing for what the user did not choose', () => {
		expect(resultsSearch(none)).toBe('');
		expect(parse('')).toEqual(none);
	});

	it('round-trips every choice, with run keys readable in the link', () => {
		const query: ResultsQuery = {
			runs: ['run2/gpt-x-1a2b3c4d', 'run1/sim-model.b_2-00ff00ff'],
			mode: 'runs',
			mixSimulated: true,
			choice: {
				lcaClass: 'f1_u',
				dcgClass: 'round2_rate',
				ljpSetup: 'gold',
				ljpMeasure: 'accuracy'
			}
		};
		const search = resultsSearch(query);
		expect(search).toBe(
			'?runs=run2/gpt-x-1a2b3c4d,run1/sim-model.b_2-00ff00ff&mode=runs&sim=1&lca=f1_u&dcg=round2_rate&ljp=gold&measure=accuracy'
		);
		expect(parse(search)).toEqual(query);
		// As a browser hands it back, encoded or not.
		expect(parse(new URL(`http://x/results${search}`).search)).toEqual(query);
		expect(parse(encodeURI(search).replaceAll('/', '%2F').replaceAll(',', '%2C'))).toEqual(query);
	});

	it('keeps an empty choice of runs apart from no choice', () => {
		const nothingShown = { ...none, runs: [] };
		expect(resultsSearch(nothingShown)).toBe('?runs=');
		expect(parse('?runs=')).toEqual(nothingShown);
	});

	it('drops what names no run or no choice, and repeats', () => {
		expect(
			parse(
				'?runs=run1/m-1,../etc,run1/..,<script>/x,run1/m-1,,run2/m-2&mode=all&sim=yes&lca=drop&ljp=gold&measure=qwk2'
			)
		).toEqual({
			runs: ['run1/m-1', 'run2/m-2'],
			mode: null,
			mixSimulated: false,
			choice: { ...DEFAULT_FIGURE_CHOICE, ljpSetup: 'gold' }
		});
	});

	it('reads a bounded number of runs from a link', () => {
		const keys = Array.from({ length: MAX_LINKED_RUNS + 50 }, (_, i) => `run${i}/m-1`);
		expect(parse(`?runs=${keys.join(',')}`).runs).toEqual(keys.slice(0, MAX_LINKED_RUNS));
	});
});
