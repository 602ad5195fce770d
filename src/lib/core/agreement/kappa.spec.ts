import { describe, expect, it } from 'vitest';
import {
	MIN_RATED,
	agreement,
	cohenKappa,
	confusionMatrix,
	gwetAc1,
	perLabelAgreement,
	type LabelPair
} from './kappa';

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

describe('figures beside κ (issue 33, item 11)', () => {
	// Wongpakaran et al. (2013), Table 2's skewed pair: 118 yes/yes, 5 yes/no, 2 no/yes, 0 no/no.
	const skewed = [
		[118, 5],
		[2, 0]
	];

	it("gives Gwet's AC1 as computed by hand where κ collapses on skewed labels", () => {
		// By hand: p_o = 118/125 = 0.944; π_yes = (123 + 120)/250 = 0.972;
		// p_e = 2 · 0.972 · 0.028 = 0.054432; AC1 = (0.944 − 0.054432)/(1 − 0.054432) = 0.940775…
		const ac1 = (0.944 - 0.054432) / (1 - 0.054432);
		const found = agreement(pairsOf(skewed), YN, { resamples: 50 });
		expect(found.ac1).toBeCloseTo(ac1, 12);
		expect(found.ac1).toBeCloseTo(0.9408, 4);
		expect(found.kappa).toBeCloseTo(kappa2x2(skewed), 12);
		expect(found.kappa!).toBeLessThan(0);
	});

	it("gives AC1 over three labels from Gwet's formula, p_e = Σ π(1 − π) / (K − 1)", () => {
		const table = [
			[7, 1, 0],
			[2, 3, 1],
			[0, 1, 5]
		];
		// n = 20, p_o = 15/20; row sums 8, 6, 6; column sums 9, 5, 6; π = 17/40, 11/40, 12/40.
		const pi = [17 / 40, 11 / 40, 12 / 40];
		const pe = pi.reduce((a, p) => a + p * (1 - p), 0) / 2;
		expect(gwetAc1(table)).toBeCloseTo((0.75 - pe) / (1 - pe), 12);
		expect(
			gwetAc1([
				[0, 0],
				[0, 0]
			])
		).toBeNull();
	});

	it('gives each label its specific agreement, null for a label neither rater used', () => {
		// yes: 2·118 / (123 + 120); no: 2·0 / (2 + 5).
		const found = agreement(pairsOf(skewed), YN, { resamples: 50 });
		expect(found.per_label[0]).toBeCloseTo(236 / 243, 12);
		expect(found.per_label[1]).toBe(0);
		expect(
			perLabelAgreement([
				[3, 0],
				[0, 0]
			])
		).toEqual([1, null]);
	});

	it('gives quadratic-weighted κ for ordinal labels only, from the kernel', () => {
		const V = ['支持', '部分支持', '驳回'];
		const pairs: LabelPair[] = [
			...Array.from({ length: 6 }, (): LabelPair => ['支持', '支持']),
			['支持', '部分支持'],
			['部分支持', '部分支持'],
			['部分支持', '驳回'],
			['驳回', '驳回'],
			['驳回', '支持']
		];
		const ordinal = agreement(pairs, V, { resamples: 50, ordinal: true });
		// By hand: O = [[6,1,0],[0,1,1],[1,0,1]]; rows 7,2,2, columns 7,2,2, N = 11;
		// Σ w·O = (1 + 1)/4 + 4/4 = 1.5; Σ w·E = [(14 + 14 + 4 + 4)/4 + (14 + 14)]/11 = 37/11.
		expect(ordinal.qwk).toBeCloseTo(1 - 1.5 / (37 / 11), 12);
		expect(ordinal.qwk).not.toBeCloseTo(ordinal.kappa!, 3);
		expect(agreement(pairs, V, { resamples: 50 })).not.toHaveProperty('qwk');
	});
});
