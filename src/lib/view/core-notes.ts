/**
 * The notes of the results core (`$lib/core/results`: why a figure is missing or partial, a
 * cause outside the map, how two compared runs differ), which it gives as codes with their
 * parameters (`$lib/core/said`), said in a language of the interface for the Results page and
 * its report. English is the catalogue's own, the words `results` prints; the other languages
 * are the messages `core_<code>` of `messages/core/`, kept here apart from the rest of the core's
 * texts (`core-text.ts`) so the Results page does not load all of those. Cause names inside a
 * note are data: escaped by the core, never translated.
 */
import type { CoreText } from '$lib/core/said';
import { english, ENGLISH, sayWith, type Voice } from '$lib/core/voice';
import { m } from '$lib/paraglide/messages';
import { baseLocale, getLocale, type Locale } from '$lib/paraglide/runtime';

type O = { locale?: Locale };
type P = Record<string, string | number>;

/** The notes' messages, in the locale asked for (the interface's when none is). */
const SAY_NOTE = {
	note_no_file: (p: P, o: O = {}) => m.core_note_no_file(p as { file: string }, o),
	note_partial: (p: P, o: O = {}) =>
		m.core_note_partial(p as { file: string; have: number; expected: number; unit: string }, o),
	note_incomplete: (p: P, o: O = {}) =>
		m.core_note_incomplete(p as { file: string; have: number; expected: number; unit: string }, o),
	unit_records_per_case: (_: P, o: O = {}) => m.core_unit_records_per_case({}, o),
	unit_cases: (_: P, o: O = {}) => m.core_unit_cases({}, o),
	note_cause: (p: P, o: O = {}) => m.core_note_cause(p as { cause: string; cls: string }, o),
	note_group_maps: (_: P, o: O = {}) => m.core_note_group_maps({}, o),
	note_no_manifest: (p: P, o: O = {}) =>
		m.core_note_no_manifest(p as { manifest: string; files: string }, o),
	note_empty_run: (_: P, o: O = {}) => m.core_note_empty_run({}, o),
	note_calls_unreadable: (p: P, o: O = {}) =>
		m.core_note_calls_unreadable(p as { detail: string }, o),
	cmp_note_classes: (_: P, o: O = {}) => m.core_cmp_note_classes({}, o),
	cmp_note_repeats: (_: P, o: O = {}) => m.core_cmp_note_repeats({}, o),
	cmp_note_differ: (p: P, o: O = {}) => m.core_cmp_note_differ(p as { fields: string }, o),
	cmp_note_missing: (p: P, o: O = {}) =>
		m.core_cmp_note_missing(p as { side: string; file: string }, o),
	cmp_note_incomplete: (p: P, o: O = {}) =>
		m.core_cmp_note_incomplete(p as { side: string; file: string }, o)
} as const;

/** The notes' messages in the interface language, for `core-text.ts`'s table of every code. */
export const NOTES = Object.fromEntries(
	Object.entries(SAY_NOTE).map(([code, say]) => [code, (p: P) => say(p, {})])
) as unknown as { [C in keyof typeof SAY_NOTE]: (p: P) => string };

function voiceIn(locale: Locale): Voice {
	return {
		message: (code, params) =>
			Object.hasOwn(SAY_NOTE, code)
				? SAY_NOTE[code as keyof typeof SAY_NOTE](params, { locale })
				: // A reader's error inside a note (the call log's): its English, the one piece kept.
					ENGLISH.message(code, params),
		word: (key, params) =>
			key === 'core_list_separator'
				? m.core_list_separator({}, { locale })
				: ENGLISH.word(key, params)
	};
}

/** A note of the results core in `locale` (the interface's when undefined). */
export function coreNote(note: CoreText, locale: Locale = getLocale()): string {
	return locale === baseLocale ? english(note) : sayWith(note, voiceIn(locale));
}
