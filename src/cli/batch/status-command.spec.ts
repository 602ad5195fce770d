import { describe, expect, it } from 'vitest';
import type { BatchState } from '../../lib/core/batch/store';
import type { CliIo } from '../types';
import { roundPrinter } from './run-batch';
import { stateText } from './status-command';

const FORGED = 'in_progress\nerror: forged\u001b[2J';

/** A provider round as polled: one batch failed with its errors, one forged status. */
const state = (): BatchState => ({
	version: 1,
	rounds: [
		{
			round: 1,
			mode: 'provider',
			status: 'answered',
			sent_at: '2025-01-01T00:00:00.000Z',
			requests: 12,
			chain_ahead: 11,
			files: [
				{
					name: 'round-1-a-0.jsonl',
					endpoint: 'https://api.example/v1',
					model: 'm',
					lines: 12,
					bytes: 4000,
					file_id: 'file-1',
					batch_id: 'batch_1',
					status: 'completed',
					counts: { total: 12, completed: 10, failed: 2 },
					output_file_id: 'file-2',
					error_file_id: 'file-3\nerror: x'
				}
			]
		},
		{
			round: 2,
			mode: 'provider',
			status: 'submitted',
			sent_at: '2025-01-02T00:00:00.000Z',
			requests: 7,
			chain_ahead: 10,
			files: [
				{
					name: 'round-2-a-0.jsonl',
					endpoint: 'https://api.example/v1',
					model: 'm',
					lines: 4,
					bytes: 900,
					file_id: 'file-4',
					batch_id: 'batch_2',
					status: 'failed',
					errors: [
						{ code: 'token_limit\nerror: forged', message: 'too many\r\ntokens', line: 2 },
						{ code: null, message: null, line: null }
					],
					errors_total: 7
				},
				{
					name: 'round-2-b-0.jsonl',
					endpoint: 'https://api.example/v1',
					model: 'm',
					lines: 3,
					bytes: 600,
					file_id: 'file-5',
					batch_id: 'batch_3',
					status: FORGED
				}
			]
		}
	]
});

describe('batch status says what a person can act on, every provider string escaped', () => {
	it('counts, file ids, the provider errors and the rounds the longest chain still needs', () => {
		const text = stateText('r1/m-1', state());
		expect(text).toBe(
			[
				'r1/m-1: 2 rounds, round 2 submitted (waiting)',
				'  longest remaining chain: 10 rounds, round 2 included, if no request fails (up to 10 × the 24 h window)',
				'  round 1  answered   provider  sent 2025-01-01T00:00:00.000Z  12 requests',
				'    round-1-a-0.jsonl  m  12 lines  4000 bytes  batch batch_1 completed',
				'      requests 10 completed, 2 failed of 12; output file file-2; error file file-3\\u000aerror: x',
				'  round 2  submitted  provider  sent 2025-01-02T00:00:00.000Z  7 requests',
				'    round-2-a-0.jsonl  m  4 lines  900 bytes  batch batch_2 failed',
				'      provider error 1 of 7: token_limit\\u000aerror: forged: too many\\u000d\\u000atokens (input line 2)',
				'      provider error 2 of 7: (no message)',
				'      … 5 more provider errors not kept',
				'    round-2-b-0.jsonl  m  3 lines  600 bytes  batch batch_3 in_progress\\u000aerror: forged\\u001b[2J',
				''
			].join('\n')
		);
		// No line of it starts as an error line would.
		expect(text.split('\n').some((l) => l.startsWith('error:'))).toBe(false);
	});

	it('after the last round: the rounds left after it', () => {
		const s = state();
		s.rounds[1].status = 'answered';
		expect(stateText('r', s).split('\n')[1]).toBe(
			'  longest remaining chain: 9 rounds after round 2, if no request fails (up to 9 × the 24 h window)'
		);
	});

	it("round progress prints a forged status on its own line, escaped, and a failed batch's errors", () => {
		const err: string[] = [];
		const io = { stderr: (t: string) => void err.push(t) } as unknown as CliIo;
		roundPrinter(io, 'r1 m: ')(state());
		const lines = err.join('').split('\n').filter(Boolean);
		expect(lines).toEqual([
			'r1 m: batch: round 1 answered, 12 requests in 1 file (completed)',
			'r1 m: batch: round 2 submitted, 7 requests in 2 files (failed,in_progress\\u000aerror: forged\\u001b[2J)',
			'r1 m: batch: round 2: batch batch_2: provider error 1 of 7: token_limit\\u000aerror: forged: too many\\u000d\\u000atokens (input line 2)',
			'r1 m: batch: round 2: batch batch_2: provider error 2 of 7: (no message)',
			'r1 m: batch: round 2: batch batch_2: … 5 more provider errors not kept'
		]);
	});
});
