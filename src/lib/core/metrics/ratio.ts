/** `num / den`, or null when the denominator is zero (PROTOCOL.md §7: undefined, never 0 or NaN). */
export function ratio(num: number, den: number): number | null {
	return den === 0 ? null : num / den;
}
