/**
 * Bounds on text a provider or a model sends back, wherever it is echoed: a 10 MB answer quoted
 * in an error message would flood a terminal and a log, and a key-sized secret is easier to
 * spot in a short quote.
 */

/** Characters of a provider's own words (an error body) quoted inside a message. */
export const QUOTED_CHARS = 300;
/** Characters of an unusable model output kept on an error and shown as "raw output". */
export const RAW_OUTPUT_CHARS = 600;

const CLIPPED = /… \(\d+ characters in all\)$/;

/**
 * The first `max` characters of `text` (UTF-16 units, as `String.length`), one fewer where the
 * last would be the first half of a surrogate pair: the one cut of text for a reader, so no
 * quote, label or page ever ends in half an emoji.
 */
export function textHead(text: string, max: number): string {
	if (text.length <= max) return text;
	const last = text.charCodeAt(max - 1);
	return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/**
 * `text` when it has at most `max` characters, else its {@link textHead} followed by
 * `… (N characters in all)`. Clipping twice changes nothing, so a text clipped where it was
 * received keeps its true length when it is shown.
 */
export function clipText(text: string, max: number): string {
	if (text.length <= max) return text;
	if (text.length <= max + 40 && CLIPPED.test(text)) return text;
	return `${textHead(text, max)}… (${text.length} characters in all)`;
}

/** UTF-8 length of `text` in bytes, without building the bytes. */
export function utf8Length(text: string): number {
	let bytes = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c < 0x80) bytes += 1;
		else if (c < 0x800) bytes += 2;
		else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
			const d = text.charCodeAt(i + 1);
			if (d >= 0xdc00 && d <= 0xdfff) {
				bytes += 4;
				i++;
			} else bytes += 3;
		} else bytes += 3;
	}
	return bytes;
}
