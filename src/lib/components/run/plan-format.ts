/** Figures of a run plan as the Run page shows them: money, token counts, ranges. */
import { formatCount, formatNumber } from '$lib/core/report/format';

/** `0.0123 USD`: four decimals (a small plan costs fractions of a cent per case). */
export function formatMoney(amount: number, currency = 'USD'): string {
	return `${formatNumber(amount)} ${currency}`;
}

/** `1,234` or `1,000–2,000`, rounded. */
export function formatRangeOf(
	range: { min: number; max: number },
	f: (n: number) => string = formatCount
): string {
	return Math.round(range.min) === Math.round(range.max)
		? f(range.min)
		: `${f(range.min)}–${f(range.max)}`;
}
