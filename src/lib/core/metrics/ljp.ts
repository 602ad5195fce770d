/** LJP (PROTOCOL.md §7): claim-level agreement between predicted and gold verdicts. */
import type { Verdict } from '../dataset/types';
import type { LjpResultRecord } from '../records';
import { accuracy, orNull, qwk } from './kernel';
import type { LjpMetrics } from './types';

const ORDINAL: Record<Verdict, number> = { 支持: 0, 部分支持: 1, 驳回: 2 };

/** The 3 × 3 gold × predicted claim counts (row-major, gold rows) of two verdict lists. */
function verdictTable(gold: readonly Verdict[], predicted: readonly Verdict[]): number[] {
	if (gold.length !== predicted.length) {
		throw new RangeError(`gold has ${gold.length} verdicts but predicted has ${predicted.length}`);
	}
	const cells = new Array<number>(9).fill(0);
	gold.forEach((g, i) => cells[ORDINAL[g] * 3 + ORDINAL[predicted[i]]]++);
	return cells;
}

/**
 * Quadratic weighted kappa with the fixed labels 支持=0, 部分支持=1, 驳回=2 (the kernel's `qwk`).
 * Null when there are no pairs or the expected disagreement is zero (gold and predicted both
 * one and the same label).
 */
export function quadraticWeightedKappa(
	gold: readonly Verdict[],
	predicted: readonly Verdict[]
): number | null {
	return orNull(qwk(verdictTable(gold, predicted)));
}

type LjpJudged = Pick<LjpResultRecord, 'predicted' | 'gold'>;

/** LJP metrics over the claims of a set of records (one setup of a run, or one class of it). */
export function ljpMetrics(records: readonly LjpJudged[]): LjpMetrics {
	const cells = verdictTable(
		records.flatMap((r) => r.gold),
		records.flatMap((r) => r.predicted)
	);
	return {
		qwk: orNull(qwk(cells)),
		accuracy: orNull(accuracy(cells)),
		n_claims: cells.reduce((a, b) => a + b, 0)
	};
}
