import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors';
import { planRuns, type PlanSpec } from './plan';
import { checkRunOptions, type CheckedOptions } from './run-options';

const options = (runId: string): CheckedOptions => ({
	runId,
	stages: ['gen'],
	models: { evaluated: 'm', user: 'u', judge: 'j' }
});

describe('the engine’s check of a run id', () => {
	it.each(['run1', 'r.2', 'CONSOLE', 'con-1', 'Run_3'])('takes %s', (runId) => {
		expect(checkRunOptions(options(runId), 'in-turn')).toEqual(['gen']);
	});

	// The CLI and the Run page refuse these too; the engine, called directly, must as well.
	it.each([
		['CON', /device name Windows reserves/],
		['nul.txt', /device name Windows reserves/],
		['Com1', /device name Windows reserves/],
		['run1.', /ends in a dot/],
		['bad/id', /must start with a letter or digit/],
		['.hidden', /must start with a letter or digit/]
	])('refuses %s', (runId, why) => {
		for (const mode of ['in-turn', 'together'] as const) {
			const stages = mode === 'together' ? undefined : (['gen'] as const);
			const call = () => checkRunOptions({ ...options(runId), stages }, mode);
			expect(call).toThrow(UsageError);
			expect(call).toThrow(why);
		}
	});

	it('quotes a hostile id escaped', () => {
		expect(() => checkRunOptions(options('a\u001b[2J'), 'in-turn')).toThrow('a\\u001b[2J');
	});
});

describe('a plan holds its run ids to the rule of a run', () => {
	const role = { model: 'm', endpoint: 'simulated' };
	const spec = (runId: string, repetitions?: number): PlanSpec => ({
		runId,
		...(repetitions === undefined ? {} : { repetitions }),
		models: [{ evaluated: role }],
		user: role,
		judge: role
	});
	const refusal = (call: () => unknown): string | null => {
		try {
			call();
			return null;
		} catch (e) {
			expect(e).toBeInstanceOf(UsageError);
			return (e as Error).message;
		}
	};
	const ids = ['run1', 'r.2', 'a..b', 'CONSOLE', 'COM10', 'COM1', 'Com1', 'nul', 'nul.txt'];
	const more = ['LPT9', 'run1.', '.hidden', 'bad/id', '', 'a'.repeat(65), 'a\u001b[2J'];

	it.each([...ids, ...more])('%j: the plan says what its run says', (runId) => {
		const run = refusal(() => checkRunOptions(options(runId), 'in-turn'));
		expect(refusal(() => planRuns(spec(runId)))).toBe(run);
	});

	it.each(['COM', 'lpt', 'run'])('%j with repetitions: each run id as a run would', (prefix) => {
		const runs = [1, 2].map((i) => refusal(() => checkRunOptions(options(prefix + i), 'in-turn')));
		expect(refusal(() => planRuns(spec(prefix, 2)))).toBe(runs.find((r) => r !== null) ?? null);
	});

	it('refuses COM1 as its run does', () => {
		expect(() => planRuns(spec('COM1'))).toThrow(/device name Windows reserves/);
		expect(() => planRuns(spec('COM', 3))).toThrow(/"COM1" is a device name/);
	});
});
