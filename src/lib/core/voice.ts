/**
 * The one way a coded text (`./said.ts`) becomes words. A caller gives its catalogue as a
 * {@link Voice}: the core's English is the messages catalogue itself, `messages/core/en.json`,
 * read here as data ({@link english}: the CLI prints it, error messages and dataset problems
 * carry it); the browser's other languages are the same catalogue compiled by Paraglide
 * (`src/lib/view/core-text.ts`). Both walk a text through {@link sayWith}, so a list, a place
 * or a nested reason is put together the same way in every language, from messages of the
 * catalogue that are codes like any other (`list_line`, `place_case`, `role_complete`). The core
 * imports that one file of the catalogue and nothing else of the interface's messages
 * (eslint.config.js).
 */
import { englishOf, pieces, type CoreCode, type CoreText } from './said';

/** One language's messages, as {@link sayWith} asks for them. */
export interface Voice {
	/** The message `core_<code>` with its parameters filled in. */
	message(code: CoreCode, params?: Record<string, string | number>): string;
	/** A model role (`evaluated`, `user`, `judge`) in this language. @default as given */
	modelRole?(role: string): string;
	/** A dataset problem's field (`underspecified history`, `result_dict`) in this language. @default as given */
	field?(name: string): string;
}

/** History roles are the validator's own words (complete, underspecified): said, not quoted. */
const HISTORY_ROLES: Record<string, CoreCode> = {
	complete: 'role_complete',
	underspecified: 'role_underspecified'
};

/**
 * How each line of a `lines` list is said: by default `list_line` ("  - …"), a list's closing
 * count (`…_more`) `list_rest`; codes whose lines have another shape name it here.
 */
const LINE_OF: Partial<Record<CoreCode, CoreCode>> = {
	category_map_problems: 'category_line'
};

/** `text` in the language of `voice`, its parts said first and put in their parameters. */
export function sayWith(text: CoreText, voice: Voice): string {
	const params: Record<string, string | number> = { ...text.params };
	if ('role' in params && Object.hasOwn(HISTORY_ROLES, String(params.role))) {
		params.role = voice.message(HISTORY_ROLES[String(params.role)]);
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
							voice.message(
								p.code.endsWith('_more') ? 'list_rest' : (LINE_OF[text.code] ?? 'list_line'),
								{ item: sayWith(p, voice) }
							)
						)
						.join('\n')
				: parts.map((p) => sayWith(p, voice)).join(voice.message('list_separator'));
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
				? voice.message('place_case', { index: place.caseIndex })
				: voice.message('place_case_number', {
						index: place.caseIndex,
						caseNumber: place.caseNumber
					});
	}
	if (place.field !== null) {
		const name = voice.field?.(place.field) ?? place.field;
		const field =
			place.messageIndex === null
				? name
				: voice.message('place_message', { field: name, index: place.messageIndex });
		where = where ? voice.message('place_both', { case: where, field }) : field;
	}
	return where ? voice.message('place_line', { place: where, problem }) : problem;
}

/**
 * `pattern` with its `{name}` placeholders filled from `params`, read as Paraglide reads the
 * inlang message format (`pieces` in `./said.ts`). A placeholder without a parameter is a
 * mistake of the catalogue.
 */
export function fill(pattern: string, params: Record<string, string | number>): string {
	return pieces(pattern)
		.map((piece) => {
			if (typeof piece === 'string') return piece;
			if (!Object.hasOwn(params, piece.name))
				throw new Error(`message: no parameter {${piece.name}}`);
			return String(params[piece.name]);
		})
		.join('');
}

/**
 * The English of `code` for `params`: its pattern, or the first of its variants whose value is
 * the parameter's (`*` for any), as Paraglide picks one.
 */
function englishMessage(code: CoreCode, params: Record<string, string | number>): string {
	const english = englishOf(`core_${code}`);
	const pattern =
		typeof english === 'string'
			? english
			: english?.find(([name, when]) => when === '*' || when === String(params[name]))?.[2];
	if (pattern === undefined) {
		throw new Error(`messages/core/en.json: no message core_${code} for these parameters`);
	}
	return fill(pattern, params);
}

/** The English of `messages/core/en.json`, the words the CLI prints. */
export const ENGLISH: Voice = { message: (code, params = {}) => englishMessage(code, params) };

/** A coded text, or coded pieces one after the other, in English. */
export function english(said: CoreText | readonly CoreText[]): string {
	return 'code' in said ? sayWith(said, ENGLISH) : said.map((s) => sayWith(s, ENGLISH)).join('');
}
