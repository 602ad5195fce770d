import { describe, expect, it } from 'vitest';
import {
	randomRun,
	recordsOfCase,
	type FullRecords
} from '../../../../tests/unit/metrics/random-records';
import * as byRecords from '../../../../tests/unit/metrics/slow-rates';
import { classOf } from '../dataset/categories';
import {
	MIN_CASES,
	bootstrapRun,
	definedSorted,
	percentileInterval,
	quantileSorted,
	type Interval
} from './bootstrap';
import { buildCaseTable, type ScoredStages } from './case-table';
import { evaluateRates, RATE_SLOTS, SLOTS } from './kernel';
import { Prng, scopeSeed } from './prng';

const CATEGORIES = { 合同纠纷: '合同纠纷', 婚姻家庭纠纷: '婚姻家庭纠纷' };
const ALL: ScoredStages = {
	lca: true,
	dcg: true,
	ljp: { direct: true, gold: true, interaction: true }
};
const casesOfRun = (r: FullRecords) => r.DCG_results.map((x) => x.case_number);
const key = ([stage, metric]: (typeof RATE_SLOTS)[number]) => `${stage}.${metric}`;

/**
 * The bootstrap the slow, obvious way: per resample, draw case numbers with the same PRNG
 * stream, concatenate their actual records and score them with lcaMetrics & co.
 */
function slowBootstrap(
	records: FullRecords,
	caseNumbers: string[],
	scope: string,
	seed: number,
	resamples: number
): Record<string, Interval> {
	const byCase = new Map(caseNumbers.map((c) => [c, recordsOfCase(records, c)]));
	const union = (cs: string[]) => byRecords.concatCases(cs, (c) => byCase.get(c)!);
	const observed = byRecords.rates(union(caseNumbers));
	const rng = new Prng(scopeSeed(seed, scope));
	const samples: Record<string, number[]> = Object.fromEntries(
		Object.keys(observed).map((k) => [k, []])
	);
	for (let b = 0; b < resamples; b++) {
		const drawn = caseNumbers.map(() => caseNumbers[rng.below(caseNumbers.length)]);
		const rates = byRecords.rates(union(drawn));
		for (const [k, v] of Object.entries(rates)) if (v !== null) samples[k].push(v);
	}
	return Object.fromEntries(
		Object.entries(samples).map(([k, vs]) => [
			k,
			observed[k] === null || caseNumbers.length < 10 || vs.length < resamples / 2
				? null
				: [byRecords.numpyPercentile(vs, 0.025), byRecords.numpyPercentile(vs, 0.975)]
		])
	);
}

function expectIntervalsClose(
	actual: Record<string, Interval>,
	expected: Record<string, Interval>
) {
	expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
	for (const [k, e] of Object.entries(expected)) {
		const a = actual[k];
		if (e === null) expect(a, k).toBeNull();
		else {
			expect(a, k).not.toBeNull();
			expect(Math.abs(a![0] - e[0]), `${k} low`).toBeLessThan(1e-12);
			expect(Math.abs(a![1] - e[1]), `${k} high`).toBeLessThan(1e-12);
		}
	}
}

describe('the rate kernel', () => {
	it('gives exactly the figures of lcaMetrics, dcgMetrics and ljpMetrics on the whole run', () => {
		for (const seed of [1, 2, 3]) {
			const records = randomRun({ cases: 40, seed });
			const cases = records.DCG_results.map((r) => String(r.case_number));
			const table = buildCaseTable(cases, records, CATEGORIES, ALL);
			const acc = new Float64Array(35);
			for (let i = 0; i < cases.length; i++)
				for (let k = 0; k < 35; k++) acc[k] += table.counts[i * 35 + k];
			const out = new Float64Array(SLOTS);
			evaluateRates(acc, out, 0);
			const slow = byRecords.rates(records);
			RATE_SLOTS.forEach((slot, s) => {
				const expected = slow[key(slot)];
				if (expected === null) expect(out[s], key(slot)).toBeNaN();
				else expect(Math.abs(out[s] - expected), key(slot)).toBeLessThan(1e-12);
			});
		}
	});
});

describe('bootstrapRun', () => {
	const records = randomRun({ cases: 48, seed: 7 });
	const cases = records.DCG_results.map((r) => String(r.case_number));
	const table = buildCaseTable(cases, records, CATEGORIES, ALL);
	const B = 300;

	it('matches a slow record-level bootstrap with the same seed, overall and per class', () => {
		const fast = bootstrapRun(table, { resamples: B, seed: 99 });
		expectIntervalsClose(
			byRecords.flattenRates(fast.ci95),
			slowBootstrap(records, cases, '', 99, B)
		);
		expect(Object.keys(fast.by_class)).toEqual(['合同纠纷', '婚姻家庭纠纷', '未分类']);
		for (const cls of Object.keys(fast.by_class)) {
			const inClass = cases.filter(
				(c) => classOf(recordsOfCase(records, c).DCG_results[0].cause_of_action, CATEGORIES) === cls
			);
			expectIntervalsClose(
				byRecords.flattenRates(fast.by_class[cls]),
				slowBootstrap(records, inClass, cls, 99, B)
			);
		}
	});

	it('reproduces with the same seed, moves with another, and brackets the point estimate', () => {
		const one = bootstrapRun(table, { resamples: B, seed: 5 });
		expect(bootstrapRun(table, { resamples: B, seed: 5 })).toEqual(one);
		expect(bootstrapRun(table, { resamples: B, seed: 6 }).ci95.lca).not.toEqual(one.ci95.lca);
		const point = byRecords.rates(records);
		for (const [k, ci] of Object.entries(byRecords.flattenRates(one.ci95))) {
			expect(ci, k).not.toBeNull();
			expect(ci![0], k).toBeLessThanOrEqual(point[k]!);
			expect(ci![1], k).toBeGreaterThanOrEqual(point[k]!);
			expect(ci![0], k).toBeLessThan(ci![1]);
		}
	});

	it('gives narrower intervals for more cases', () => {
		const big = randomRun({ cases: 400, seed: 7 });
		const bigCases = big.DCG_results.map((r) => r.case_number);
		const wide = bootstrapRun(table, { resamples: B }).ci95.dcg!.success_rate!;
		const narrow = bootstrapRun(buildCaseTable(bigCases, big, CATEGORIES, ALL), { resamples: B })
			.ci95.dcg!.success_rate!;
		expect(narrow[1] - narrow[0]).toBeLessThan((wide[1] - wide[0]) * 0.6);
	});

	it('keeps a stage that is not scored null, and an undefined rate null', () => {
		const twelve = Array.from({ length: 12 }, (_, i) => `k${i}`);
		const r: FullRecords = {
			LCA_results: [],
			DCG_results: [],
			LJP_direct: twelve.map((c) => ({
				case_number: c,
				cause_of_action: '合同纠纷',
				gold: ['驳回'],
				predicted: ['驳回']
			})),
			LJP_gold: [],
			LJP_interaction: []
		};
		const t = buildCaseTable(twelve, r, CATEGORIES, {
			lca: false,
			dcg: false,
			ljp: { direct: true, gold: false, interaction: false }
		});
		const out = bootstrapRun(t, { resamples: 50 });
		expect(out.ci95.lca).toBeNull();
		expect(out.ci95.dcg).toBeNull();
		expect(out.ci95.ljp.gold).toBeNull();
		// One label throughout: QWK is undefined on the data and so in every resample. Accuracy is
		// 12 of 12 in every resample: the percentile interval would be [1, 1], which reads as
		// certainty; Wilson's score interval over the 12 cases is [12 / (12 + z²), 1] instead.
		const wilson12: [number, number] = [12 / (12 + 1.959963984540054 ** 2), 1];
		for (const scope of [out.ci95, out.by_class['合同纠纷']]) {
			expect(scope.ljp.direct!.qwk).toBeNull();
			const [low, high] = scope.ljp.direct!.accuracy!;
			expect(low).toBeCloseTo(wilson12[0], 12);
			expect(high).toBe(1);
		}
		expect(wilson12[0]).toBeCloseTo(0.7575, 4);
	});

	it('gives no interval to a scope of fewer than MIN_CASES cases', () => {
		expect(MIN_CASES).toBe(10);
		const small = randomRun({ cases: 14, seed: 3, causes: ['合同纠纷', '婚姻家庭纠纷'] });
		const t = buildCaseTable(casesOfRun(small), small, CATEGORIES, ALL);
		const sizes = t.classes.map((_, i) => t.class_of.filter((c) => c === i).length);
		expect(Math.min(...sizes)).toBeLessThan(10);
		const out = bootstrapRun(t, { resamples: 100 });
		t.classes.forEach((cls, i) => {
			const values = Object.values(byRecords.flattenRates(out.by_class[cls]));
			if (sizes[i] < 10) expect(values.every((v) => v === null)).toBe(true);
			else expect(values.some((v) => v !== null)).toBe(true);
		});
		expect(out.ci95.dcg!.success_rate).not.toBeNull();
	});

	it('takes plain data: a table cloned as postMessage would (to a Web Worker) gives the same intervals', () => {
		const cloned = structuredClone(table);
		expect(cloned.counts).toBeInstanceOf(Int32Array);
		expect(bootstrapRun(cloned, { resamples: 100 })).toEqual(
			bootstrapRun(table, { resamples: 100 })
		);
		expect(structuredClone(bootstrapRun(table, { resamples: 100 }))).toEqual(
			bootstrapRun(table, { resamples: 100 })
		);
	});

	it('rejects a resample count that is not a positive integer', () => {
		expect(() => bootstrapRun(table, { resamples: 0 })).toThrow(/positive integer/);
		expect(() => bootstrapRun(table, { resamples: 2.5 })).toThrow(/positive integer/);
	});
});

describe('percentiles and undefined resamples', () => {
	it('interpolates linearly between order statistics (numpy default)', () => {
		const s = Float64Array.from([1, 2, 3, 4, 5]);
		expect(quantileSorted(s, 0)).toBe(1);
		expect(quantileSorted(s, 0.5)).toBe(3);
		expect(quantileSorted(s, 0.1)).toBeCloseTo(1.4, 12);
		expect(percentileInterval(Float64Array.from({ length: 101 }, (_, i) => i))).toEqual([
			2.5, 97.5
		]);
	});

	it('drops undefined resamples, and gives null when fewer than half define the rate', () => {
		// Two slots' worth of rows: slot 0 defined in 6 of 10 resamples, slot 1 in 4.
		const rows = 10;
		const samples = new Float64Array(rows * SLOTS).fill(NaN);
		for (let b = 0; b < 6; b++) samples[b * SLOTS] = 6 - b;
		for (let b = 0; b < 4; b++) samples[b * SLOTS + 1] = b;
		expect([...definedSorted(samples, 0, rows)!]).toEqual([1, 2, 3, 4, 5, 6]);
		expect(definedSorted(samples, 1, rows)).toBeNull();
		expect(definedSorted(samples, 2, rows)).toBeNull();
	});
});
