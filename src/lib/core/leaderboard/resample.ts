/**
 * The leaderboard's inner loop (README.md, "Leaderboard"): one case bootstrap for every model of
 * a board at once. Each resample draws one multiset of cases, the same for every model; each
 * run's rates are computed on it, and each model's value is the mean over its runs. Nothing is
 * allocated per resample, so 20 runs × 432 cases × 2,000 resamples stay well under a second.
 */
import {
	DCG_N,
	DCG_SUCCESS,
	drawResample,
	LCA_FN,
	LCA_FP,
	LCA_TN,
	LCA_TP,
	LJP_OFFSET,
	ROW_WIDTH,
	sparseRows,
	sumRows,
	type SparseRows
} from '../metrics/case-table';
import { evaluateRates, SLOTS } from '../metrics/kernel';
import type { Prng } from '../metrics/prng';
import { COLUMN, LEADERBOARD_COLUMNS } from '../protocol/metrics';

/** Columns per model in every array below. */
export const C = LEADERBOARD_COLUMNS.length;
const SLOT_OF = Int32Array.from(LEADERBOARD_COLUMNS, (c) => COLUMN[c].slot);
const W = ROW_WIDTH;

/** One model's runs: each run's case counts, in the board's case order. */
export interface ModelRuns {
	counts: Int32Array[];
}

export interface ScopeSamples {
	/** Per model, `runs × C` values of each run on all the scope's cases (NaN: undefined). */
	observed: Float64Array[];
	/**
	 * `resamples × models × C`: at `(b · models + m) · C + c`, the mean over model m's runs of
	 * column c on resample b, over the runs where it is defined (NaN when none is).
	 */
	samples: Float64Array;
}

/**
 * The counts the seven columns' rates read (LCA's four cells, DCG's records and successes, the
 * LJP matrices): the others (DCG's per-round successes) are left out of the resamples, whose
 * other rates no column shows. About a sixth fewer additions per drawn case.
 */
const READ = new Uint8Array(W);
for (const k of [LCA_TP, LCA_FN, LCA_FP, LCA_TN, DCG_N, DCG_SUCCESS]) READ[k] = 1;
for (const o of Object.values(LJP_OFFSET)) READ.fill(1, o, o + 9);

/**
 * Every run's counts side by side, one sparse row per case (`runs × ROW_WIDTH` wide, only the
 * counts in READ): a resample then adds each drawn case once for all runs, one long inner loop
 * instead of one per run.
 */
function mergedRows(models: readonly ModelRuns[]): SparseRows {
	const all = models.flatMap((m) => m.counts);
	const n = all.length === 0 ? 0 : all[0].length / W;
	const wide = new Int32Array(n * all.length * W);
	all.forEach((counts, r) => {
		for (let i = 0; i < n; i++) {
			const to = (i * all.length + r) * W;
			for (let k = 0; k < W; k++) if (READ[k] === 1) wide[to + k] = counts[i * W + k];
		}
	});
	return sparseRows(wide, all.length * W);
}

/** Observed values and resampled model means of one scope (`cases`: row indices of the board). */
export function resampleScope(
	models: readonly ModelRuns[],
	cases: Int32Array,
	rng: Prng,
	resamples: number
): ScopeSamples {
	const M = models.length;
	const runs = models.reduce((t, m) => t + m.counts.length, 0);
	const single = new Float64Array(W);
	const rates = new Float64Array(SLOTS);
	const observed = models.map((model) => {
		const out = new Float64Array(model.counts.length * C);
		model.counts.forEach((counts, r) => {
			sumRows(counts, cases, single);
			evaluateRates(single, rates, 0);
			for (let c = 0; c < C; c++) out[r * C + c] = rates[SLOT_OF[c]];
		});
		return out;
	});
	const samples = new Float64Array(resamples * M * C);
	if (resamples === 0) return { observed, samples };
	const merged = mergedRows(models);
	const acc = new Int32Array(runs * W);
	// Views made once: evaluateRates reads one run's counts at offsets 0 … ROW_WIDTH − 1.
	const views = Array.from({ length: runs }, (_, r) => acc.subarray(r * W, (r + 1) * W));
	const firstRun = Int32Array.from(models, (_, k) =>
		models.slice(0, k).reduce((t, m) => t + m.counts.length, 0)
	);
	const n = cases.length;
	const times = new Int32Array(n);
	const sum = new Float64Array(C);
	const defined = new Int32Array(C);
	for (let b = 0; b < resamples; b++) {
		// The same draw as `bootstrapRun`'s, so a model of one run gets that run's interval.
		drawResample(merged, cases, rng, times, acc);
		for (let k = 0; k < M; k++) {
			sum.fill(0);
			defined.fill(0);
			for (let r = firstRun[k], end = r + models[k].counts.length; r < end; r++) {
				evaluateRates(views[r], rates, 0);
				for (let c = 0; c < C; c++) {
					const v = rates[SLOT_OF[c]];
					if (v === v) {
						sum[c] += v;
						defined[c]++;
					}
				}
			}
			const o = (b * M + k) * C;
			for (let c = 0; c < C; c++) samples[o + c] = defined[c] > 0 ? sum[c] / defined[c] : NaN;
		}
	}
	return { observed, samples };
}
