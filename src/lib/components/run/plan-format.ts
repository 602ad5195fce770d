/** Figures of a run plan as the Run page shows them: money, token counts, ranges. */

/** `0.0123 USD`: four decimals (a small plan costs fractions of a cent per case). */
export function formatMoney(amount: number, currency = 'USD'): string {
	return `${amount.toFixed(4)} ${currency}`;
}

/** `1,234` or `1,000–2,000`, rounded. */
export function formatRangeOf(range: { min: number; max: number }, f = formatWhole): string {
	return Math.round(range.min) === Math.round(range.max)
		? f(range.min)
		: `${f(range.min)}–${f(range.max)}`;
}

export function formatWhole(n: number): string {
	return Math.round(n).toLocaleString('en-US');
}
