import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors';
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
