import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VERDICTS, type Verdict } from '../dataset/types';
import { ljpMetrics, quadraticWeightedKappa } from './ljp';

const V = ['支持', '部分支持', '驳回'] as const satisfies readonly Verdict[];
/** Verdicts from ordinals, to keep the tables short: 0 = 支持, 1 = 部分支持, 2 = 驳回. */
const v = (...ordinals: number[]): Verdict[] => ordinals.map((o) => V[o]);

describe('quadraticWeightedKappa', () => {
	it.each([
		{
			name: 'fixture run1 direct',
			gold: v(0, 2, 1, 0, 1, 2, 2),
			pred: v(0, 0, 0, 0, 2, 2, 2),
			// O: (0,0)×2, (1,0)×1, (1,2)×1, (2,0)×1, (2,2)×2. Σw·O = ¼ + ¼ + 1 = 3/2.
			// Marginals gold [2,2,3], pred [4,0,3]; 7·Σw·E = 1·2·3 + ¼·2·4 + ¼·2·3 + 1·3·4 = 21.5.
			// QWK = 1 − 1.5 / (21.5/7) = 1 − 21/43 = 22/43
			expected: 22 / 43
		},
		{
			name: 'fixture run2 direct',
			gold: v(0, 2, 1, 0, 1, 2, 2),
			pred: v(0, 2, 1, 0, 0, 2, 2),
			// Σw·O = ¼ (one 部分支持 → 支持). Marginals gold [2,2,3], pred [3,1,3];
			// 7·Σw·E = ¼·2·1 + 1·2·3 + ¼·2·3 + ¼·2·3 + 1·3·3 + ¼·3·1 = 19.25 → Σw·E = 2.75.
			// QWK = 1 − 0.25/2.75 = 10/11
			expected: 10 / 11
		},
		{
			name: 'fixture run2 interaction',
			gold: v(0, 2, 1, 0, 1, 2, 2),
			pred: v(0, 2, 1, 1, 1, 2, 0),
			// Σw·O = ¼ (0→1) + 1 (2→0) = 1.25. Marginals gold [2,2,3], pred [2,3,2];
			// 7·Σw·E = 1.5 + 4 + 1 + 1 + 6 + 2.25 = 15.75 → 2.25. QWK = 1 − 1.25/2.25 = 4/9
			expected: 4 / 9
		},
		{
			name: 'constant prediction against varied gold is 0, not undefined',
			gold: v(0, 2, 1, 0, 1, 2, 2),
			pred: v(2, 2, 2, 2, 2, 2, 2),
			// Σw·O = 1·2 + ¼·2 = 2.5; pred marginal [0,0,7] → Σw·E = (1·2·7 + ¼·2·7)/7 = 2.5 → 0
			expected: 0
		},
		{ name: 'all correct', gold: v(0, 1, 2, 2), pred: v(0, 1, 2, 2), expected: 1 },
		{
			name: 'all wrong, extremes swapped',
			gold: v(0, 2),
			pred: v(2, 0),
			// Σw·O = 2; marginals [1,0,1] both → Σw·E = (1 + 1)/2 = 1 → QWK = 1 − 2 = −1
			expected: -1
		},
		{
			name: 'constant labels, agreeing: expected disagreement 0',
			gold: v(2, 2, 2),
			pred: v(2, 2, 2),
			expected: null
		},
		{ name: 'one claim', gold: v(1), pred: v(1), expected: null },
		{ name: 'no claims', gold: [], pred: [], expected: null }
	])('$name', ({ gold, pred, expected }) => {
		const k = quadraticWeightedKappa(gold, pred);
		if (expected === null) expect(k).toBeNull();
		else expect(k).toBeCloseTo(expected, 12);
	});

	it('refuses gold and predicted lists of different lengths', () => {
		expect(() => quadraticWeightedKappa(v(0, 1), v(0))).toThrow(/2 verdicts but predicted has 1/);
	});
});

describe('ljpMetrics', () => {
	it('scores claims across records, not records', () => {
		// Claims: (支持,支持) ✓, (驳回,支持) ✗ in one record; (部分支持,部分支持) ✓ in another → 2/3.
		const m = ljpMetrics([
			{ gold: v(0, 2), predicted: v(0, 0) },
			{ gold: v(1), predicted: v(1) }
		]);
		expect(m.n_claims).toBe(3);
		expect(m.accuracy).toBeCloseTo(2 / 3, 12);
	});

	it('gives undefined accuracy and QWK, not 0 or NaN, with no claims', () => {
		expect(ljpMetrics([])).toEqual({ qwk: null, accuracy: null, n_claims: 0 });
	});
});

/**
 * Cohen's weighted kappa from its pairwise definition: observed disagreement is the mean weight
 * over the n (gold, predicted) pairs; expected disagreement is the mean weight over all n²
 * pairings of a gold label with a predicted label. No matrices, no marginals.
 */
function pairwiseQwk(gold: number[], pred: number[]): number | null {
	const n = gold.length;
	if (n === 0) return null;
	const w = (a: number, b: number) => ((a - b) / 2) ** 2;
	const observed = gold.reduce((s, g, i) => s + w(g, pred[i]), 0) / n;
	let expected = 0;
	for (const g of gold) for (const p of pred) expected += w(g, p);
	expected /= n * n;
	return expected === 0 ? null : 1 - observed / expected;
}

describe('ljpMetrics against an independent pairwise kappa', () => {
	const pair = fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }));

	it('agrees to 1e-9 on random verdict sets, and lies in [−1, 1]', () => {
		fc.assert(
			fc.property(
				fc.array(fc.array(pair, { minLength: 1, maxLength: 5 }), { maxLength: 40 }),
				(cases) => {
					const records = cases.map((claims) => ({
						gold: claims.map(([g]) => VERDICTS[g]),
						predicted: claims.map(([, p]) => VERDICTS[p])
					}));
					const flat = cases.flat();
					const m = ljpMetrics(records);
					const ref = pairwiseQwk(
						flat.map(([g]) => g),
						flat.map(([, p]) => p)
					);
					if (ref === null) expect(m.qwk).toBeNull();
					else {
						expect(Math.abs(m.qwk! - ref)).toBeLessThan(1e-9);
						expect(m.qwk!).toBeGreaterThanOrEqual(-1 - 1e-12);
						expect(m.qwk!).toBeLessThanOrEqual(1 + 1e-12);
					}
					const correct = flat.filter(([g, p]) => g === p).length;
					expect(m.accuracy).toEqual(flat.length ? correct / flat.length : null);
					expect(m.n_claims).toBe(flat.length);
				}
			)
		);
	});

	it('is symmetric in gold and predicted', () => {
		fc.assert(
			fc.property(fc.array(pair, { maxLength: 30 }), (pairs) => {
				const a = quadraticWeightedKappa(
					pairs.map(([g]) => VERDICTS[g]),
					pairs.map(([, p]) => VERDICTS[p])
				);
				const b = quadraticWeightedKappa(
					pairs.map(([, p]) => VERDICTS[p]),
					pairs.map(([g]) => VERDICTS[g])
				);
				if (a === null) expect(b).toBeNull();
				else expect(Math.abs(a - b!)).toBeLessThan(1e-12);
			})
		);
	});
});
