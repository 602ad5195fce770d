import { describe, expect, it } from 'vitest';
import type { BatchRound } from '../../lib/core/batch/store';
import type { RunOutcome } from '../../lib/core/session';
import { CheckpointError, UsageError } from '../../lib/core/errors';
import { planExit, planBatchSummary, type PlanBatchRow } from './plan-batch-summary';

const run = (runId: string) => ({ runId, model: 'm' });
const round: BatchRound = {
	round: 2,
	mode: 'files',
	status: 'written',
	sent_at: '2026-01-01T00:00:00.000Z',
	requests: 7,
	files: [
		{ name: 'round-2/host-m-1a2b3c4d-0.jsonl', endpoint: 'e', model: 'm', lines: 7, bytes: 900 }
	]
};
type Ending = Omit<RunOutcome, 'runId' | 'model'>;
const done = {
	status: 'done',
	rounds: 6,
	longestChain: 6,
	result: { stages: [{ total: 3 }], warnings: [] }
} as unknown as Ending;
const waiting: Ending = { status: 'waiting', waiting: round, rounds: 2 };
const failed = (error: unknown): Ending => ({ status: 'failed', error });
const row = (runId: string, outcome: Ending) =>
	({
		...run(runId),
		label: `${runId} m`,
		folder: `/b/${runId}/m-00000000`,
		...outcome
	}) as PlanBatchRow;

describe('a batch plan: exit code', () => {
	it.each([
		['every run completed', [done, done], 0],
		['a run waits, none failed', [done, waiting], 3],
		['a run failed, another waits', [failed(new Error('boom')), waiting], 1],
		['a run refused (saved data)', [failed(new CheckpointError('x')), done], 2],
		['a run refused (usage)', [failed(new UsageError('x')), failed(new Error('y'))], 2]
	] as const)('%s', (_what, outcomes, code) => {
		expect(planExit(outcomes.map((o, i) => ({ ...run(`r${i}`), ...o })))).toBe(code);
	});
});

describe('a batch plan: summary', () => {
	it('names each run, every waiting file with its vllm command, and ONE import for the plan', () => {
		const text = planBatchSummary(
			[row('run1', done), row('run2', waiting), row('run3', waiting)],
			'/out',
			'files',
			['--model', 'm', '--repetitions', '3', '--run-id', 'run', '--batch', 'files']
		);
		expect(text).toContain(
			'Plan of 3 runs in batch mode (files) under /out: 1 completed, 2 waiting'
		);
		expect(text).toContain(
			'  run1 m: completed, 3 cases (6 rounds; longest chain of dependent calls 6)'
		);
		expect(text).toContain(
			"  run2 m: waits for round 2's outputs: 7 requests in 1 file under /b/run2/m-00000000/round-2"
		);
		expect(text.match(/^ {2}vllm run-batch -i \S+ -o \S+ --model m$/gm)).toHaveLength(2);
		const imports = text.match(/^ {2}npx lexpilot batch import .*$/gm) ?? [];
		expect(imports).toEqual([
			'  npx lexpilot batch import /b/run2/m-00000000/round-2/host-m-1a2b3c4d-0.output.jsonl ' +
				'/b/run3/m-00000000/round-2/host-m-1a2b3c4d-0.output.jsonl --model m --repetitions 3 --run-id run'
		]);
	});

	it('says stopped after Ctrl+C and failed otherwise, the reason escaped', () => {
		const rows = [row('run1', failed(new Error('bad\u001b[31m\nsecond line')))];
		expect(planBatchSummary(rows, '/out', 'provider', [])).toMatch(
			/ {2}run1 m: failed: bad\\u001b\[31m\n {6}second line\n$/
		);
		expect(planBatchSummary(rows, '/out', 'provider', [], true)).toContain(
			'  run1 m: stopped: bad'
		);
	});
});
