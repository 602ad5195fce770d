import { describe, expect, it } from 'vitest';
import { buildCaseTable } from './case-table';
import { scopeSummary } from './confusion';

const ljp = (case_number: string, cause_of_action: string, gold: string[], predicted: string[]) =>
	({ case_number, cause_of_action, gold, predicted }) as {
		case_number: string;
		cause_of_action: string;
		gold: ('支持' | '部分支持' | '驳回')[];
		predicted: ('支持' | '部分支持' | '驳回')[];
	};

describe('scopeSummary', () => {
	const direct = [
		ljp('1', '合同纠纷', ['支持', '驳回'], ['支持', '支持']),
		ljp('2', '合同纠纷', ['部分支持'], ['驳回']),
		ljp('3', '离婚纠纷', ['驳回', '驳回', '支持'], ['驳回', '部分支持', '支持'])
	];
	const table = buildCaseTable(
		['1', '2', '3', '4'],
		{ LJP_direct: direct, LJP_gold: direct.map((r) => ({ ...r, predicted: r.gold })) },
		{ 合同纠纷: '合同纠纷', 离婚纠纷: '婚姻家庭纠纷' },
		{ lca: false, dcg: false, ljp: { direct: true, gold: true, interaction: false } }
	);

	it('gives gold × predicted claim counts per setup, overall and per class', () => {
		const all = scopeSummary(table, -1);
		// rows gold 支持, 部分支持, 驳回; columns predicted in the same order
		expect(all.ljp_confusion.direct).toEqual([
			[2, 0, 0],
			[0, 0, 1],
			[1, 1, 1]
		]);
		expect(all.ljp_confusion.gold).toEqual([
			[2, 0, 0],
			[0, 1, 0],
			[0, 0, 3]
		]);
		expect(all.ljp_confusion.interaction).toBeNull();
		// Case 4 has no record yet (a partial run): it counts as selected, with no claims.
		expect(all.counts).toEqual({ cases: 4, claims: 6 });
		expect(table.classes).toEqual(['合同纠纷', '婚姻家庭纠纷']);
		const contract = scopeSummary(table, 0);
		expect(contract.counts).toEqual({ cases: 2, claims: 3 });
		expect(contract.ljp_confusion.direct).toEqual([
			[1, 0, 0],
			[0, 0, 1],
			[1, 0, 0]
		]);
		expect(scopeSummary(table, 1).counts).toEqual({ cases: 1, claims: 3 });
	});

	it('has null claims when no LJP setup is scored', () => {
		const t = buildCaseTable(
			['1'],
			{ LJP_direct: direct.slice(0, 1) },
			{},
			{
				lca: true,
				dcg: true,
				ljp: { direct: false, gold: false, interaction: false }
			}
		);
		expect(scopeSummary(t, -1).counts).toEqual({ cases: 1, claims: null });
		expect(scopeSummary(t, -1).ljp_confusion.direct).toBeNull();
	});
});
