/**
 * The texts the core writes for people (dataset problems, connection diagnoses, run errors,
 * bundle problems, results notes) as codes with parameters. A code is a message of the catalogue,
 * `core_<code>` in `messages/core/`, and its parameters are the placeholders of its English: a
 * text is added there, in both languages, and nowhere else. A call site says what happened once,
 * as `coded(code, params)`; the words are the catalogue's, English through `./voice.ts` (what the
 * CLI prints, and the `message` of errors and dataset problems), other languages through
 * Paraglide in the browser (`src/lib/view/core-text.ts`). `npm run i18n` writes the codes as a
 * type (`./said-codes.ts`, from `scripts/core-codes.js`), so a call with a code the catalogue
 * lacks, or with other parameters, fails the type check.
 *
 * Parameters that come from a file or a provider are hostile: {@link coded} escapes control,
 * bidi and invalid characters in every string parameter (`src/lib/core/text/`), and callers
 * pass them clipped exactly as the sentence quotes them.
 */
import catalogue from '../../../messages/core/en.json';
import type { CoreCatalogue } from './said-codes';
import { escapeControl } from './text/escape-control';
import { redactKeys } from './text/redact';

export type CoreCode = keyof CoreCatalogue;

export type CoreParams<C extends CoreCode> = {
	[P in CoreCatalogue[C]]: string | number;
};

const MESSAGES: Record<string, unknown> = catalogue;

/**
 * The English of message `key`: its pattern, or (for words that change with a number: "1 case",
 * "2 cases") the variants of its one selector, `[name, value, pattern]` in the order the
 * catalogue gives them (`*` for any other value), as the inlang message format writes them;
 * null when the catalogue has no such message.
 */
export function englishOf(key: string): string | [string, string, string][] | null {
	const message = Object.hasOwn(MESSAGES, key) ? MESSAGES[key] : null;
	if (typeof message === 'string') return message;
	const [variants] = Array.isArray(message)
		? (message as { selectors?: unknown; match?: unknown }[])
		: [];
	const selectors = variants?.selectors;
	if (!Array.isArray(selectors) || selectors.length !== 1 || typeof variants.match !== 'object') {
		return null;
	}
	const name = String(selectors[0]);
	return Object.entries(variants.match as Record<string, string>)
		.filter(([when]) => when.startsWith(`${name}=`))
		.map(([when, pattern]) => [name, when.slice(name.length + 1), pattern]);
}

/**
 * A pattern as text and placeholders, read as Paraglide reads the inlang message format: `\{`,
 * `\}` and `\\` stand for the character itself, and a `{` with no closing brace is text.
 */
export function pieces(pattern: string): (string | { name: string })[] {
	const out: (string | { name: string })[] = [];
	let text = '';
	for (let i = 0; i < pattern.length; i++) {
		const c = pattern[i];
		const next = pattern[i + 1];
		if (c === '\\' && (next === '{' || next === '}' || next === '\\')) {
			text += next;
			i++;
		} else if (c === '{' && pattern.indexOf('}', i) !== -1) {
			const end = pattern.indexOf('}', i);
			out.push(text, { name: pattern.slice(i + 1, end) });
			text = '';
			i = end;
		} else {
			text += c;
		}
	}
	out.push(text);
	return out;
}

/** The parameters of `code`: the placeholders of its English, each once; null for no code. */
export function paramsOf(code: string): string[] | null {
	const english = englishOf(`core_${code}`);
	if (english === null) return null;
	const patterns = typeof english === 'string' ? [english] : english.map(([, , p]) => p);
	const names = patterns.flatMap((p) =>
		pieces(p).flatMap((x) => (typeof x === 'string' ? [] : x.name))
	);
	return [...new Set(names)];
}

/**
 * A core text as a code and its parameters. `parts`, when present, are coded texts the
 * renderer puts in the parameter of the same name (a list of reasons), in place of the English.
 */
export type CoreText = {
	[C in CoreCode]: { code: C; params: CoreParams<C>; parts?: { [P: string]: CoreText[] } };
}[CoreCode];

/** The same text with runs of `keys` redacted in its string parameters (`redactKeys`). */
export function redactSaid(said: CoreText, keys: string | readonly string[]): CoreText {
	const list = typeof keys === 'string' ? [keys] : keys;
	const params = Object.fromEntries(
		Object.entries(said.params).map(([k, v]) => [
			k,
			typeof v === 'string' ? redactKeys(v, list) : v
		])
	);
	// Parts carry words too (a provider's quoted answer is one): redacted all the way down.
	const parts = said.parts
		? Object.fromEntries(
				Object.entries(said.parts).map(([k, texts]) => [k, texts.map((t) => redactSaid(t, list))])
			)
		: undefined;
	return { ...said, params, ...(parts ? { parts } : {}) } as CoreText;
}

/**
 * `{ code, params }`, every string parameter with its control characters escaped. A parameter
 * said by `parts` (a list of reasons, a nested place) needs no value of its own: it is kept
 * empty, and each language says it from its parts.
 */
export function coded<C extends CoreCode, P extends CoreCatalogue[C] = never>(
	code: C,
	params: Omit<CoreParams<C>, P> & Partial<CoreParams<C>>,
	parts?: { [K in P]: CoreText[] }
): CoreText {
	const safe: Record<string, string | number> = {};
	for (const name of Object.keys(parts ?? {})) safe[name] = '';
	for (const [k, v] of Object.entries(params as Record<string, string | number>)) {
		safe[k] = typeof v === 'string' ? escapeControl(v) : v;
	}
	return { code, params: safe, ...(parts ? { parts } : {}) } as CoreText;
}

/** How deep `parts` may nest in a text read back from storage. */
const MAX_PART_DEPTH = 4;
/** Texts, and parts of one text, read back at the most. */
const MAX_READ_TEXTS = 64;

/**
 * `v` as coded texts again (a list kept in storage, say), each with a known code and exactly
 * its declared parameters, strings escaped once more; null when any piece does not fit, so a
 * reader falls back to the English it kept beside them.
 */
export function readCoreTexts(v: unknown, depth = 0): CoreText[] | null {
	if (!Array.isArray(v) || v.length > MAX_READ_TEXTS || depth > MAX_PART_DEPTH) return null;
	const out: CoreText[] = [];
	for (const item of v as unknown[]) {
		if (typeof item !== 'object' || item === null) return null;
		const { code, params, parts } = item as Record<string, unknown>;
		const names = typeof code === 'string' ? paramsOf(code) : null;
		if (names === null) return null;
		if (typeof params !== 'object' || params === null) return null;
		const given = Object.entries(params);
		if (
			given.length !== names.length ||
			!given.every(([k, x]) => names.includes(k) && (typeof x === 'string' || Number.isFinite(x)))
		) {
			return null;
		}
		let readParts: { [P: string]: CoreText[] } | undefined;
		if (parts !== undefined) {
			if (typeof parts !== 'object' || parts === null) return null;
			readParts = {};
			for (const [name, list] of Object.entries(parts)) {
				const read = names.includes(name) ? readCoreTexts(list, depth + 1) : null;
				if (!read) return null;
				readParts[name] = read;
			}
		}
		// Read back whole: every parameter is there, parts or not.
		out.push(
			coded<CoreCode>(
				code as CoreCode,
				params as CoreParams<CoreCode>,
				readParts as Record<never, CoreText[]>
			)
		);
	}
	return out;
}
