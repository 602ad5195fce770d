import { describe, expect, it } from 'vitest';
import type { EvalRecords } from './completeness';
import { judgePairs } from './judge-pairs';

const lca = (
	case_number: string,
	history_type: 'complete' | 'underspecified',
	label: 'clarification' | 'judgment'
) =>
	({
		case_number,
		cause_of_action: 'c',
		history_type,
		response: 'r',
		label,
		input_sha256: 'x'
	}) as const;
const dcg = (case_number: string, round_labels: ['是' | '否', '是' | '否'], success: boolean) => ({
	case_number,
	cause_of_action: 'c',
	questions: ['q', 'q'],
	round_labels,
	success,
	input_sha256: 'x'
});
const ljp = (case_number: string | number, predicted: ('支持' | '部分支持' | '驳回')[]) => ({
	case_number,
	cause_of_action: 'c',
	claims: predicted.map((_, i) => `claim ${i}`),
	predicted,
	gold: predicted.map(() => '支持' as const),
	input_sha256: 'x'
});

describe('judgePairs', () => {
	it('pairs LCA by case and history, DCG by round, LJP by claim; counts what one run lacks', () => {
		const a = {
			LCA_results: [
				lca('1', 'complete', 'judgment'),
				lca('1', 'underspecified', 'clarification'),
				lca('2', 'complete', 'judgment')
			],
			DCG_results: [dcg('1', ['是', '否'], true)],
			LJP_gold: [ljp(1, ['支持', '驳回'])]
		} as unknown as EvalRecords;
		const b = {
			// In another order, and case 2 missing: pairs follow identities, never positions.
			LCA_results: [lca('1', 'underspecified', 'judgment'), lca('1', 'complete', 'judgment')],
			DCG_results: [dcg('1', ['否', '否'], false)],
			LJP_gold: [ljp('1', ['部分支持', '驳回'])]
		} as unknown as EvalRecords;
		const pairs = judgePairs(a, b);
		expect(pairs.lca).toEqual({
			pairs: [
				['judgment', 'judgment'],
				['clarification', 'judgment']
			],
			unpaired: 1
		});
		expect(pairs.dcg.pairs).toEqual([
			['是', '否'],
			['否', '否']
		]);
		// A case_number 1 in one run is "1" in the other (PROTOCOL.md §5).
		expect(pairs['ljp-gold'].pairs).toEqual([
			['支持', '部分支持'],
			['驳回', '驳回']
		]);
		expect(pairs['ljp-direct']).toEqual({ pairs: [], unpaired: 0 });
	});
});
