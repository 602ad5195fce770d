import { describe, expect, it } from 'vitest';
import type { Case } from '../dataset/types';
import { CheckpointError, ModelCallError, UpstreamIncompleteError, UsageError } from '../errors';
import { coded } from '../said';
import { english } from '../voice';
import { naming, resumable, restated } from './run-errors';

const kase = { index: 2, case_number: 'C-3' } as Case;

describe('restating an error', () => {
	it.each([
		[
			'a model call',
			new ModelCallError('timed out', { kind: 'timeout', role: 'judge' }),
			ModelCallError
		],
		['a usage error', new UsageError('bad pack'), UsageError],
		['a checkpoint error', new UpstreamIncompleteError('gen is missing'), CheckpointError],
		['anything else', new TypeError('oops'), Error]
	])('keeps the kind of %s, says more, and keeps the original as cause', (_, error, kind) => {
		const named = naming(error, 'gen', kase);
		expect(named).toBeInstanceOf(kind);
		expect(named.message).toBe(`gen stopped at case #2 (case_number C-3): ${error.message}`);
		expect(named.cause).toBe(error);
		const saved = resumable(named, 1, 4);
		expect(saved).toBeInstanceOf(kind);
		expect(saved.message).toMatch(/\n1 of 4 cases are saved; fix the cause/);
		expect(saved.cause).toBe(named);
	});

	it('keeps a model call’s details, filling in the case only where it says none', () => {
		const error = new ModelCallError('x', { kind: 'timeout', caseNumber: 'own' });
		expect((naming(error, 'gen', kase) as ModelCallError).details).toMatchObject({
			kind: 'timeout',
			caseNumber: 'own'
		});
		const after = coded('run_saved_cases', { done: 1, total: 2 });
		const own = [coded('output_empty', {})];
		const bare = restated(new ModelCallError('y', { said: own }), null, after, {
			caseNumber: 'C-3'
		});
		expect((bare as ModelCallError).details).toEqual({ caseNumber: 'C-3', said: [...own, after] });
		expect(bare.message).toBe(english([...own, after]));
		// Own words without a code are kept as they are, between the English of the pieces.
		expect(restated(new Error('raw'), null, after).message).toBe(`raw${english(after)}`);
	});
});
