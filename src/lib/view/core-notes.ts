/**
 * The notes of the results core (`$lib/core/results`: why a figure is missing or partial, a
 * cause outside the map, how two compared runs differ), which it gives as codes with their
 * parameters (`$lib/core/said`), said in a language of the interface for the Results page and
 * its report. English is the catalogue's own, the words `results` prints; the other languages
 * are the catalogue's notes (`core_note_*`, `core_cmp_note_*`, `core_unit_*`) as Paraglide
 * compiles them, loaded here apart from the rest of the core's texts (`core-text.ts`) so the
 * Results page does not load all of those. Cause names inside a note are data: escaped by the
 * core, never translated.
 */
import type { CoreText } from '$lib/core/said';
import { english, ENGLISH, sayWith, type Voice } from '$lib/core/voice';
import { baseLocale, getLocale, type Locale } from '$lib/paraglide/runtime';

/** A message as Paraglide compiles it: said in the locale asked for, else the interface's. */
export type Compiled = (
	params: Record<string, string | number>,
	options?: { locale?: Locale }
) => string;

/** The catalogue's messages among modules Paraglide compiled (an `import.meta.glob`), by code. */
function byCode(modules: Record<string, Record<string, unknown>>): Record<string, Compiled> {
	return Object.fromEntries(
		Object.values(modules)
			.flatMap((module) => Object.entries(module))
			.filter(([name]) => name.startsWith('core_'))
			.map(([name, say]) => [name.slice('core_'.length), say as Compiled])
	);
}

/**
 * The voice of `messages` (`locale`'s, the interface's when undefined): a code it does not hold
 * is said in English (a reader's error inside a note, the call log's, is the one piece kept so).
 */
export function voiceOf(messages: Readonly<Record<string, Compiled>>, locale?: Locale): Voice {
	return {
		message: (code, params = {}) =>
			Object.hasOwn(messages, code)
				? messages[code](params, { locale })
				: ENGLISH.message(code, params)
	};
}

const NOTES = byCode(
	import.meta.glob('../paraglide/messages/core_{note_,cmp_note_,unit_,list_separator}*.js', {
		eager: true
	})
);

/** A note of the results core in `locale` (the interface's when undefined). */
export function coreNote(note: CoreText, locale: Locale = getLocale()): string {
	return locale === baseLocale ? english(note) : sayWith(note, voiceOf(NOTES, locale));
}
