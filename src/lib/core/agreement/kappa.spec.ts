import { describe, expect, it } from 'vitest';
import { MIN_RATED, agreement, cohenKappa, confusionMatrix, type LabelPair } from './kappa';

const YN = ['yes', 'no'];

/** Pairs from a 2×2 table [[yy, yn], [ny, nn]] (first rater's label first). */
function pairsOf([[yy, yn], [ny, nn]]: number[][], times = 1): LabelPair[] {
	const out: LabelPair[] = [];
	const add = (count: number, pair: LabelPair) => {
		for (let i = 0; i < count * times; i++) out.push(pair);
	};
	add(yy, ['yes', 'yes']);
	add(yn, ['yes', 'no']);
	add(ny, ['no', 'yes']);
	add(nn, ['no', 'no']);
	return out;
}

/** κ of a 2×2 table by the closed form 2(ad − bc) / ((a+b)(b+d) + (a+c)(c+d)). */
function kappa2x2([[a, b], [c, d]]: number[][]): number {
	return (2 * (a * d - b * c)) / ((a + b) * (b + d) + (a + c) * (c + d));
}

describe('cohenKappa', () => {
	// Textbook tables (Cohen 1960 as worked in most texts; the last two are Wikipedia's pair that
	// show κ depends on the marginals at the same 60% agreement).
	it.each([
		[
			[
				[20, 5],
				[10, 15]
			],
			0.4
		],
		[
			[
				[45, 15],
				[25, 15]
			],
			0.1304
		],
		[
			[
				[25, 35],
				[5, 35]
			],
			0.2593
		]
	])('table %j gives κ ≈ %f, as the closed form does', (table, expected) => {
		expect(cohenKappa(table)).toBeCloseTo(expected, 4);
		expect(cohenKappa(table)).toBeCloseTo(kappa2x2(table), 12);
	});

	it('is 1 for perfect agreement over varied labels', () => {
		expect(
			cohenKappa([
				[7, 0, 0],
				[0, 3, 0],
				[0, 0, 5]
			])
		).toBe(1);
	});

	it('is exactly 0 for a constant first rater against a varied second', () => {
		expect(
			cohenKappa([
				[12, 8],
				[0, 0]
			])
		).toBe(0);
	});

	it('is null when both raters use one same label throughout, and with no items', () => {
		expect(
			cohenKappa([
				[9, 0],
				[0, 0]
			])
		).toBeNull();
		expect(
			cohenKappa([
				[0, 0],
				[0, 0]
			])
		).toBeNull();
	});

	it('matches p_o and p_e computed by hand on a 3×3 table', () => {
		const m = [
			[10, 2, 1],
			[3, 8, 2],
			[0, 1, 6]
		];
		const n = 33;
		const po = 24 / n;
		const pe = (13 * 13 + 13 * 11 + 7 * 9) / (n * n);
		expect(cohenKappa(m)).toBeCloseTo((po - pe) / (1 - pe), 12);
	});
});

describe('agreement', () => {
	it('counts the confusion matrix, agreement and rate', () => {
		const a = agreement(
			pairsOf([
				[20, 5],
				[10, 15]
			]),
			YN
		);
		expect(a.confusion).toEqual([
			[20, 5],
			[10, 15]
		]);
		expect(a).toMatchObject({ n: 50, agreed: 35, rate: 0.7 });
		expect(a.kappa).toBeCloseTo(0.4, 12);
	});

	it('refuses a label outside the set, naming the pair', () => {
		expect(() =>
			confusionMatrix(
				[
					['yes', 'yes'],
					['yes', 'maybe']
				],
				YN
			)
		).toThrow(/pair 1/);
	});

	it('gives no interval below MIN_RATED items, and an empty sample no rate', () => {
		const small = pairsOf([
			[4, 1],
			[1, 3]
		]);
		expect(small.length).toBeLessThan(MIN_RATED);
		expect(agreement(small, YN).ci95).toBeNull();
		expect(agreement([], YN)).toMatchObject({ n: 0, rate: null, kappa: null, ci95: null });
	});

	it('reproduces its interval from the seed, and another seed moves it', () => {
		const pairs = pairsOf([
			[20, 5],
			[10, 15]
		]);
		const a = agreement(pairs, YN, { seed: 7, resamples: 500 });
		expect(agreement(pairs, YN, { seed: 7, resamples: 500 }).ci95).toEqual(a.ci95);
		expect(agreement(pairs, YN, { seed: 8, resamples: 500 }).ci95).not.toEqual(a.ci95);
	});

	it('has an interval about as wide as the large-sample standard error says', () => {
		// n = 500: SE(κ) ≈ sqrt(p_o (1 − p_o) / (n (1 − p_e)²)) (Cohen 1960), 0.7 and 0.5 here.
		const pairs = pairsOf(
			[
				[20, 5],
				[10, 15]
			],
			10
		);
		const { ci95, kappa } = agreement(pairs, YN, { resamples: 2000 });
		const se = Math.sqrt((0.7 * 0.3) / (500 * 0.25));
		expect(ci95).not.toBeNull();
		const [low, high] = ci95!;
		expect(low).toBeLessThan(kappa!);
		expect(high).toBeGreaterThan(kappa!);
		expect((high - low) / (2 * 1.96 * se)).toBeGreaterThan(0.85);
		expect((high - low) / (2 * 1.96 * se)).toBeLessThan(1.15);
	});

	it('has no interval when κ itself is undefined', () => {
		const constant = pairsOf([
			[30, 0],
			[0, 0]
		]);
		expect(agreement(constant, YN)).toMatchObject({ rate: 1, kappa: null, ci95: null });
	});
});
