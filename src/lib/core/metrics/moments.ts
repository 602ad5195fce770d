/** The mean and the sample standard deviation of a list of values (null where undefined). */

/** The arithmetic mean; null for no values. */
export function mean(values: readonly number[]): number | null {
	if (values.length === 0) return null;
	return values.reduce((a, b) => a + b, 0) / values.length;
}

/** Sample standard deviation (ddof = 1); null for fewer than two values. */
export function sampleSd(values: readonly number[]): number | null {
	if (values.length < 2) return null;
	const m = values.reduce((a, b) => a + b, 0) / values.length;
	const ss = values.reduce((a, v) => a + (v - m) ** 2, 0);
	return Math.sqrt(ss / (values.length - 1));
}
