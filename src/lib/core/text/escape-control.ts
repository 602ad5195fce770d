/**
 * Terminal- and log-safe text. Everything a dataset, a record, a bundle or a provider says is
 * hostile: an ESC in a `case_number` can clear a terminal, write its clipboard (OSC 52) or hide
 * the lines after it, a bidi override can make `case A` read as `case B`, and a line break can
 * print a line that reads like the CLI's own (`error: …`). This is the one place that makes such
 * text visible instead of active: every value the CLI or a core message quotes (a case_number,
 * a cause, a model id, a provider's words, a typed path) goes through {@link escapeControl},
 * line breaks included, so it stays on the line that quotes it
 * (`tests/unit/hardening/cli-print-escape.spec.ts` checks `src/cli/` for it); on top, the CLI
 * passes every line it writes through {@link escapeForTerminal}, which keeps its own layout.
 *
 * Escapes use the `\uXXXX` form of JSON and JavaScript, so text that is JSON stays JSON with
 * the same value, and two ids that differ only in an invisible or invalid character print
 * differently (`LONE-\ud800-X`).
 */
import { LONE_SURROGATE } from './lone-surrogate';

/**
 * C0 controls, DEL, C1 controls, the bidi embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069), the bidi marks (U+200E, U+200F, U+061C), the line and paragraph separators,
 * the noncharacters U+FFFE and U+FFFF (no XML can hold them), and lone surrogates (a high one
 * not followed by a low one, or a low one without a high one).
 */
const BIDI_AND_SEPARATORS =
	'\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069\\ufffe\\uffff';
const UNSAFE = new RegExp(
	`[\\u0000-\\u001f\\u007f-\\u009f${BIDI_AND_SEPARATORS}]|${LONE_SURROGATE}`,
	'g'
);

/** The same set minus line feed and tab, for whole lines of output. */
const UNSAFE_IN_LINES = new RegExp(
	`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${BIDI_AND_SEPARATORS}]|${LONE_SURROGATE}`,
	'g'
);

const hex = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Escapes every control, bidi and invalid character of `text` as `\uXXXX`, line breaks and
 * tabs included: for a piece of untrusted text quoted inside one line of a message.
 */
export function escapeControl(text: string): string {
	return text.replace(UNSAFE, hex);
}

/**
 * Escapes like {@link escapeControl} but keeps line feeds and tabs: for whole blocks of output
 * (a report, a list of problems) whose layout is ours. A carriage return is escaped, since it
 * lets a later part of a line overwrite an earlier one on a terminal.
 */
export function escapeForTerminal(text: string): string {
	return text.replace(UNSAFE_IN_LINES, hex);
}

/**
 * A copy of a JSON-like value (a results report, a comparison) with {@link escapeControl} applied
 * to every string in it, object keys included: for a whole structure of file or provider text
 * that a formatter then lays out in lines of its own, so no value can break a line or a column.
 */
export function escapeStrings<T>(value: T): T {
	if (typeof value === 'string') return escapeControl(value) as T;
	if (Array.isArray(value)) return value.map((v) => escapeStrings(v)) as T;
	if (typeof value === 'object' && value !== null) {
		const out: Record<string, unknown> = {};
		for (const [k, v] of Object.entries(value)) out[escapeControl(k)] = escapeStrings(v);
		return out as T;
	}
	return value;
}
