import { describe, expect, it } from 'vitest';
import { CheckpointError } from '../errors';
import { checkCrossStage, checkStage } from './completeness';

const selected = ['2023-001', '2023-002', '2023-003'];
const c = (case_number: string) => ({ case_number });
const h = (case_number: string, history_type: string) => ({ case_number, history_type });

describe('checkStage', () => {
	it.each([
		{
			name: 'every case once',
			file: 'LJP_gold',
			records: selected.map(c),
			status: 'complete',
			have: 3,
			expected: 3
		},
		{
			name: 'one case short',
			file: 'DCG_results',
			records: [c('2023-001'), c('2023-003')],
			status: 'incomplete',
			have: 2,
			expected: 3
		},
		{
			name: 'an empty file',
			file: 'LJP_direct',
			records: [],
			status: 'incomplete',
			have: 0,
			expected: 3
		},
		{
			name: 'no file',
			file: 'LJP_interaction',
			records: undefined,
			status: 'missing',
			have: 0,
			expected: 3
		},
		{
			name: 'LCA needs both histories of every case',
			file: 'LCA_results',
			records: selected.flatMap((n) => [h(n, 'complete'), h(n, 'underspecified')]),
			status: 'complete',
			have: 6,
			expected: 6
		},
		{
			name: 'LCA with one history missing',
			file: 'LCA_results',
			records: [
				h('2023-001', 'complete'),
				h('2023-001', 'underspecified'),
				h('2023-002', 'complete')
			],
			status: 'incomplete',
			have: 3,
			expected: 6
		},
		{
			name: 'in any order',
			file: 'LJP_gold',
			records: [...selected].reverse().map(c),
			status: 'complete',
			have: 3,
			expected: 3
		}
	] as const)('$name', ({ file, records, status, have, expected }) => {
		expect(checkStage(file, records, selected, file)).toMatchObject({ status, have, expected });
	});

	it.each([
		{
			name: 'a case that is not selected',
			file: 'LJP_gold',
			records: [c('2023-001'), c('2024-999')],
			message:
				/LJP_gold\.jsonl, line 2: case_number 2024-999 is not one of the run's 3 selected cases/
		},
		{
			name: 'a case twice',
			file: 'DCG_results',
			records: [c('2023-002'), c('2023-001'), c('2023-002')],
			message: /DCG_results\.jsonl, line 3: case_number 2023-002 already has a record on line 1/
		},
		{
			name: 'the same LCA history twice',
			file: 'LCA_results',
			records: [
				h('2023-001', 'complete'),
				h('2023-001', 'underspecified'),
				h('2023-001', 'underspecified')
			],
			message:
				/line 3: case_number 2023-001 \(underspecified history\) already has a record on line 2/
		}
	] as const)('rejects $name, naming file, line and case', ({ file, records, message }) => {
		expect(() => checkStage(file, records, selected, `eval_results/r/m/${file}.jsonl`)).toThrow(
			CheckpointError
		);
		expect(() => checkStage(file, records, selected, `eval_results/r/m/${file}.jsonl`)).toThrow(
			message
		);
	});
});

describe('checkCrossStage', () => {
	const lca = (n: string, cause: string) =>
		({ ...h(n, 'complete'), cause_of_action: cause }) as never;
	const ljp = (n: string, cause: string, gold: string[]) =>
		({
			case_number: n,
			cause_of_action: cause,
			claims: gold.map((_, i) => `诉讼请求${i + 1}`),
			gold,
			predicted: gold
		}) as never;

	it('accepts files that agree on every case', () => {
		expect(() =>
			checkCrossStage(
				{
					LCA_results: [lca('1', '离婚纠纷')],
					LJP_direct: [ljp('1', '离婚纠纷', ['支持'])],
					LJP_gold: [ljp('1', '离婚纠纷', ['支持'])]
				},
				(f) => f
			)
		).not.toThrow();
	});

	it('rejects a case whose cause differs between files', () => {
		expect(() =>
			checkCrossStage(
				{ LCA_results: [lca('1', '离婚纠纷')], LJP_gold: [ljp('1', '劳动争议', ['支持'])] },
				(f) => `${f}.jsonl`
			)
		).toThrow(
			/LJP_gold\.jsonl, line 1: case_number 1 has cause_of_action "劳动争议", but "离婚纠纷" at LCA_results\.jsonl, line 1/
		);
	});

	it('rejects LJP setups that score different gold verdicts for a case', () => {
		expect(() =>
			checkCrossStage(
				{
					LJP_direct: [ljp('1', '离婚纠纷', ['支持'])],
					LJP_interaction: [ljp('1', '离婚纠纷', ['驳回'])]
				},
				(f) => f
			)
		).toThrow(
			/LJP_interaction, line 1: case_number 1 has other claims or gold verdicts than at LJP_direct, line 1/
		);
	});
});
