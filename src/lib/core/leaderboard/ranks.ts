/**
 * Ranks with their uncertainty (README.md, "Leaderboard"): a model's rank is 1 + the number of
 * models with a higher value (equal values share a rank). Its interval is the 2.5th and 97.5th
 * percentile of its rank over the resamples, taken as order statistics so the bounds are ranks.
 */
import { MIN_DEFINED_SHARE } from '../metrics/bootstrap';
import { TIE_TOLERANCE } from '../metrics/paired';

/** Competition ranks (1 = highest) of `values`; NaN values get null and do not count. */
export function ranksOf(values: ArrayLike<number>): (number | null)[] {
	const out: (number | null)[] = [];
	for (let i = 0; i < values.length; i++) {
		const v = values[i];
		if (Number.isNaN(v)) {
			out.push(null);
			continue;
		}
		let higher = 0;
		for (let j = 0; j < values.length; j++) if (values[j] - v > TIE_TOLERANCE) higher++;
		out.push(higher + 1);
	}
	return out;
}

/** The order statistic at quantile q of ascending `sorted` (inverse of the empirical CDF). */
function orderStatistic(sorted: ArrayLike<number>, q: number): number {
	const k = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
	return sorted[k - 1];
}

/**
 * Per model, the 95% interval of its rank in column `c` over the resamples of `samples`
 * (`resamples × models × columns`); null for a model defined in fewer than half the resamples.
 */
export function rankIntervals(
	samples: Float64Array,
	resamples: number,
	models: number,
	columns: number,
	c: number
): ([number, number] | null)[] {
	const ranks = Array.from({ length: models }, () => new Float64Array(resamples));
	const defined = new Int32Array(models);
	const values = new Float64Array(models);
	for (let b = 0; b < resamples; b++) {
		for (let k = 0; k < models; k++) values[k] = samples[(b * models + k) * columns + c];
		ranksOf(values).forEach((r, k) => {
			if (r !== null) ranks[k][defined[k]++] = r;
		});
	}
	return ranks.map((all, k) => {
		const m = defined[k];
		if (m === 0 || m < MIN_DEFINED_SHARE * resamples) return null;
		const sorted = all.subarray(0, m).sort();
		return [orderStatistic(sorted, 0.025), orderStatistic(sorted, 0.975)];
	});
}
