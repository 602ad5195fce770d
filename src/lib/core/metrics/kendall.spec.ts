import { describe, expect, it } from 'vitest';
import { buildCaseTable, type CaseTable } from './case-table';
import { kendallTauB, rankStability } from './kendall';
import { RATE_SLOTS } from './kernel';

const SUCCESS = RATE_SLOTS.findIndex(([stage, rate]) => stage === 'dcg' && rate === 'success_rate');

/** A run of `n` cases whose first `successes` cases have a DCG success. */
function dcgTable(n: number, successes: number): CaseTable {
	const selected = Array.from({ length: n }, (_, i) => `C${i}`);
	const DCG_results = selected.map((case_number, i) => ({
		case_number,
		cause_of_action: '合同纠纷',
		round_labels: (i < successes ? ['是', '否'] : ['否', '否']) as ['是' | '否', '是' | '否']
	}));
	const scored = { lca: false, dcg: true, ljp: { direct: false, gold: false, interaction: false } };
	return buildCaseTable(selected, { DCG_results }, {}, scored);
}

describe('kendallTauB', () => {
	it.each([
		// Checked against scipy.stats.kendalltau (τ-b).
		{ x: [1, 2, 3, 4], y: [1, 2, 3, 4], tau: 1 },
		{ x: [1, 2, 3, 4], y: [4, 3, 2, 1], tau: -1 },
		{ x: [1, 2, 3, 4, 5], y: [3, 1, 2, 5, 4], tau: 0.4 },
		{ x: [1, 2, 2, 3], y: [1, 3, 2, 4], tau: 5 / Math.sqrt(30) }
	])('τ-b of $x and $y is $tau', ({ x, y, tau }) => {
		expect(kendallTauB(x, y)).toBeCloseTo(tau, 12);
	});

	it('is undefined with fewer than two values or one value throughout', () => {
		expect(kendallTauB([1], [2])).toBeNull();
		expect(kendallTauB([1, 1, 1], [1, 2, 3])).toBeNull();
	});
});

describe('rankStability', () => {
	const models = [
		{ model: 'm1', a: dcgTable(12, 10), b: dcgTable(12, 6) },
		{ model: 'm2', a: dcgTable(12, 7), b: dcgTable(12, 9) },
		{ model: 'm3', a: dcgTable(12, 2), b: dcgTable(12, 1) }
	];

	it('gives τ of the scores, the models that swap places, and a reproducible interval', () => {
		const r = rankStability(models, SUCCESS, { resamples: 500, seed: 7 });
		expect(r.scores.map((s) => [s.model, s.a, s.b])).toEqual([
			['m1', 10 / 12, 6 / 12],
			['m2', 7 / 12, 9 / 12],
			['m3', 2 / 12, 1 / 12]
		]);
		expect(r.tau).toBeCloseTo(1 / 3, 12);
		expect(r.swaps).toEqual([['m1', 'm2']]);
		expect(r.ci95).not.toBeNull();
		const [low, high] = r.ci95!;
		expect(low).toBeGreaterThanOrEqual(-1);
		expect(high).toBeLessThanOrEqual(1);
		expect(low).toBeLessThanOrEqual(r.tau!);
		expect(rankStability(models, SUCCESS, { resamples: 500, seed: 7 }).ci95).toEqual(r.ci95);
	});

	it('gives no interval under ten cases, and refuses runs of other cases', () => {
		const few = models.map((m) => ({ ...m, a: dcgTable(9, 3), b: dcgTable(9, 4) }));
		expect(rankStability(few, SUCCESS).ci95).toBeNull();
		expect(() => rankStability([models[0], few[1]], SUCCESS)).toThrow(RangeError);
	});
});
