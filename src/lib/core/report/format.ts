/**
 * How a figure and a date read everywhere: the CLI's text, the page, and the exports (CSV,
 * Markdown, LaTeX, HTML, SVG). One number formatter and one date formatter; a caller picks the
 * style, never its own `toFixed` or `toLocaleString`.
 */

/** What an undefined figure prints as. */
export const UNDEFINED = '—';
/** Decimals of rates, intervals and p-values in every report. */
export const DECIMALS = 4;

export interface NumberStyle {
	/** @default DECIMALS */
	decimals?: number;
	/** `+` before a positive value and a space before one that rounds to zero (differences). @default false */
	signed?: boolean;
	/** A true minus sign (U+2212) instead of a hyphen, where the output is typeset (axes). @default false */
	typeset?: boolean;
}

/**
 * `value` with fixed decimals (a number of decimals, or a style): "—" when undefined (null,
 * undefined, NaN or ±Infinity: no figure of a report, a cost least of all, is ever "Infinity"),
 * and whatever rounds to zero reads as zero, never "-0.0000".
 */
export function formatNumber(
	value: number | null | undefined,
	style: NumberStyle | number = {}
): string {
	if (value === null || value === undefined || !Number.isFinite(value)) return UNDEFINED;
	const {
		decimals = DECIMALS,
		signed = false,
		typeset = false
	} = typeof style === 'number' ? { decimals: style } : style;
	const text = Math.abs(value).toFixed(decimals);
	if (Number(text) === 0) return (signed ? ' ' : '') + text;
	return (value < 0 ? (typeset ? '\u2212' : '-') : signed ? '+' : '') + text;
}

/** `[0.5700, 0.6600]`, or "—" for no interval. */
export function formatInterval(
	ci: readonly [number, number] | null | undefined,
	style: NumberStyle | number = {}
): string {
	return ci ? `[${formatNumber(ci[0], style)}, ${formatNumber(ci[1], style)}]` : UNDEFINED;
}

/** A whole number with thousands separators as English writes them (`12,345`): "—" when undefined. */
export const formatCount = (value: number | null | undefined): string =>
	value === null || value === undefined || !Number.isFinite(value)
		? UNDEFINED
		: COUNT.format(Math.round(value));
const COUNT = new Intl.NumberFormat('en-US');

/** How much of a date and a time to say (Intl's styles); a part left out is not said. */
export interface DateStyle {
	date?: 'full' | 'long' | 'medium' | 'short';
	time?: 'full' | 'long' | 'medium' | 'short';
}

// One formatter per language and style: making one per call adds up over a long list of runs.
const DATES = new Map<string, Intl.DateTimeFormat>();

/**
 * A time (ISO text, ms since the epoch or a Date) in `locale`'s words: "Dec 5, 2026, 2:39:00 PM",
 * "2026年12月5日 14:39:00"; by default the medium date and time. The text itself when it is no date.
 */
export function formatDate(
	at: string | number | Date,
	locale: string,
	style: DateStyle = { date: 'medium', time: 'medium' }
): string {
	const date = at instanceof Date ? at : new Date(at);
	if (Number.isNaN(date.getTime())) return String(at);
	const key = `${locale}|${style.date}|${style.time}`;
	let format = DATES.get(key);
	if (format === undefined) {
		format = new Intl.DateTimeFormat(locale, { dateStyle: style.date, timeStyle: style.time });
		DATES.set(key, format);
	}
	return format.format(date);
}
