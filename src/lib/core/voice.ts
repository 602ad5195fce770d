/**
 * The one way a coded text (`./said.ts`) becomes words. A caller gives its catalogue as a
 * {@link Voice}: the core's English is the messages catalogue itself, `messages/core/en.json`,
 * read here as data ({@link english}: the CLI prints it, error messages and dataset problems
 * carry it); the browser's other languages are the same catalogue compiled by Paraglide
 * (`src/lib/view/core-text.ts`). Both walk a text through {@link sayWith}, so a list, a place
 * or a nested reason is put together the same way in every language. The core imports that one
 * file of the catalogue and nothing else of the interface's messages (eslint.config.js).
 */
import catalogue from '../../../messages/core/en.json';
import type { CoreCode, CoreText } from './said';

/** Messages of the catalogue that are not a code's own: how lists and roles are said. */
export type VoiceWord =
	| 'core_list_separator'
	| 'core_list_line'
	| 'core_list_rest'
	| 'core_category_line'
	| 'core_role_complete'
	| 'core_role_underspecified'
	| 'core_place_case'
	| 'core_place_case_number'
	| 'core_place_message'
	| 'core_place_both'
	| 'core_place_line';

/** One language's messages, as {@link sayWith} asks for them. */
export interface Voice {
	/** The message of `code` with its parameters filled in. */
	message(code: CoreCode, params: Record<string, string | number>): string;
	/** A message of {@link VoiceWord}, its parameters filled in. */
	word(key: VoiceWord, params?: Record<string, string | number>): string;
	/** A model role (`evaluated`, `user`, `judge`) in this language. @default as given */
	modelRole?(role: string): string;
	/** A dataset problem's field (`underspecified history`, `result_dict`) in this language. @default as given */
	field?(name: string): string;
}

/** History roles are the validator's own words (complete, underspecified): said, not quoted. */
const HISTORY_ROLES: Record<string, VoiceWord> = {
	complete: 'core_role_complete',
	underspecified: 'core_role_underspecified'
};

/**
 * How each line of a `lines` list is said: by default `core_list_line` ("  - …"), a list's
 * closing count (`…_more`) `core_list_rest`; codes whose lines have another shape name it here.
 */
const LINE_OF: Partial<Record<CoreCode, VoiceWord>> = {
	category_map_problems: 'core_category_line'
};

/** `text` in the language of `voice`, its parts said first and put in their parameters. */
export function sayWith(text: CoreText, voice: Voice): string {
	const params: Record<string, string | number> = { ...text.params };
	if ('role' in params && Object.hasOwn(HISTORY_ROLES, String(params.role))) {
		params.role = voice.word(HISTORY_ROLES[String(params.role)]);
	}
	if ('modelRole' in params && voice.modelRole) {
		params.modelRole = voice.modelRole(String(params.modelRole));
	}
	for (const [name, parts] of Object.entries(text.parts ?? {})) {
		// `lines` are one a line, each a list item; other lists are joined in the sentence.
		params[name] =
			name === 'lines'
				? parts
						.map((p) =>
							voice.word(
								p.code.endsWith('_more')
									? 'core_list_rest'
									: (LINE_OF[text.code] ?? 'core_list_line'),
								{ item: sayWith(p, voice) }
							)
						)
						.join('\n')
				: parts.map((p) => sayWith(p, voice)).join(voice.word('core_list_separator'));
	}
	return voice.message(text.code, params);
}

/** Where a dataset problem is (`./dataset/problems.ts`); every part optional. */
export interface Place {
	caseIndex: number | null;
	caseNumber: string | null;
	field: string | null;
	messageIndex: number | null;
}

/**
 * `problem` said at `place`: `case #17 (case_number 2023-041) underspecified history, message 3:
 * …`, positions zero-based as in the data. The place's case number and field come from the file:
 * a caller escapes the line it gets.
 */
export function sayAt(place: Place, problem: string, voice: Voice): string {
	let where = '';
	if (place.caseIndex !== null) {
		where =
			place.caseNumber === null
				? voice.word('core_place_case', { index: place.caseIndex })
				: voice.word('core_place_case_number', {
						index: place.caseIndex,
						caseNumber: place.caseNumber
					});
	}
	if (place.field !== null) {
		const name = voice.field?.(place.field) ?? place.field;
		const field =
			place.messageIndex === null
				? name
				: voice.word('core_place_message', { field: name, index: place.messageIndex });
		where = where ? voice.word('core_place_both', { case: where, field }) : field;
	}
	return where ? voice.word('core_place_line', { place: where, problem }) : problem;
}

const MESSAGES: Record<string, unknown> = catalogue;

/**
 * `pattern` with its `{name}` placeholders filled from `params`, read as Paraglide reads the
 * inlang message format: `\{`, `\}` and `\\` stand for the character itself, and a `{` with no
 * closing brace is text. A placeholder without a parameter is a mistake of the catalogue.
 */
export function fill(pattern: string, params: Record<string, string | number>): string {
	let out = '';
	for (let i = 0; i < pattern.length; i++) {
		const c = pattern[i];
		const next = pattern[i + 1];
		if (c === '\\' && (next === '{' || next === '}' || next === '\\')) {
			out += next;
			i++;
		} else if (c === '{' && pattern.indexOf('}', i) !== -1) {
			const end = pattern.indexOf('}', i);
			const name = pattern.slice(i + 1, end);
			if (!Object.hasOwn(params, name)) throw new Error(`message: no parameter {${name}}`);
			out += String(params[name]);
			i = end;
		} else {
			out += c;
		}
	}
	return out;
}

/**
 * The pattern of a message for `params`. A message is a pattern, or (for the words that change
 * with a number: "1 case", "2 cases", "twice") a list of one object whose `match` gives a
 * pattern per value of its one selector, `*` for any other, as the inlang message format
 * writes variants; Paraglide picks the first that matches, and so does this.
 */
function patternOf(key: string, params: Record<string, string | number>): string {
	const message = MESSAGES[key];
	if (typeof message === 'string') return message;
	const [variants] = Array.isArray(message)
		? (message as { selectors?: unknown; match?: unknown }[])
		: [];
	const selectors = variants?.selectors;
	if (Array.isArray(selectors) && selectors.length === 1 && typeof variants.match === 'object') {
		const name = String(selectors[0]);
		for (const [when, pattern] of Object.entries(variants.match as Record<string, string>)) {
			const value = when.slice(name.length + 1);
			if (when.startsWith(`${name}=`) && (value === '*' || value === String(params[name]))) {
				return pattern;
			}
		}
	}
	throw new Error(`messages/core/en.json: no message ${key} for these parameters`);
}

function englishMessage(key: string, params: Record<string, string | number>): string {
	return fill(patternOf(key, params), params);
}

/** The English of `messages/core/en.json`, the words the CLI prints. */
export const ENGLISH: Voice = {
	message: (code, params) => englishMessage(`core_${code}`, params),
	word: (key, params = {}) => englishMessage(key, params)
};

/** A coded text, or coded pieces one after the other, in English. */
export function english(said: CoreText | readonly CoreText[]): string {
	return 'code' in said ? sayWith(said, ENGLISH) : said.map((s) => sayWith(s, ENGLISH)).join('');
}
