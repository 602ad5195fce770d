/**
 * Lists as the interface language writes them: joined with 、 in Chinese and with commas in
 * English. (Dates: `formatDate` of `$lib/core/report/format`.)
 */
import { getLocale } from '$lib/paraglide/runtime';

/** `items` as one list in the interface language: "a、b和c", "a, b, and c". */
export function localList(items: readonly string[], locale: string = getLocale()): string {
	return new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }).format(items);
}
