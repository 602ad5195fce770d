import { describe, expect, it } from 'vitest';
import type { PaperRow } from '$lib/core/leaderboard/paper-table';
import { orderedRows } from './leaderboard-order';
import {
	DEFAULT_LEADERBOARD_QUERY,
	MAX_LINKED_CLASS,
	parseLeaderboardQuery,
	writeLeaderboardQuery,
	type LeaderboardQuery
} from './leaderboard-query';
import { parseResultsQuery, resultsSearch } from './results-query';

const parse = (search: string) => parseLeaderboardQuery(new URLSearchParams(search));
const write = (query: LeaderboardQuery) => {
	const params = new URLSearchParams();
	writeLeaderboardQuery(params, query);
	return params.toString();
};

describe('the leaderboard in the Results URL', () => {
	it('writes nothing for the default table and reads the default from nothing', () => {
		expect(write(DEFAULT_LEADERBOARD_QUERY)).toBe('');
		expect(parse('')).toEqual(DEFAULT_LEADERBOARD_QUERY);
	});

	it('round-trips sort, direction, metric and class through the page query', () => {
		const leaderboard: LeaderboardQuery = {
			sort: 'ljp_gold_qwk',
			dir: 'asc',
			metric: 'dcg_success',
			cls: '借贷 & 担保=1'
		};
		const query = { ...parseResultsQuery(new URLSearchParams('mode=runs')), leaderboard };
		const search = resultsSearch(query);
		expect(search).toContain('lb_sort=ljp_gold_qwk&lb_dir=asc&lb_metric=dcg_success&lb_class=');
		expect(parseResultsQuery(new URLSearchParams(search.slice(1)))).toEqual(query);
	});

	it('writes a direction only when it is not the column’s own (best first)', () => {
		const q = DEFAULT_LEADERBOARD_QUERY;
		expect(write({ ...q, sort: 'cost', dir: 'asc' })).toBe('lb_sort=cost');
		expect(write({ ...q, sort: 'cost', dir: 'desc' })).toBe('lb_sort=cost&lb_dir=desc');
		expect(write({ ...q, dir: 'asc' })).toBe('lb_dir=asc');
		expect(parse('lb_sort=model')).toMatchObject({ sort: 'model', dir: 'asc' });
	});

	it.each([
		['lb_sort=__proto__', {}],
		['lb_sort=LCA_MACRO_F1&lb_metric=tokens', {}],
		['lb_dir=sideways', {}],
		['lb_metric=<script>', {}],
		[`lb_class=${'x'.repeat(MAX_LINKED_CLASS + 1)}`, {}],
		['lb_class=', {}],
		['lb_sort=dcg_success&lb_dir=up', { sort: 'dcg_success', dir: 'desc' }]
	])('ignores the bad value of %s', (search, chosen) => {
		expect(parse(search)).toEqual({ ...DEFAULT_LEADERBOARD_QUERY, ...chosen });
	});
});

const row = (id: string, mean: number | null): PaperRow =>
	({
		id,
		model: id,
		n: 2,
		differs: [],
		cost: null,
		cells: { lca_macro_f1: { mean } }
	}) as unknown as PaperRow;

describe('the leaderboard turned round', () => {
	const best = [row('a', 0.9), row('b', 0.5), row('c', null)];
	const ids = (rows: PaperRow[]) => rows.map((r) => r.id);

	it('keeps best first as sorted', () => {
		expect(orderedRows(best, 'lca_macro_f1', 'desc')).toBe(best);
	});

	it('reverses the rows with a value and keeps a row without one last', () => {
		expect(ids(orderedRows(best, 'lca_macro_f1', 'asc'))).toEqual(['b', 'a', 'c']);
		expect(ids(orderedRows(best, 'model', 'desc'))).toEqual(['c', 'b', 'a']);
		expect(ids(orderedRows(best, 'cost', 'desc'))).toEqual(['a', 'b', 'c']);
	});
});
