import { describe, expect, it } from 'vitest';
import { english } from '../voice';
import {
	randomRun,
	recordsOfCase,
	type FullRecords
} from '../../../../tests/unit/metrics/random-records';
import * as byRecords from '../../../../tests/unit/metrics/slow-rates';
import { buildCaseTable, type ScoredStages } from './case-table';
import { dcgMetrics } from './dcg';
import { bootstrapP, pairedBootstrap, pairingProblem } from './paired';
import { Prng, scopeSeed } from './prng';

const CATEGORIES = { 合同纠纷: '合同纠纷', 婚姻家庭纠纷: '婚姻家庭纠纷', 劳动争议: '劳动争议' };
const ALL: ScoredStages = {
	lca: true,
	dcg: true,
	ljp: { direct: true, gold: true, interaction: true }
};
const casesOf = (r: FullRecords) => r.DCG_results.map((x) => String(x.case_number));
const tableOf = (r: FullRecords, order = casesOf(r), categories = CATEGORIES) =>
	buildCaseTable(order, r, categories, ALL);

const concat = (records: FullRecords, cases: string[]) =>
	byRecords.concatCases(cases, (c) => recordsOfCase(records, c));

/** The paired bootstrap the slow way: the same drawn case numbers scored in A and in B. */
function slowPaired(a: FullRecords, b: FullRecords, cases: string[], seed: number, B: number) {
	const obsA = byRecords.rates(concat(a, cases));
	const obsB = byRecords.rates(concat(b, cases));
	const rng = new Prng(scopeSeed(seed, ''));
	const diffs: Record<string, number[]> = Object.fromEntries(Object.keys(obsA).map((k) => [k, []]));
	for (let i = 0; i < B; i++) {
		const drawn = cases.map(() => cases[rng.below(cases.length)]);
		const ra = byRecords.rates(concat(a, drawn));
		const rb = byRecords.rates(concat(b, drawn));
		for (const k of Object.keys(ra))
			if (ra[k] !== null && rb[k] !== null) diffs[k].push(rb[k]! - ra[k]!);
	}
	return Object.fromEntries(
		Object.keys(obsA).map((k) => {
			const d = obsB[k]! - obsA[k]!;
			const xs = diffs[k];
			// Opposite sign counts 1, an exact tie counts 1/2, plus one for the observed sample.
			const opposite = xs.filter(
				(x) => Math.abs(x) > 1e-12 && Math.sign(x) !== Math.sign(d)
			).length;
			const ties = xs.filter((x) => Math.abs(x) <= 1e-12).length;
			const p =
				Math.abs(d) <= 1e-12 ? 1 : Math.min(1, (2 * (opposite + ties / 2 + 1)) / (xs.length + 1));
			return [
				k,
				{
					diff: d,
					ci95: [byRecords.numpyPercentile(xs, 0.025), byRecords.numpyPercentile(xs, 0.975)],
					p
				}
			];
		})
	);
}

describe('pairedBootstrap', () => {
	const a = randomRun({ cases: 60, seed: 11, skill: 0.55 });
	const b = randomRun({ cases: 60, seed: 12, skill: 0.7 });

	it('matches a slow record-level paired bootstrap with the same seed', () => {
		const fast = byRecords.flattenRates(
			pairedBootstrap(tableOf(a), tableOf(b), { resamples: 250, seed: 3 }).metrics
		);
		const slow = slowPaired(a, b, casesOf(a), 3, 250);
		for (const [k, e] of Object.entries(slow)) {
			const f = fast[k];
			expect(Math.abs(f.diff! - e.diff), k).toBeLessThan(1e-12);
			expect(Math.abs(f.ci95![0] - e.ci95[0]), `${k} low`).toBeLessThan(1e-12);
			expect(Math.abs(f.ci95![1] - e.ci95[1]), `${k} high`).toBeLessThan(1e-12);
			expect(f.p, k).toBeCloseTo(e.p, 12);
		}
	});

	it('gives difference 0, interval [0, 0] and p = 1 for identical runs', () => {
		const result = pairedBootstrap(tableOf(a), tableOf(a), { resamples: 200 });
		expect(result.n_cases).toBe(60);
		for (const [k, d] of Object.entries(byRecords.flattenRates(result.metrics))) {
			expect(d, k).toEqual({ diff: 0, ci95: [0, 0], p: 1 });
		}
		for (const tree of Object.values(result.by_class)) {
			for (const d of Object.values(byRecords.flattenRates(tree)))
				expect(d).toEqual({ diff: 0, ci95: [0, 0], p: 1 });
		}
	});

	it('gives a small p and an interval excluding 0 for a large difference', () => {
		const weak = randomRun({ cases: 200, seed: 21, skill: 0.15 });
		const strong = randomRun({ cases: 200, seed: 22, skill: 0.95 });
		const B = 1000;
		const m = pairedBootstrap(tableOf(weak), tableOf(strong), { resamples: B }).metrics;
		for (const d of [m.lca!.macro_f1, m.lca!.acc_u, m.dcg!.success_rate, m.ljp.direct!.accuracy]) {
			expect(d.diff).toBeGreaterThan(0.2);
			expect(d.ci95![0]).toBeGreaterThan(0);
			// No resample reverses the sign: p is the smallest a bootstrap of B can give.
			expect(d.p).toBeCloseTo(2 / (B + 1), 12);
		}
		// Reversed, the difference changes sign and the p-value stays.
		const r = pairedBootstrap(tableOf(strong), tableOf(weak), { resamples: B }).metrics;
		expect(r.dcg!.success_rate.diff).toBeCloseTo(-m.dcg!.success_rate.diff!, 12);
		expect(r.dcg!.success_rate.ci95![1]).toBeLessThan(0);
		expect(r.dcg!.success_rate.p).toBeCloseTo(2 / (B + 1), 12);
	});

	it('pairs by case number, whatever order each run selected its cases in', () => {
		const reversed = [...casesOf(b)].reverse();
		expect(pairedBootstrap(tableOf(a), tableOf(b, reversed), { resamples: 100 })).toEqual(
			pairedBootstrap(tableOf(a), tableOf(b), { resamples: 100 })
		);
	});

	it('refuses runs whose selected cases differ, saying which', () => {
		const other = randomRun({
			cases: 60,
			seed: 12,
			caseNumbers: [...casesOf(a).slice(0, 59), 'x99']
		});
		const problem = pairingProblem(tableOf(a), tableOf(other));
		expect(problem).toContain('only in A: 1 ("c60")');
		expect(problem).toContain('only in B: 1 ("x99")');
		expect(() => pairedBootstrap(tableOf(a), tableOf(other))).toThrow(/cannot be paired/);
		expect(pairingProblem(tableOf(a), tableOf(b))).toBeNull();
	});

	it('compares per class, and leaves classes out (with a note) when category maps disagree', () => {
		const result = pairedBootstrap(tableOf(a), tableOf(b), { resamples: 50 });
		expect(Object.keys(result.by_class).sort()).toEqual(
			['劳动争议', '合同纠纷', '婚姻家庭纠纷'].sort()
		);
		expect(result.notes).toEqual([]);
		const renamed = tableOf(b, casesOf(b), { ...CATEGORIES, 劳动争议: '其他' });
		const mixed = pairedBootstrap(tableOf(a), renamed, { resamples: 50 });
		expect(mixed.by_class).toEqual({});
		expect(english(mixed.notes[0])).toMatch(/different classes/);
	});

	it('gives the difference but no interval or p below MIN_CASES cases', () => {
		const a9 = randomRun({ cases: 9, seed: 1 });
		const b9 = randomRun({ cases: 9, seed: 2 });
		const d = pairedBootstrap(tableOf(a9), tableOf(b9), { resamples: 50 }).metrics.dcg!
			.success_rate;
		expect(d.diff).toBeCloseTo(
			dcgMetrics(b9.DCG_results).success_rate! - dcgMetrics(a9.DCG_results).success_rate!,
			12
		);
		expect(d.ci95).toBeNull();
		expect(d.p).toBeNull();
	});

	it('is null for a stage scored in only one run', () => {
		const partial = buildCaseTable(casesOf(b), b, CATEGORIES, { ...ALL, dcg: false });
		const result = pairedBootstrap(tableOf(a), partial, { resamples: 50 });
		expect(result.metrics.dcg).toBeNull();
		expect(result.metrics.lca).not.toBeNull();
	});
});

describe('bootstrapP', () => {
	it.each([
		// diff, resampled differences, expected p
		[0.1, [0.2, 0.1, 0.3], (2 * 1) / 4],
		[0.1, [0.2, -0.1, 0, 0.3], (2 * (1 + 0.5 + 1)) / 5],
		[-0.1, [0.2, -0.1, -0.3], (2 * (1 + 1)) / 4],
		[0, [0.2, -0.1], 1],
		[0.1, [-0.2, -0.1, -0.3], 1]
	])('diff %d over %j gives %d', (diff, xs, p) => {
		expect(bootstrapP(diff, Float64Array.from(xs).sort())).toBeCloseTo(p, 12);
	});
});
