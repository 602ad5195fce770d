/** The mean and the sample standard deviation of a list of values (null where undefined). */

/** The arithmetic mean; null for no values. */
export function mean(values: readonly number[]): number | null {
	if (values.length === 0) return null;
	return values.reduce((a, b) => a + b, 0) / values.length;
}

/**
 * Sample standard deviation (ddof = 1); null for fewer than two values. The sum of squares is
 * taken about the mean of the values shifted by the first one: identical runs then give exactly
 * 0, where `Σ (v − mean)²` on the values themselves leaves a rounding residue (three runs of 0.1:
 * 1.7e-17, because the mean of three 0.1s is not 0.1 in floating point).
 */
export function sampleSd(values: readonly number[]): number | null {
	if (values.length < 2) return null;
	const shifted = values.map((v) => v - values[0]);
	const m = shifted.reduce((a, b) => a + b, 0) / shifted.length;
	const ss = shifted.reduce((a, d) => a + (d - m) ** 2, 0);
	return Math.sqrt(ss / (values.length - 1));
}
