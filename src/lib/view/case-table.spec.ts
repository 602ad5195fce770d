import { describe, expect, it } from 'vitest';
import { UNCLASSIFIED } from '$lib/core/dataset/types';
import type { CaseNumber } from '$lib/core/records';
import { CATEGORIES, records, type Spec } from '../../../tests/fixtures/inspect/case-records';
import {
	buildCaseRows,
	disagreements,
	EMPTY_QUERY,
	facets,
	filterCases,
	type CaseQuery,
	type CaseRow
} from './case-table';

const RIGHT = { complete: 'judgment', underspecified: 'clarification' } as const;
const SPECS: Spec[] = [
	{
		n: 1001,
		cause: '民间借贷纠纷',
		lca: RIGHT,
		dcg: ['是', '否'],
		claims: { gold: ['支持'], direct: ['支持'], gold_setup: ['支持'], interaction: ['支持'] },
		stop: 'judgment',
		complete: '对方出具了借条，约定一年后还款。'
	},
	{
		n: 'B2',
		cause: '离婚纠纷',
		lca: { complete: 'clarification', underspecified: 'clarification' },
		dcg: ['否', '否'],
		claims: {
			gold: ['支持', '驳回'],
			direct: ['支持', '支持'],
			gold_setup: ['支持', '驳回'],
			interaction: ['支持', '驳回']
		},
		stop: 'budget',
		response: 'ALPHA Beta 的答复'
	},
	{
		n: 'C3',
		cause: '劳动争议',
		lca: { complete: 'judgment', underspecified: 'judgment' },
		dcg: ['否', '是'],
		claims: {
			gold: ['部分支持'],
			direct: ['部分支持'],
			gold_setup: ['支持'],
			interaction: ['驳回']
		},
		stop: 'judgment',
		reply: '公司拖欠了三个月工资'
	},
	// Generated but never judged: every outcome is unknown, and so is its cause.
	{ n: 'D4', cause: '民间借贷纠纷' },
	{
		n: 'E5',
		cause: '离婚纠纷',
		lca: { complete: 'clarification', underspecified: 'judgment' },
		dcg: ['否', '否'],
		claims: { gold: ['驳回'], direct: ['支持'], gold_setup: ['支持'], interaction: ['部分支持'] },
		stop: 'budget',
		question: '你们是否签过离婚协议？'
	},
	// A cause outside the category map; only the complete history was labelled.
	{ n: 'F6', cause: '奇怪纠纷', lca: { complete: 'judgment' } }
];
const SELECTED: CaseNumber[] = ['1001', 'B2', 'C3', 'D4', 'E5', 'F6'];
const ROWS = buildCaseRows(SELECTED, records(SPECS), CATEGORIES);

const q = (query: Partial<CaseQuery>): CaseQuery => ({ ...EMPTY_QUERY, ...query });
const listed = (query: Partial<CaseQuery>, other: Map<string, CaseRow> | null = null) =>
	filterCases(ROWS, q(query), other).map((r) => r.caseNumber);

describe('buildCaseRows', () => {
	it('gives each selected case its outcomes, cause and class, in selection order', () => {
		expect(ROWS.map((r) => r.caseNumber)).toEqual(['1001', 'B2', 'C3', 'D4', 'E5', 'F6']);
		expect(ROWS[0]).toMatchObject({
			index: 0,
			cause: '民间借贷纠纷',
			cls: '合同纠纷',
			flagged: 0,
			flags: {
				lca_either: false,
				lca_complete: false,
				lca_underspecified: false,
				dcg: false,
				ljp_direct: false,
				ljp_gold: false,
				ljp_interaction: false,
				budget: false
			}
		});
		expect(ROWS[1].flags).toEqual({
			lca_either: true,
			lca_complete: true,
			lca_underspecified: false,
			dcg: true,
			ljp_direct: true,
			ljp_gold: false,
			ljp_interaction: false,
			budget: true
		});
		expect(ROWS[1].flagged).toBe(4);
		expect(ROWS[4].flagged).toBe(7);
		expect(ROWS[3]).toMatchObject({ cause: null, cls: null, flagged: 0 });
		expect(Object.values(ROWS[3].flags).every((f) => f === null)).toBe(true);
		// Right on the one labelled history, unknown on the other: not known to be right on both.
		expect(ROWS[5].flags.lca_either).toBeNull();
		expect(ROWS[5].cls).toBe(UNCLASSIFIED);
	});

	it('matches records whose case_number is an integer to the selection by its string form', () => {
		expect(ROWS[0].cause).toBe('民间借贷纠纷');
		expect(ROWS[0].text).toContain('借条');
	});
});

describe('filterCases', () => {
	it.each<[string, Partial<CaseQuery>, string[]]>([
		['no filter', {}, ['1001', 'B2', 'C3', 'D4', 'E5', 'F6']],
		['LCA wrong on either history', { outcomes: { lca_either: 'yes' } }, ['B2', 'C3', 'E5']],
		['LCA right on both histories', { outcomes: { lca_either: 'no' } }, ['1001']],
		['LCA wrong on the complete history', { outcomes: { lca_complete: 'yes' } }, ['B2', 'E5']],
		[
			'LCA right on the complete history',
			{ outcomes: { lca_complete: 'no' } },
			['1001', 'C3', 'F6']
		],
		[
			'LCA wrong on the underspecified history',
			{ outcomes: { lca_underspecified: 'yes' } },
			['C3', 'E5']
		],
		['DCG failed', { outcomes: { dcg: 'yes' } }, ['B2', 'E5']],
		['DCG succeeded', { outcomes: { dcg: 'no' } }, ['1001', 'C3']],
		['a Direct verdict mismatch', { outcomes: { ljp_direct: 'yes' } }, ['B2', 'E5']],
		['every Direct verdict right', { outcomes: { ljp_direct: 'no' } }, ['1001', 'C3']],
		['a Gold verdict mismatch', { outcomes: { ljp_gold: 'yes' } }, ['C3', 'E5']],
		['an Interaction verdict mismatch', { outcomes: { ljp_interaction: 'yes' } }, ['C3', 'E5']],
		['stopped by the budget', { outcomes: { budget: 'yes' } }, ['B2', 'E5']],
		['stopped by a judgment', { outcomes: { budget: 'no' } }, ['1001', 'C3']],
		['several outcomes at once', { outcomes: { dcg: 'yes', lca_underspecified: 'yes' } }, ['E5']],
		['a class', { cls: '婚姻家庭' }, ['B2', 'E5']],
		['the unclassified class', { cls: UNCLASSIFIED }, ['F6']],
		['a cause', { cause: '劳动争议' }, ['C3']],
		['a class and an outcome', { cls: '婚姻家庭', outcomes: { lca_underspecified: 'no' } }, ['B2']],
		['a class no case has', { cls: '知识产权' }, []],
		['a word of a history', { search: '借条' }, ['1001']],
		['a response, ignoring case', { search: 'alpha' }, ['B2']],
		['a user reply', { search: '工资' }, ['C3']],
		['a DCG question', { search: '离婚协议' }, ['E5']],
		['a claim', { search: '诉请2' }, ['B2']],
		['a case number', { search: 'c3' }, ['C3']],
		['every word must appear', { search: '  ALPHA   beta ' }, ['B2']],
		['one word missing', { search: 'alpha 借条' }, []],
		['search and a filter', { search: '纠纷', outcomes: { budget: 'yes' } }, ['B2', 'E5']]
	])('%s', (_, query, expected) => {
		expect(listed(query)).toEqual(expected);
	});

	it.each<[string, Partial<CaseQuery>, string[]]>([
		[
			'selection order, reversed',
			{ sort: 'case', desc: true },
			['F6', 'E5', 'D4', 'C3', 'B2', '1001']
		],
		[
			'most outcomes holding first',
			{ sort: 'flagged', desc: true },
			['E5', 'B2', 'C3', '1001', 'D4', 'F6']
		],
		['fewest first', { sort: 'flagged' }, ['1001', 'D4', 'F6', 'C3', 'B2', 'E5']],
		[
			'DCG failures first, unknown last',
			{ sort: 'dcg', desc: true },
			['B2', 'E5', '1001', 'C3', 'D4', 'F6']
		],
		[
			'DCG successes first, unknown still last',
			{ sort: 'dcg' },
			['1001', 'C3', 'B2', 'E5', 'D4', 'F6']
		],
		// Pinyin: láodòng < líhūn < mínjiān < qíguài; a case without a cause last.
		['cause', { sort: 'cause' }, ['C3', 'B2', 'E5', '1001', 'F6', 'D4']],
		['cause, descending', { sort: 'cause', desc: true }, ['F6', '1001', 'B2', 'E5', 'C3', 'D4']],
		['class', { sort: 'class', outcomes: { lca_complete: 'no' } }, ['1001', 'C3', 'F6']]
	])('sorts: %s', (_, query, expected) => {
		expect(listed(query)).toEqual(expected);
	});

	it('with a second run, lists where the two disagree on a known outcome', () => {
		const other = buildCaseRows(
			// E5 is not among the other run's cases; D4 is judged there (unknown here: no disagreement).
			['1001', 'B2', 'C3', 'D4', 'F6'],
			records([
				{ ...SPECS[0], lca: { complete: 'clarification', underspecified: 'clarification' } },
				{ ...SPECS[1], dcg: ['是', '否'] },
				SPECS[2],
				{ ...SPECS[0], n: 'D4' },
				SPECS[5]
			]),
			CATEGORIES
		);
		const byCase = new Map(other.map((r) => [r.caseNumber, r]));
		expect(listed({ disagree: true }, byCase)).toEqual(['1001', 'B2']);
		expect(disagreements(ROWS[0], byCase.get('1001')!)).toEqual(['lca_complete']);
		expect(disagreements(ROWS[1], byCase.get('B2')!)).toEqual(['dcg']);
		expect(disagreements(ROWS[3], byCase.get('D4')!)).toEqual([]);
		expect(listed({ disagree: true, outcomes: { dcg: 'yes' } }, byCase)).toEqual(['B2']);
		// Without a second run the filter has nothing to compare and lists every case.
		expect(listed({ disagree: true })).toHaveLength(6);
	});
});

describe('facets', () => {
	it('offers the classes in report order and the causes in collation order, with counts', () => {
		expect(facets(ROWS, CATEGORIES)).toEqual({
			classes: [
				{ value: '合同纠纷', count: 1 },
				{ value: '婚姻家庭', count: 2 },
				{ value: '劳动纠纷', count: 1 },
				{ value: UNCLASSIFIED, count: 1 }
			],
			causes: [
				{ value: '劳动争议', count: 1 },
				{ value: '离婚纠纷', count: 2 },
				{ value: '民间借贷纠纷', count: 1 },
				{ value: '奇怪纠纷', count: 1 }
			]
		});
	});
});
