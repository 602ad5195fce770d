import { describe, expect, it } from 'vitest';
import {
	correctedEstimate,
	correctedRate,
	errorRates,
	judgeErrorRates,
	roganGladen
} from './corrected';
import type { LabelPair } from './kappa';

/** `[judge, person]` pairs: `pos` person-positive of which `tp` judged +, `neg` of which `tn` judged −. */
function reviewed(pos: number, tp: number, neg: number, tn: number): LabelPair[] {
	const out: LabelPair[] = [];
	for (let i = 0; i < pos; i++) out.push([i < tp ? '是' : '否', '是']);
	for (let i = 0; i < neg; i++) out.push([i < tn ? '否' : '是', '否']);
	return out;
}

describe('roganGladen', () => {
	it('recovers the true rate from the apparent one a known judge would give', () => {
		// Truth 0.3, Se 0.9, Sp 0.8: the judge says + for 0.3·0.9 + 0.7·0.2 = 0.41.
		expect(roganGladen(0.41, { sensitivity: 0.9, specificity: 0.8 })).toBeCloseTo(0.3, 12);
	});

	it('leaves the rate alone for a perfect judge, clips to [0, 1], refuses a judge at chance', () => {
		expect(roganGladen(0.37, { sensitivity: 1, specificity: 1 })).toBeCloseTo(0.37, 12);
		expect(roganGladen(0.05, { sensitivity: 0.9, specificity: 0.8 })).toBe(0);
		expect(roganGladen(0.99, { sensitivity: 0.9, specificity: 0.95 })).toBe(1);
		expect(roganGladen(0.5, { sensitivity: 0.5, specificity: 0.5 })).toBeNull();
	});
});

describe('correctedRate', () => {
	it('measures Se and Sp on the reviewed decisions, the person taken as truth', () => {
		expect(errorRates(reviewed(10, 9, 10, 8), '是')).toEqual({
			sensitivity: 0.9,
			specificity: 0.8
		});
		expect(errorRates(reviewed(0, 0, 10, 8), '是')).toBeNull();
	});

	it('corrects the run rate and gives an interval around it', () => {
		const c = correctedRate(0.41, reviewed(20, 18, 20, 16), '是', { resamples: 500 });
		expect(c.status).toBe('ok');
		expect(c.value).toBeCloseTo(0.3, 12);
		expect(c.n_reviewed).toBe(40);
		const [low, high] = c.ci95!;
		expect(low).toBeLessThan(0.3);
		expect(high).toBeGreaterThan(0.3);
		expect(correctedRate(0.41, reviewed(20, 18, 20, 16), '是', { resamples: 500 }).ci95).toEqual(
			c.ci95
		);
	});

	it('says too small below 10 reviews or 3 of either side, and at chance for a useless judge', () => {
		expect(correctedRate(0.4, reviewed(5, 5, 4, 4), '是').status).toBe('too_small');
		expect(correctedRate(0.4, reviewed(2, 2, 20, 20), '是').status).toBe('too_small');
		const chance = correctedRate(0.4, reviewed(10, 5, 10, 5), '是');
		expect(chance).toMatchObject({ status: 'at_chance', value: null, ci95: null });
	});

	it('applies any estimate of the error rates (here two corrected rates at once)', () => {
		const both = correctedEstimate(reviewed(10, 9, 10, 8), '是', (r) => {
			const a = roganGladen(0.41, r);
			const b = roganGladen(0.9 * 0.5 + 0.2 * 0.5, r);
			return a === null || b === null ? null : a + b;
		});
		expect(both.value).toBeCloseTo(0.8, 12);
	});
});

describe('judgeErrorRates (issue 33, item 11)', () => {
	it('gives Se and Sp with Wilson intervals, the rates the correction applies', () => {
		const pairs = reviewed(12, 9, 8, 8);
		const found = judgeErrorRates(pairs, '是');
		expect(found.sensitivity).toMatchObject({ value: 0.75, n: 12 });
		expect(found.specificity).toMatchObject({ value: 1, n: 8 });
		expect(errorRates(pairs, '是')).toEqual({ sensitivity: 0.75, specificity: 1 });
		// Wilson at 8 of 8: [n / (n + z²), 1], z = 1.959964.
		expect(found.specificity.ci95![0]).toBeCloseTo(8 / (8 + 1.959964 ** 2), 6);
		expect(found.specificity.ci95![1]).toBe(1);
		// 9 of 12 by the closed form (centre ± half) / (1 + z²/n).
		const z2 = 1.959963984540054 ** 2;
		const centre = (0.75 + z2 / 24) / (1 + z2 / 12);
		const half = (Math.sqrt(z2) * Math.sqrt((0.75 * 0.25) / 12 + z2 / 576)) / (1 + z2 / 12);
		expect(found.sensitivity.ci95![0]).toBeCloseTo(centre - half, 12);
		expect(found.sensitivity.ci95![1]).toBeCloseTo(centre + half, 12);
	});

	it('has no rate for a side the reviewer never labelled', () => {
		expect(judgeErrorRates(reviewed(0, 0, 4, 3), '是').sensitivity).toEqual({
			value: null,
			n: 0,
			ci95: null
		});
	});
});
