/**
 * Dates and lists as the interface language writes them: a saved run's ISO time (`created_at`)
 * reads "2026年12月5日 14:39:00" on a Chinese page, and a list of names is joined with 、 there
 * and with commas in English.
 */
import { getLocale } from '$lib/paraglide/runtime';

/**
 * `iso` in the language's medium date and time, with the time zone when `zone` (a file read
 * elsewhere); `iso` itself when it is no date.
 */
export function localDateTime(iso: string, locale: string = getLocale(), zone = false): string {
	const date = new Date(iso);
	if (Number.isNaN(date.getTime())) return iso;
	return date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: zone ? 'long' : 'medium' });
}

/** `items` as one list in the interface language: "a、b和c", "a, b, and c". */
export function localList(items: readonly string[], locale: string = getLocale()): string {
	return new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }).format(items);
}
