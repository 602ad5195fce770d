import { describe, expect, it } from 'vitest';
import { ROW_WIDTH } from '../metrics/case-table';
import { evaluateRates, SLOTS } from '../metrics/kernel';
import { Prng } from '../metrics/prng';
import { COLUMN, LEADERBOARD_COLUMNS } from '../protocol/metrics';
import { C, resampleScope, type ModelRuns } from './scope';

/** Random counts of `n` cases: small integers in every column, zeros often (a stage unscored). */
function randomCounts(rng: Prng, n: number): Int32Array {
	const counts = new Int32Array(n * ROW_WIDTH);
	for (let i = 0; i < counts.length; i++) counts[i] = rng.below(3) === 0 ? rng.below(4) : 0;
	return counts;
}

/**
 * The straightforward computation: per resample the same draw of cases, then per run every count
 * of every drawn case added as often as drawn, all rates evaluated, and per model the mean over
 * its runs of each column where defined.
 */
function plainSamples(models: ModelRuns[], cases: Int32Array, rng: Prng, resamples: number) {
	const n = cases.length;
	const out: number[] = [];
	const rates = new Float64Array(SLOTS);
	for (let b = 0; b < resamples; b++) {
		const times = new Array<number>(n).fill(0);
		for (let j = 0; j < n; j++) times[rng.below(n)]++;
		for (const { counts } of models) {
			const values = counts.map((run) => {
				const acc = new Float64Array(ROW_WIDTH);
				cases.forEach((i, j) => {
					for (let k = 0; k < ROW_WIDTH; k++) acc[k] += times[j] * run[i * ROW_WIDTH + k];
				});
				evaluateRates(acc, rates, 0);
				return LEADERBOARD_COLUMNS.map((c) => rates[COLUMN[c].slot]);
			});
			for (let c = 0; c < C; c++) {
				const defined = values.map((v) => v[c]).filter((v) => !Number.isNaN(v));
				out.push(defined.length ? defined.reduce((a, v) => a + v, 0) / defined.length : NaN);
			}
		}
	}
	return out;
}

describe('resampleScope', () => {
	it('gives exactly the straightforward computation on random counts', () => {
		const data = new Prng(7);
		const n = 40;
		const models: ModelRuns[] = [3, 1, 2].map((runs) => ({
			counts: Array.from({ length: runs }, () => randomCounts(data, n))
		}));
		// All cases, and a scope of some of them in another order (a class's).
		for (const cases of [
			Int32Array.from({ length: n }, (_, i) => i),
			Int32Array.from([31, 2, 17, 5, 38, 11, 23, 0])
		]) {
			const fast = resampleScope(models, cases, new Prng(99), 50);
			const plain = plainSamples(models, cases, new Prng(99), 50);
			expect(Array.from(fast.samples)).toEqual(plain);
			// Mostly defined values, so the comparison is of numbers, not of NaNs.
			expect(fast.samples.filter((v) => Number.isNaN(v)).length).toBeLessThan(
				fast.samples.length / 10
			);
		}
	});
});
