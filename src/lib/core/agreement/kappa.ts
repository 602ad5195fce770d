/**
 * Agreement of two raters on one fixed label set: the confusion matrix, the agreement rate,
 * Cohen's κ and its percentile-bootstrap 95% interval over the rated items (README.md). The
 * raters are a judge and a person, two people, or two judges; the module does not care which.
 */
import { MIN_DEFINED_SHARE, bootstrapSettings, percentileInterval } from '../metrics/bootstrap';
import type { BootstrapOptions, Interval } from '../metrics/bootstrap';
import { orNull, qwk, rate as share } from '../metrics/kernel';
import { Prng, scopeSeed } from '../metrics/prng';

export type { BootstrapOptions, Interval };

/**
 * Fewer rated items than this get no interval, and a corrected estimate says "too small to
 * say": the same rule and reason as the metrics' MIN_CASES (a handful of items makes the
 * bootstrap far too sure of itself).
 */
export const MIN_RATED = 10;

/** One item rated by both: `[first rater's label, second rater's label]`. */
export type LabelPair = readonly [first: string, second: string];

/** What two raters' labels of the same items say about their agreement. */
export interface Agreement {
	/** The label set, in the order of the matrix rows and columns. */
	labels: readonly string[];
	/** Items rated by both. */
	n: number;
	/** Items given the same label. */
	agreed: number;
	/** agreed / n; null when n = 0. */
	rate: number | null;
	/** Cohen's κ; null when n = 0 or when both raters used one and the same label throughout. */
	kappa: number | null;
	/** Percentile bootstrap 95% interval of κ over the items; null below MIN_RATED items. */
	ci95: Interval;
	/**
	 * Gwet's AC1: agreement beyond a chance term that stays small when one label dominates, so
	 * it does not collapse as κ does on skewed labels (README.md). Null when n = 0.
	 */
	ac1: number | null;
	/**
	 * Per label, in `labels` order, the specific agreement 2·n_ii / (row_i + column_i): of the
	 * items either rater gave that label, the share both gave it. Null for a label neither used.
	 */
	per_label: (number | null)[];
	/**
	 * Only for ordinal labels (the LJP verdicts): quadratic-weighted κ, from the kernel's one QWK
	 * (`metrics/kernel.ts`); null when undefined there.
	 */
	qwk?: number | null;
	/** `confusion[a][b]`: items the first rater labelled `labels[a]` and the second `labels[b]`. */
	confusion: number[][];
}

/** The first×second count matrix of `pairs`; a label outside `labels` is a RangeError naming the pair. */
export function confusionMatrix(
	pairs: readonly LabelPair[],
	labels: readonly string[]
): number[][] {
	const m = labels.map(() => labels.map(() => 0));
	pairs.forEach(([a, b], i) => {
		const r = labels.indexOf(a);
		const c = labels.indexOf(b);
		if (r < 0 || c < 0) throw new RangeError(`pair ${i}: label outside ${labels.join('/')}`);
		m[r][c]++;
	});
	return m;
}

/**
 * Cohen's κ = (p_o − p_e) / (1 − p_e) of a square count matrix, p_o the observed and p_e the
 * chance agreement from the two marginals. A constant first rater against a varied second gives
 * exactly 0; null when there are no items or p_e = 1 (both constant on the same label).
 */
export function cohenKappa(confusion: readonly (readonly number[])[]): number | null {
	const k = confusion.length;
	let n = 0;
	let agreed = 0;
	const rows = new Array<number>(k).fill(0);
	const cols = new Array<number>(k).fill(0);
	for (let a = 0; a < k; a++) {
		for (let b = 0; b < k; b++) {
			const v = confusion[a][b];
			n += v;
			rows[a] += v;
			cols[b] += v;
			if (a === b) agreed += v;
		}
	}
	if (n === 0) return null;
	let pe = 0;
	for (let a = 0; a < k; a++) pe += (rows[a] / n) * (cols[a] / n);
	if (pe >= 1 - 1e-12) return null;
	return (agreed / n - pe) / (1 - pe);
}

/**
 * Gwet's AC1 (Gwet 2008) of a square count matrix: (p_o − p_e) / (1 − p_e) with the chance term
 * p_e = Σ π_k (1 − π_k) / (K − 1), π_k the mean of the two raters' shares of label k. Where one
 * label dominates, κ's p_e nears p_o and κ falls towards 0 at high agreement (the kappa paradox);
 * AC1's p_e stays small there. Null without items or with fewer than two labels.
 */
export function gwetAc1(confusion: readonly (readonly number[])[]): number | null {
	const k = confusion.length;
	if (k < 2) return null;
	let n = 0;
	let agreed = 0;
	const both = new Array<number>(k).fill(0);
	for (let a = 0; a < k; a++) {
		for (let b = 0; b < k; b++) {
			const v = confusion[a][b];
			n += v;
			both[a] += v;
			both[b] += v;
			if (a === b) agreed += v;
		}
	}
	if (n === 0) return null;
	let pe = 0;
	for (const c of both) {
		const pi = c / (2 * n);
		pe += pi * (1 - pi);
	}
	pe /= k - 1;
	return (agreed / n - pe) / (1 - pe);
}

/** Specific agreement of each label, 2·n_ii / (row_i + column_i); null for a label neither used. */
export function perLabelAgreement(confusion: readonly (readonly number[])[]): (number | null)[] {
	return confusion.map((row, i) => {
		const used = row.reduce((a, v) => a + v, 0) + confusion.reduce((a, r) => a + r[i], 0);
		return orNull(share(2 * row[i], used));
	});
}

/**
 * Agreement of two raters over `pairs`. The interval resamples the items (with replacement, as
 * many as there are) `resamples` times from a stream seeded by `seed` and `scope`, so it
 * reproduces exactly; resamples where κ is undefined are left out, and with fewer than half
 * defined the interval is null (as for the metrics' intervals).
 */
export function agreement(
	pairs: readonly LabelPair[],
	labels: readonly string[],
	options: BootstrapOptions & { scope?: string; ordinal?: boolean } = {}
): Agreement {
	const confusion = confusionMatrix(pairs, labels);
	const n = pairs.length;
	const agreed = confusion.reduce((sum, row, a) => sum + row[a], 0);
	const kappa = cohenKappa(confusion);
	return {
		labels,
		n,
		agreed,
		rate: orNull(share(agreed, n)),
		kappa,
		ci95: kappa === null || n < MIN_RATED ? null : kappaInterval(pairs, labels, options),
		ac1: gwetAc1(confusion),
		per_label: perLabelAgreement(confusion),
		// The kernel's QWK reads a 3 × 3 block in the verdicts' order, rows the first rater.
		...(options.ordinal && labels.length === 3 ? { qwk: orNull(qwk(confusion.flat())) } : {}),
		confusion
	};
}

function kappaInterval(
	pairs: readonly LabelPair[],
	labels: readonly string[],
	options: BootstrapOptions & { scope?: string }
): Interval {
	const { resamples, seed } = bootstrapSettings(options);
	const rng = new Prng(scopeSeed(seed, options.scope ?? ''));
	const k = labels.length;
	const cells = pairs.map(([a, b]) => labels.indexOf(a) * k + labels.indexOf(b));
	const values = new Float64Array(resamples);
	let defined = 0;
	const m = labels.map(() => new Array<number>(k).fill(0));
	for (let r = 0; r < resamples; r++) {
		for (const row of m) row.fill(0);
		for (let j = 0; j < cells.length; j++) {
			const cell = cells[rng.below(cells.length)];
			m[Math.floor(cell / k)][cell % k]++;
		}
		const v = cohenKappa(m);
		if (v !== null) values[defined++] = v;
	}
	if (defined === 0 || defined < MIN_DEFINED_SHARE * resamples) return null;
	return percentileInterval(values.subarray(0, defined).sort());
}
