/**
 * Bounds on text drawn on the page. A dataset or a model can hold a 100 MB message, and one
 * such text node is enough to crash a tab, so texts are drawn cut, with a way to see all.
 */

import { textHead } from '$lib/core/text/clip';

/** Characters of a message, an answer or a fact drawn before "show all". */
export const LONG_TEXT_LIMIT = 4000;
/** Characters of a short field (a case_number, a cause) drawn in lists and tables. */
export const SHORT_TEXT_LIMIT = 200;

/** A text cut for display. */
export interface ClippedText {
	/** What to draw. */
	shown: string;
	/** True when `shown` is only the start of the text. */
	cut: boolean;
	/** The whole text's length in characters (UTF-16 units, as `String.length`). */
	length: number;
}

/** The first `limit` characters of `text` (`textHead`: never half a surrogate pair). */
export function clipText(text: string, limit: number): ClippedText {
	const shown = textHead(text, limit);
	return { shown, cut: shown.length < text.length, length: text.length };
}

/** A short field for a list or a table: cut with "…" and the full length. */
export function shortText(text: string, limit = SHORT_TEXT_LIMIT): string {
	const clip = clipText(text, limit);
	return clip.cut ? `${clip.shown}… (${clip.length.toLocaleString('en')} characters)` : text;
}
