import { describe, expect, it } from 'vitest';
import type { Case } from './types';
import { queryCases } from './case-filter';

function makeCase(index: number, case_number: string, cause_of_action: string): Case {
	const history = [{ role: 'user' as const, content: '我想咨询一下。' }];
	return {
		index,
		case_number,
		case_number_value: case_number,
		cause_of_action,
		plaintiff_type: '自然人',
		focal_points: ['争议焦点'],
		key_details: '关键事实',
		claims: [{ claim: '判令被告还款', verdict: '支持' }],
		complete: history,
		underspecified: history
	};
}

const cases = [
	makeCase(0, '2023-A01', '民间借贷纠纷'),
	makeCase(1, '2023-B02', '离婚纠纷'),
	makeCase(2, '17', '民间借贷纠纷'),
	makeCase(3, 'X-9', '某种新纠纷')
];
const categories = { 民间借贷纠纷: '合同纠纷', 离婚纠纷: '婚姻家庭与继承纠纷' };

describe('queryCases', () => {
	it.each([
		{ name: 'empty query lists every case in file order', query: {}, want: [0, 1, 2, 3] },
		{ name: 'case_number substring, ignoring case', query: { text: 'a0' }, want: [0] },
		{ name: 'surrounding spaces are ignored', query: { text: '  2023-b ' }, want: [1] },
		{ name: 'an integer case_number matches as text', query: { text: '17' }, want: [2] },
		{ name: 'cause of action substring', query: { text: '借贷' }, want: [0, 2] },
		{ name: 'class filter', query: { cls: '合同纠纷' }, want: [0, 2] },
		{ name: 'unknown causes fall into 未分类', query: { cls: '未分类' }, want: [3] },
		{ name: 'text and class together', query: { text: '2023', cls: '合同纠纷' }, want: [0] },
		{ name: 'nothing matches', query: { text: '合同', cls: '婚姻家庭与继承纠纷' }, want: [] }
	])('$name', ({ query, want }) => {
		const page = queryCases(cases, categories, { ...query, limit: 10, selected: null });
		expect(page.rows.map((c) => c.index)).toEqual(want);
		expect(page.listed).toBe(want.length);
	});

	it('counts every match, returns the first `limit`, and finds the open case beyond them', () => {
		const page = queryCases(cases, categories, { text: '纠纷', limit: 2, selected: 'X-9' });
		expect(page.listed).toBe(4);
		expect(page.rows.map((c) => c.index)).toEqual([0, 1]);
		expect(page.current?.index).toBe(3);
	});

	it('shows the first match when the open case is filtered out, and none without matches', () => {
		expect(
			queryCases(cases, categories, { text: '借贷', limit: 1, selected: 'X-9' }).current?.index
		).toBe(0);
		expect(
			queryCases(cases, categories, { text: 'zzz', limit: 1, selected: null }).current
		).toBeNull();
	});
});
