/** LJP (PROTOCOL.md §7): claim-level agreement between predicted and gold verdicts. */
import { VERDICTS } from '../dataset/names';
import type { Verdict } from '../dataset/types';
import type { LjpResultRecord } from '../records';
import { ratio } from './ratio';
import type { LjpMetrics } from './types';

const ORDINAL: Record<Verdict, number> = { 支持: 0, 部分支持: 1, 驳回: 2 };
const K = VERDICTS.length;
/** Quadratic weights scaled so the largest disagreement (支持 vs 驳回) weighs 1. */
const MAX_DISTANCE_SQ = (K - 1) ** 2;

/**
 * Quadratic weighted kappa with the fixed labels 支持=0, 部分支持=1, 驳回=2, whether or not
 * each label occurs. QWK = 1 − Σ w·O / Σ w·E with w = (i−j)²/4, O the observed gold × predicted
 * counts and E the outer product of their marginals over the total. Null when there are no
 * pairs or the expected disagreement is zero (gold and predicted both one and the same label).
 */
export function quadraticWeightedKappa(
	gold: readonly Verdict[],
	predicted: readonly Verdict[]
): number | null {
	if (gold.length !== predicted.length) {
		throw new RangeError(`gold has ${gold.length} verdicts but predicted has ${predicted.length}`);
	}
	const total = gold.length;
	if (total === 0) return null;
	const observed = Array.from({ length: K }, () => new Array<number>(K).fill(0));
	const goldMarginal = new Array<number>(K).fill(0);
	const predMarginal = new Array<number>(K).fill(0);
	gold.forEach((g, i) => {
		const a = ORDINAL[g];
		const b = ORDINAL[predicted[i]];
		observed[a][b]++;
		goldMarginal[a]++;
		predMarginal[b]++;
	});
	let weightedObserved = 0;
	let weightedExpected = 0;
	for (let i = 0; i < K; i++) {
		for (let j = 0; j < K; j++) {
			const w = (i - j) ** 2 / MAX_DISTANCE_SQ;
			weightedObserved += w * observed[i][j];
			weightedExpected += (w * goldMarginal[i] * predMarginal[j]) / total;
		}
	}
	// Integer counts make an exact zero reliable here; no epsilon is needed.
	return weightedExpected === 0 ? null : 1 - weightedObserved / weightedExpected;
}

type LjpJudged = Pick<LjpResultRecord, 'predicted' | 'gold'>;

/** LJP metrics over the claims of a set of records (one setup of a run, or one class of it). */
export function ljpMetrics(records: readonly LjpJudged[]): LjpMetrics {
	const gold = records.flatMap((r) => r.gold);
	const predicted = records.flatMap((r) => r.predicted);
	const correct = gold.filter((g, i) => g === predicted[i]).length;
	return {
		qwk: quadraticWeightedKappa(gold, predicted),
		accuracy: ratio(correct, gold.length),
		n_claims: gold.length
	};
}
