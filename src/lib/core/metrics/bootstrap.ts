/**
 * The one resampling engine (`Resampler`) and the case-level bootstrap 95% intervals of the rates
 * of one run (README.md, "Uncertainty"). A case is the unit: its two LCA histories, its DCG
 * record and all its claims are drawn together, the same cases for every run resampled at once
 * (one run here, two in the paired comparison, every run of a board in the leaderboard, both
 * judges' runs in the rank stability), and every rate comes from the kernel. Plain data in (case
 * tables), plain data out, so it runs as well in a Web Worker.
 */
import {
	drawResample,
	ROW_WIDTH,
	scopeRows,
	sparseRows,
	sumRows,
	type CaseTable,
	type SparseRows
} from './case-table';
import { evaluateRates, rateTree, shareCases, SLOTS, wilson, type RateTree } from './kernel';
import { Prng, scopeSeed, DEFAULT_SEED } from './prng';
import { DEFAULT_RESAMPLES } from './resamples';

export { DEFAULT_RESAMPLES };

// Module-local copies: some loaders turn imported bindings into getters, far too slow for the
// inner loop.
const W = ROW_WIDTH;
const S = SLOTS;

/** Coverage of every interval (the JSON key is `ci95`): the 2.5th to the 97.5th percentile. */
export const CI_LEVEL = 0.95;
// Written out: (1 − 0.95) / 2 is 0.025000000000000022 in floating point.
const LOW_QUANTILE = 0.025;
const HIGH_QUANTILE = 0.975;
/**
 * A rate undefined in a resample (a zero denominator) is left out of its distribution; when
 * fewer than this share of the resamples define it, the interval is null: the percentiles of
 * the rest would describe a biased subset of the resamples.
 */
export const MIN_DEFINED_SHARE = 0.5;
/**
 * Scopes (a run, a class) with fewer cases get no interval and no p-value. Resampling one
 * case always returns it ([x, x]), and with a handful the bootstrap is far too sure of
 * itself: 5 of 5 cases improving gives a bootstrap p of 2/(B+1), an exact sign test 0.0625;
 * from about 10 cases the two agree in order of magnitude.
 */
export const MIN_CASES = 10;

export interface BootstrapOptions {
	/** @default DEFAULT_RESAMPLES (2000) */
	resamples?: number;
	/** Any integer, taken modulo 2^32. @default DEFAULT_SEED */
	seed?: number;
}

/** A percentile interval `[low, high]`, or null when the rate is undefined (see MIN_DEFINED_SHARE). */
export type Interval = [number, number] | null;

/** The intervals of one run, overall and per class (classes as in `table.classes`). */
export interface RunIntervals {
	ci95: RateTree<Interval>;
	by_class: Record<string, RateTree<Interval>>;
}

/** Resolved options, checked once. */
export function bootstrapSettings(options: BootstrapOptions = {}): {
	resamples: number;
	seed: number;
} {
	const resamples = options.resamples ?? DEFAULT_RESAMPLES;
	const seed = options.seed ?? DEFAULT_SEED;
	if (!Number.isInteger(resamples) || resamples < 1) {
		throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
	}
	if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
	return { resamples, seed: seed >>> 0 };
}

/** Quantile `q` of ascending `sorted` by linear interpolation (Hyndman & Fan type 7, numpy's default). */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
	const h = (sorted.length - 1) * q;
	const lo = Math.floor(h);
	const hi = Math.min(lo + 1, sorted.length - 1);
	return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/**
 * The defined values of slot `slot` across `resamples` rows of `samples` (row-major, `stride`
 * wide, SLOTS by default), sorted ascending; null when too few are defined.
 */
export function definedSorted(
	samples: Float64Array,
	slot: number,
	resamples: number,
	stride: number = S
): Float64Array | null {
	const values = new Float64Array(resamples);
	let m = 0;
	for (let b = 0; b < resamples; b++) {
		const v = samples[b * stride + slot];
		if (!Number.isNaN(v)) values[m++] = v;
	}
	if (m === 0 || m < MIN_DEFINED_SHARE * resamples) return null;
	return values.subarray(0, m).sort();
}

/** The central CI_LEVEL percentile interval of ascending values. */
export function percentileInterval(sorted: Float64Array): [number, number] {
	return [quantileSorted(sorted, LOW_QUANTILE), quantileSorted(sorted, HIGH_QUANTILE)];
}

/** Which interval a figure shows: the percentile bootstrap, or Wilson's where that collapses. */
export type IntervalMethod = 'percentile' | 'wilson';

/** A percentile interval narrower than this has collapsed to a point (rounding aside). */
const COLLAPSED = 1e-12;

/**
 * The 95% interval of `value` from its ascending resampled values: the percentile interval,
 * unless that collapses to a point (every resample equal: a share at 0 or 1 of every case), which
 * reads as certainty and is none. Then, for a share held by `cases` cases, Wilson's score interval
 * at `value` over them (kernel's `wilson`); for F1 or QWK (`cases` −1) no interval at all.
 */
export function caseInterval(
	sorted: Float64Array,
	value: number,
	cases: number
): { ci: Interval; method: IntervalMethod | null } {
	const ci = percentileInterval(sorted);
	if (ci[1] - ci[0] > COLLAPSED) return { ci, method: 'percentile' };
	const score = cases > 0 ? wilson(value, cases) : null;
	return score ? { ci: score, method: 'wilson' } : { ci: null, method: null };
}

/**
 * Resamples the cases of several runs together. The runs' counts (rows of ROW_WIDTH, one case
 * order) sit side by side in one sparse table, so a resample adds each drawn case once for all
 * runs, one long inner loop; nothing is allocated per resample.
 */
export class Resampler {
	readonly #counts: readonly Int32Array[];
	readonly #read: Uint8Array | undefined;
	#sparse: SparseRows | null = null;

	/**
	 * @param read which counts of a row to carry (1) in the resamples; the rates that read the
	 * others come out wrong there, so a caller that sets it reads only the rest. @default all
	 */
	constructor(counts: readonly Int32Array[], read?: Uint8Array) {
		this.#counts = counts;
		this.#read = read;
	}

	/** The runs' counts side by side, one sparse row per case; made on the first resample. */
	#sideBySide(): SparseRows {
		const [counts, read, R] = [this.#counts, this.#read, this.#counts.length];
		if (R === 1 && read === undefined) return sparseRows(counts[0]);
		const n = R === 0 ? 0 : counts[0].length / W;
		const wide = new Int32Array(n * R * W);
		counts.forEach((c, r) => {
			for (let i = 0; i < n; i++) {
				const to = (i * R + r) * W;
				for (let k = 0; k < W; k++)
					if (read === undefined || read[k] === 1) wide[to + k] = c[i * W + k];
			}
		});
		return sparseRows(wide, R * W);
	}

	/** Every run's rates on all of `rows` (run r's at `r · SLOTS`), NaN where undefined. */
	observed(rows: Int32Array): Float64Array {
		const acc = new Float64Array(W);
		const out = new Float64Array(this.#counts.length * S);
		this.#counts.forEach((counts, r) => {
			sumRows(counts, rows, acc);
			evaluateRates(acc, out, r * S);
		});
		return out;
	}

	/**
	 * `resamples` resamples of `rows` (with replacement, as many as there are rows, drawn from
	 * `rng`), the same draw for every run; after each, `visit(b, rates)` with every run's rates on
	 * it (run r's at `r · SLOTS`). `rates` is reused: read it, do not keep it.
	 */
	resample(
		rows: Int32Array,
		rng: Prng,
		resamples: number,
		visit: (b: number, rates: Float64Array) => void
	): void {
		if (resamples === 0) return;
		this.#sparse ??= this.#sideBySide();
		const sparse = this.#sparse;
		const R = this.#counts.length;
		const acc = new Int32Array(R * W);
		// Views made once: evaluateRates reads one run's counts at offsets 0 … ROW_WIDTH − 1.
		const views = Array.from({ length: R }, (_, r) => acc.subarray(r * W, (r + 1) * W));
		const rates = new Float64Array(R * S);
		const times = new Int32Array(rows.length);
		for (let b = 0; b < resamples; b++) {
			drawResample(sparse, rows, rng, times, acc);
			for (let r = 0; r < R; r++) evaluateRates(views[r], rates, r * S);
			visit(b, rates);
		}
	}
}

function scopeIntervals(
	table: CaseTable,
	cls: number,
	settings: { resamples: number; seed: number },
	resampler: Resampler,
	samples: Float64Array
): RateTree<Interval> {
	const rows = scopeRows(table, cls);
	const observed = resampler.observed(rows);
	const scope = cls < 0 ? '' : table.classes[cls];
	const rng = new Prng(scopeSeed(settings.seed, scope));
	resampler.resample(rows, rng, settings.resamples, (b, rates) => samples.set(rates, b * S));
	return rateTree(table.scored, (slot) => {
		// Undefined on the data itself (e.g. QWK of one repeated label) stays undefined.
		if (Number.isNaN(observed[slot]) || rows.length < MIN_CASES) return null;
		const sorted = definedSorted(samples, slot, settings.resamples);
		return sorted === null
			? null
			: caseInterval(sorted, observed[slot], shareCases(table.counts, rows, slot)).ci;
	});
}

/**
 * Case-level percentile bootstrap intervals of every rate of one run, overall (all selected
 * cases) and within each class (that class's cases). Each scope has its own seed derived
 * from `seed` and the class name, so the numbers reproduce exactly.
 */
export function bootstrapRun(table: CaseTable, options: BootstrapOptions = {}): RunIntervals {
	const settings = bootstrapSettings(options);
	const samples = new Float64Array(settings.resamples * SLOTS);
	const resampler = new Resampler([table.counts]);
	return {
		ci95: scopeIntervals(table, -1, settings, resampler, samples),
		by_class: Object.fromEntries(
			table.classes.map((cls, i) => [cls, scopeIntervals(table, i, settings, resampler, samples)])
		)
	};
}
