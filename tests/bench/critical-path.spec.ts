import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chainOf, idealTime, measured, stageChains, type TimedCall } from './critical-path';

/** A call of case c1 in stage gen, taking `latencyMs` from `start`. */
const call = (start: number, latencyMs: number, over: Partial<TimedCall> = {}): TimedCall => ({
	stage: 'gen',
	caseNumber: 'c1',
	latencyMs,
	start,
	end: start + latencyMs,
	...over
});

describe('chainOf', () => {
	it.each([
		{ what: 'no calls', calls: [], chain: 0 },
		{ what: 'one call', calls: [call(0, 30)], chain: 30 },
		{
			what: 'calls one after another add up',
			calls: [call(0, 20), call(20, 30), call(51, 40)],
			chain: 90
		},
		{
			what: 'overlapping calls count once, by the longer',
			calls: [call(0, 20), call(0, 40), call(40, 25)],
			chain: 65
		},
		{
			// a1 complete → LCA and a1 underspecified → LCA side by side: the longer branch wins.
			what: 'two parallel branches of two calls',
			calls: [call(0, 20), call(0, 40), call(20, 30), call(40, 25)],
			chain: 65
		},
		{
			what: 'a call that waits on both branches follows the longer one',
			calls: [call(0, 20), call(0, 40), call(20, 30), call(40, 25), call(65, 10)],
			chain: 75
		}
	])('$what', ({ calls, chain }) => {
		expect(chainOf(calls)).toBe(chain);
		expect(chainOf([...calls].reverse())).toBe(chain);
	});

	it('weighs a call by its intended latency, or by the time it took when asked', () => {
		const late = [{ ...call(0, 20), end: 35 }, call(35, 20)];
		expect(chainOf(late)).toBe(40);
		expect(chainOf(late, measured)).toBe(55);
	});
});

describe('stageChains and idealTime', () => {
	const calls = [
		call(0, 10, { caseNumber: 'a' }),
		call(10, 10, { caseNumber: 'a' }),
		call(0, 30, { caseNumber: 'b' }),
		call(0, 5, { caseNumber: 'c' }),
		call(100, 5, { stage: 'dcg', caseNumber: 'a' })
	];

	it('gives each case of each stage its own chain', () => {
		expect(stageChains(calls)).toEqual(
			new Map([
				['gen', [20, 30, 5]],
				['dcg', [5]]
			])
		);
	});

	it.each([
		{ concurrency: 1, idealMs: 60 },
		// gen: max(30, 55 / 2); dcg: max(5, 5 / 2)
		{ concurrency: 2, idealMs: 35 },
		{ concurrency: 64, idealMs: 35 }
	])('at concurrency $concurrency the ideal is $idealMs ms', ({ concurrency, idealMs }) => {
		expect(idealTime(stageChains(calls), concurrency)).toEqual({
			criticalPathMs: 35,
			workMs: 60,
			idealMs
		});
	});

	it('never rises with concurrency and stays between the critical path and the work', () => {
		const chains = fc.array(fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1 }), {
			minLength: 1,
			maxLength: 5
		});
		fc.assert(
			fc.property(chains, fc.integer({ min: 1, max: 64 }), (perStage, c) => {
				const map = new Map(perStage.map((chain, i) => [`s${i}`, chain]));
				const at = idealTime(map, c);
				const next = idealTime(map, c + 1);
				expect(next.idealMs).toBeLessThanOrEqual(at.idealMs);
				expect(at.idealMs).toBeGreaterThanOrEqual(at.criticalPathMs);
				expect(at.idealMs).toBeLessThanOrEqual(at.workMs);
				expect(idealTime(map, 1).idealMs).toBe(at.workMs);
			})
		);
	});
});
