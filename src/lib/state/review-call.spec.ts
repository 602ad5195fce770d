import { describe, expect, it } from 'vitest';
import { makeCallEntry } from '../../../tests/support/record-factories';
import type { DecisionId } from '$lib/core/agreement';
import { judgeCallOf } from './review-call';

const id = (over: Partial<DecisionId>): DecisionId => ({
	run_id: 'r',
	model_dir: 'm-12345678',
	stage: 'lca',
	case_number: '1',
	history_type: null,
	round: null,
	claim: null,
	...over
});

describe('judgeCallOf', () => {
	const calls = [
		makeCallEntry({
			role: 'judge',
			stage: 'gen',
			task: 'judge_lca',
			history_type: 'complete',
			round: null,
			response: 'A'
		}),
		makeCallEntry({
			role: 'judge',
			stage: 'gen',
			task: 'judge_lca',
			history_type: null,
			round: 2,
			response: 'I'
		}),
		makeCallEntry({ role: 'judge', stage: 'dcg', task: 'judge_dcg', round: 1, response: 'D1' }),
		makeCallEntry({ role: 'judge', stage: 'dcg', task: 'judge_dcg', round: 2, response: 'D2' }),
		makeCallEntry({
			role: 'judge',
			stage: 'dcg',
			task: 'judge_dcg',
			round: 2,
			response: 'D2 again'
		}),
		makeCallEntry({ role: 'judge', stage: 'ljp-gold', task: 'judge_extract', response: 'L' })
	];

	it('finds the LCA label of the first response, not an interaction round', () => {
		expect(judgeCallOf(calls, id({ history_type: 'complete' }))?.response).toBe('A');
		expect(judgeCallOf(calls, id({ history_type: 'underspecified' }))).toBeNull();
	});

	it('finds the last answered call of a DCG round and of an LJP setup', () => {
		expect(judgeCallOf(calls, id({ stage: 'dcg', round: 2 }))?.response).toBe('D2 again');
		expect(judgeCallOf(calls, id({ stage: 'ljp-gold', claim: 0 }))?.response).toBe('L');
	});
});
