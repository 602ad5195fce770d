import { describe, expect, it } from 'vitest';
import { NO_CHOICE } from '../../../tests/support/results-query';
import { DEFAULT_LEADERBOARD_QUERY } from './leaderboard-query';
import { DEFAULT_FIGURE_CHOICE } from './result-figures';
import {
	MAX_LINKED_RUNS,
	MAX_LINKED_TEXT,
	parseResultsQuery,
	resultsSearch,
	type ResultsQuery
} from './results-query';

const parse = (search: string) => parseResultsQuery(new URLSearchParams(search));

describe('the Results query', () => {
	it('writes nothing for what the user did not choose', () => {
		expect(resultsSearch(NO_CHOICE)).toBe('');
		expect(parse('')).toEqual(NO_CHOICE);
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
			},
			compare: ['run1/sim-model.b_2-00ff00ff', 'run2/gpt-x-1a2b3c4d'],
			compareClass: '借贷 & 担保=1,2/3',
			matrix: 'run2/gpt-x-1a2b3c4d',
			matrixClass: 'labour',
			leaderboard: DEFAULT_LEADERBOARD_QUERY,
			bundle: 'https://example.org/releases/b.zip?x=1&y=%2F'
		};
		const search = resultsSearch(query);
		expect(search).toBe(
			'?runs=run2/gpt-x-1a2b3c4d,run1/sim-model.b_2-00ff00ff&mode=runs&sim=1&lca=f1_u&dcg=round2_rate&ljp=gold&measure=accuracy' +
				'&compare=run1/sim-model.b_2-00ff00ff,run2/gpt-x-1a2b3c4d' +
				'&class=%E5%80%9F%E8%B4%B7+%26+%E6%8B%85%E4%BF%9D%3D1,2/3' +
				'&matrix=run2/gpt-x-1a2b3c4d&matrix_class=labour' +
				'&bundle=https%3A//example.org/releases/b.zip%3Fx%3D1%26y%3D%252F'
		);
		expect(parse(search)).toEqual(query);
		// As a browser hands it back, encoded or not.
		expect(parse(new URL(`http://x/results${search}`).search)).toEqual(query);
		expect(parse(search.replaceAll('/', '%2F').replaceAll(',', '%2C'))).toEqual(query);
	});

	it('keeps an empty choice of runs apart from no choice', () => {
		const nothingShown = { ...NO_CHOICE, runs: [] };
		expect(resultsSearch(nothingShown)).toBe('?runs=');
		expect(parse('?runs=')).toEqual(nothingShown);
	});

	it('drops what names no run or no choice, and repeats', () => {
		expect(
			parse(
				'?runs=run1/m-1,../etc,run1/..,<script>/x,run1/m-1,,run2/m-2&mode=all&sim=yes&lca=drop&ljp=gold&measure=qwk2'
			)
		).toEqual({
			...NO_CHOICE,
			runs: ['run1/m-1', 'run2/m-2'],
			choice: { ...DEFAULT_FIGURE_CHOICE, ljpSetup: 'gold' }
		});
	});

	it.each([
		['one run', 'compare=run1/m-1'],
		['three runs', 'compare=run1/m-1,run2/m-2,run3/m-3'],
		['a path', 'compare=run1/m-1,../x'],
		['an empty pair', 'compare=,'],
		['a forged matrix run', 'matrix=<img src=x>'],
		['a matrix path', 'matrix=../../etc'],
		['empty texts', 'class=&matrix_class=&bundle='],
		['an overlong class', `class=${'x'.repeat(MAX_LINKED_TEXT + 1)}`],
		['an overlong bundle URL', `bundle=https://h/${'x'.repeat(MAX_LINKED_TEXT)}`]
	])('reads %s as the default, never throwing', (_, search) => {
		expect(parse(search)).toEqual(NO_CHOICE);
	});

	it('keeps control characters of a class as text, for the page to escape', () => {
		expect(parse('class=a%1B%5B2Jb').compareClass).toBe('a\u001b[2Jb');
	});

	it('reads a bounded number of runs from a link', () => {
		const keys = Array.from({ length: MAX_LINKED_RUNS + 50 }, (_, i) => `run${i}/m-1`);
		expect(parse(`?runs=${keys.join(',')}`).runs).toEqual(keys.slice(0, MAX_LINKED_RUNS));
	});
});
