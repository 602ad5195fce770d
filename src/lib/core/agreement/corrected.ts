/**
 * A judged rate corrected by the judge's error rates measured on a reviewed sample (README.md,
 * "Corrected estimates"). For a binary label the person's label is taken as the truth: the
 * judge's sensitivity Se = P(judge + | person +) and specificity Sp = P(judge − | person −) come
 * from the reviewed decisions, and an apparent rate q of the run becomes
 * (q + Sp − 1) / (Se + Sp − 1), clipped to [0, 1] (Rogan & Gladen 1978). The interval resamples
 * the reviewed decisions, so it carries the sample's uncertainty, not the run's.
 */
import { bootstrapSettings, definedSorted, percentileInterval } from '../metrics/bootstrap';
import type { BootstrapOptions, Interval } from '../metrics/bootstrap';
import { wilson } from '../metrics/kernel';
import { Prng, scopeSeed } from '../metrics/prng';
import { MIN_RATED, type LabelPair } from './kappa';

/**
 * Reviewed decisions the person labelled positive, and negative, needed at least: below it Se
 * or Sp rests on a handful of decisions and the correction says "too small to say".
 */
export const MIN_PER_SIDE = 3;

/** The judge's error rates on a reviewed sample (person = truth). */
export interface ErrorRates {
	sensitivity: number;
	specificity: number;
}

/** Why a corrected value is missing: too few reviews, or a judge no better than chance. */
export type CorrectionStatus = 'ok' | 'too_small' | 'at_chance';

/** A corrected estimate, its interval over the reviewed decisions, and why it may be missing. */
export interface Corrected {
	/** null unless status is `ok`. */
	value: number | null;
	ci95: Interval;
	status: CorrectionStatus;
	/** Reviewed decisions the correction rests on. */
	n_reviewed: number;
}

/** The Rogan–Gladen rate, clipped to [0, 1]; null when Se + Sp ≤ 1 (a judge at or below chance). */
export function roganGladen(
	apparent: number,
	{ sensitivity, specificity }: ErrorRates
): number | null {
	const youden = sensitivity + specificity - 1;
	if (youden <= 0) return null;
	return Math.min(1, Math.max(0, (apparent + specificity - 1) / youden));
}

/** The reviewed decisions behind Se and Sp: person +, of them judge +; person −, of them judge −. */
function errorCounts(pairs: readonly LabelPair[], positive: string) {
	let pos = 0;
	let truePos = 0;
	let neg = 0;
	let trueNeg = 0;
	for (const [judge, person] of pairs) {
		if (person === positive) {
			pos++;
			if (judge === positive) truePos++;
		} else {
			neg++;
			if (judge !== positive) trueNeg++;
		}
	}
	return { pos, truePos, neg, trueNeg };
}

/** Se and Sp of `pairs` (`[judge, person]`); null when either side has no decision. */
export function errorRates(pairs: readonly LabelPair[], positive: string): ErrorRates | null {
	const { pos, truePos, neg, trueNeg } = errorCounts(pairs, positive);
	if (pos === 0 || neg === 0) return null;
	return { sensitivity: truePos / pos, specificity: trueNeg / neg };
}

/** A share of reviewed decisions with Wilson's 95% score interval over them. */
export interface ReviewedShare {
	/** null when no decision is on that side. */
	value: number | null;
	/** The decisions the share is of (the person's positives, or negatives). */
	n: number;
	ci95: Interval;
}

/**
 * The judge's error rates on the reviewed `pairs` as a reader sees them: sensitivity (of the
 * decisions the person labelled `positive`, the share the judge did too) and specificity, each
 * with Wilson's score interval over its own decisions (`metrics/kernel.ts`), which neither
 * collapses at 0 or 1 nor needs resampling. The same counts as `errorRates`, which the
 * corrections use.
 */
export function judgeErrorRates(
	pairs: readonly LabelPair[],
	positive: string
): { positive: string; sensitivity: ReviewedShare; specificity: ReviewedShare } {
	const { pos, truePos, neg, trueNeg } = errorCounts(pairs, positive);
	const of = (hit: number, n: number): ReviewedShare =>
		n === 0 ? { value: null, n, ci95: null } : { value: hit / n, n, ci95: wilson(hit / n, n) };
	return { positive, sensitivity: of(truePos, pos), specificity: of(trueNeg, neg) };
}

/**
 * Any estimate `estimate(rates)` built from the judge's error rates (one apparent rate through
 * `roganGladen`, or several, as LCA's macro-F1 needs), corrected by the reviewed `pairs`
 * (`[judge, person]`, `positive` the label counted as +).
 */
export function correctedEstimate(
	pairs: readonly LabelPair[],
	positive: string,
	estimate: (rates: ErrorRates) => number | null,
	options: BootstrapOptions & { scope?: string } = {}
): Corrected {
	const n_reviewed = pairs.length;
	const pos = pairs.filter(([, person]) => person === positive).length;
	if (n_reviewed < MIN_RATED || pos < MIN_PER_SIDE || n_reviewed - pos < MIN_PER_SIDE) {
		return { value: null, ci95: null, status: 'too_small', n_reviewed };
	}
	const value = estimate(errorRates(pairs, positive)!);
	if (value === null) return { value: null, ci95: null, status: 'at_chance', n_reviewed };
	const ci95 = reviewedInterval(
		pairs,
		(drawn) => {
			const rates = errorRates(drawn, positive);
			return rates === null ? null : estimate(rates);
		},
		options
	);
	return { value, ci95, status: 'ok', n_reviewed };
}

/**
 * The 95% percentile interval of `figure` over bootstrap resamples of the reviewed `pairs` (the
 * sample's uncertainty only); null when too few resamples define it. Every corrected estimate
 * (Rogan–Gladen here, the LJP matrix method in corrected-ljp.ts) takes its interval from here.
 */
export function reviewedInterval(
	pairs: readonly LabelPair[],
	figure: (drawn: readonly LabelPair[]) => number | null,
	options: BootstrapOptions & { scope?: string }
): Interval | null {
	const n = pairs.length;
	const { resamples, seed } = bootstrapSettings(options);
	const rng = new Prng(scopeSeed(seed, options.scope ?? ''));
	const values = new Float64Array(resamples);
	const drawn: LabelPair[] = new Array(n);
	for (let r = 0; r < resamples; r++) {
		for (let j = 0; j < n; j++) drawn[j] = pairs[rng.below(n)];
		values[r] = figure(drawn) ?? NaN;
	}
	const sorted = definedSorted(values, 0, resamples, 1);
	return sorted && percentileInterval(sorted);
}

/** `correctedEstimate` of one apparent rate of the judge's positive label in the run. */
export function correctedRate(
	apparent: number,
	pairs: readonly LabelPair[],
	positive: string,
	options: BootstrapOptions & { scope?: string } = {}
): Corrected {
	return correctedEstimate(pairs, positive, (rates) => roganGladen(apparent, rates), options);
}
