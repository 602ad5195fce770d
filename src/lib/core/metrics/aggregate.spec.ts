import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aggregateTrees } from './aggregate';
import { mean, sampleSd } from './moments';
import type { LjpMetrics, MetricsTree } from './types';

const ljp = (qwk: number | null, accuracy: number | null, n_claims: number): LjpMetrics => ({
	qwk,
	accuracy,
	n_claims
});

const tree = (over: Partial<MetricsTree> = {}): MetricsTree => ({
	lca: null,
	dcg: null,
	ljp: { direct: null, gold: null, interaction: null },
	...over
});

describe('mean and sampleSd', () => {
	it.each([
		// mean (13/21 + 3/4)/2 = 115/168; |3/4 − 13/21| = 11/84, SD of two values = diff/√2
		{ values: [13 / 21, 3 / 4], mean: 115 / 168, sd: 11 / 84 / Math.SQRT2 },
		// 2, 4, 4, 4, 5, 5, 7, 9: mean 5, Σ(x−5)² = 32, 32/7 → SD √(32/7)
		{ values: [2, 4, 4, 4, 5, 5, 7, 9], mean: 5, sd: Math.sqrt(32 / 7) },
		{ values: [0.4, 0.4, 0.4], mean: 0.4, sd: 0 },
		{ values: [0.7], mean: 0.7, sd: null },
		{ values: [], mean: null, sd: null }
	])('$values', ({ values, mean: m, sd }) => {
		if (m === null) expect(mean(values)).toBeNull();
		else expect(mean(values)).toBeCloseTo(m, 12);
		if (sd === null) expect(sampleSd(values)).toBeNull();
		else expect(sampleSd(values)).toBeCloseTo(sd, 12);
	});

	it.each([
		[[0.1, 0.1, 0.1]],
		[[0.9375, 0.9375]],
		[[1 / 3, 1 / 3, 1 / 3, 1 / 3, 1 / 3]],
		[[0.7, 0.7]]
	])('gives exactly 0 for identical values %j (no rounding residue)', (values) =>
		expect(sampleSd(values)).toBe(0)
	);

	// The reference is the two-pass formula over the raw values (the mean, then the squared
	// deviations from it). The one-pass textbook formula (Σx² − (Σx)²/n) is not a reference: it
	// cancels catastrophically for close values (two values 1e-7 apart near −1 put it 3e-9 off).
	it('sampleSd agrees with the two-pass formula to 1e-12 (ddof = 1)', () => {
		fc.assert(
			fc.property(
				fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 2, maxLength: 20 }),
				(xs) => {
					const n = xs.length;
					const m = xs.reduce((a, b) => a + b, 0) / n;
					const ss = xs.reduce((a, x) => a + (x - m) ** 2, 0);
					const reference = Math.sqrt(ss / (n - 1));
					expect(Math.abs(sampleSd(xs)! - reference)).toBeLessThan(1e-12);
				}
			),
			{ numRuns: 2000 }
		);
	});
});

describe('aggregateTrees', () => {
	it('summarises a value null in some runs over the runs where it is defined, and says how many', () => {
		const agg = aggregateTrees([
			tree({ ljp: { direct: ljp(0.2, 0.5, 7), gold: null, interaction: ljp(null, 1, 1) } }),
			tree({ ljp: { direct: ljp(0.6, 0.7, 7), gold: null, interaction: ljp(0, 0, 1) } }),
			tree({ ljp: { direct: ljp(null, 0.9, 7), gold: null, interaction: ljp(null, 1, 1) } })
		]);
		// direct QWK over runs 1–2 only: mean 0.4, SD |0.6 − 0.2|/√2
		expect(agg.mean.ljp.direct!.qwk).toBeCloseTo(0.4, 12);
		expect(agg.sd.ljp.direct!.qwk).toBeCloseTo(0.4 / Math.SQRT2, 12);
		expect(agg.n_defined.ljp.direct).toEqual({ qwk: 2, accuracy: 3, n_claims: 3 });
		// accuracy over all three: (0.5 + 0.7 + 0.9)/3 = 0.7, SD √(0.08/2) = 0.2
		expect(agg.mean.ljp.direct!.accuracy).toBeCloseTo(0.7, 12);
		expect(agg.sd.ljp.direct!.accuracy).toBeCloseTo(0.2, 12);
		// interaction QWK defined once: the mean is that value, the SD undefined
		expect(agg.mean.ljp.interaction!.qwk).toBe(0);
		expect(agg.sd.ljp.interaction!.qwk).toBeNull();
		expect(agg.n_defined.ljp.interaction!.qwk).toBe(1);
	});

	it('leaves a stage null when no run has it, and keeps the other stages', () => {
		const lca = { macro_f1: 0.5, f1_u: 0.5, f1_c: 0.5, acc_c: 0.5, acc_u: 0.5, n: 864 };
		const agg = aggregateTrees([tree({ lca }), tree({ lca: { ...lca, macro_f1: 0.7 } })]);
		expect(agg.mean.dcg).toBeNull();
		expect(agg.sd.ljp.gold).toBeNull();
		expect(agg.n_defined.dcg).toBeNull();
		expect(agg.mean.lca).toEqual({ ...lca, macro_f1: 0.6 });
		expect(agg.sd.lca!.n).toBe(0);
	});

	it('averages a stage over the runs that completed it when another run has it missing', () => {
		const dcg = (success_rate: number) => ({
			success_rate,
			round1_rate: 0.1,
			round2_rate: 0.2,
			n: 4
		});
		const agg = aggregateTrees([tree({ dcg: dcg(0.25) }), tree(), tree({ dcg: dcg(0.75) })]);
		expect(agg.mean.dcg!.success_rate).toBe(0.5);
		expect(agg.n_defined.dcg!.success_rate).toBe(2);
	});

	it('gives undefined SD for a group of one', () => {
		const agg = aggregateTrees([
			tree({ ljp: { direct: ljp(0.3, 0.5, 10), gold: null, interaction: null } })
		]);
		expect(agg.mean.ljp.direct).toEqual({ qwk: 0.3, accuracy: 0.5, n_claims: 10 });
		expect(agg.sd.ljp.direct).toEqual({ qwk: null, accuracy: null, n_claims: null });
	});
});
