/**
 * Text helpers every reader shares, so a file is read alike wherever it comes from:
 * bytes → text (UTF-8 only, a leading BOM dropped, an encoding problem reported at its line and
 * column instead of turning into U+FFFD characters) for datasets, category maps, bundles and
 * results; BOM stripping for text that is already decoded; byte counts for people.
 */
import { coded, type CoreText } from './said';
import { english } from './voice';
import { CheckpointError } from './errors';
import { wideEncoding } from './wide-encoding';

/** A file that is not UTF-8 text; `line`/`column` are 1-based, null when not about one place. */
export class TextDecodeError extends Error {
	override name = 'TextDecodeError';
	constructor(
		/** What is wrong and where, as a code; the message is its English. */
		readonly said: CoreText,
		readonly line: number | null = null,
		readonly column: number | null = null
	) {
		super(english(said));
	}
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const lenient = new TextDecoder('utf-8');

/** Decodes UTF-8 (BOM removed). Throws `TextDecodeError` naming the first bad byte. */
export function decodeUtf8(bytes: Uint8Array): string {
	const wide = wideEncoding(bytes);
	if (wide) {
		throw new TextDecodeError(coded('text_encoding_wide', { encoding: wide }));
	}
	try {
		return strict.decode(bytes);
	} catch {
		const at = firstInvalidUtf8(bytes);
		let lineStart = 0;
		let line = 1;
		for (let i = 0; i < at; i++) {
			if (bytes[i] === 0x0a) {
				line++;
				lineStart = i + 1;
			}
		}
		const column = lenient.decode(bytes.subarray(lineStart, at)).length + 1;
		const byte = bytes[at]?.toString(16).toUpperCase().padStart(2, '0');
		const place = { line, column };
		throw new TextDecodeError(
			byte === undefined
				? coded('text_truncated_char', place)
				: coded('text_invalid_byte', { ...place, byte: `0x${byte}` }),
			line,
			column
		);
	}
}

/**
 * Strict UTF-8 for a file of the canonical layout (manifest, stage file) read by a store, the
 * results reader or the bundle importer: a damaged file is named, never read around. Throws
 * `CheckpointError` `<label>: not UTF-8 text (line …, column …: …)`.
 */
export function decodeLayoutText(bytes: Uint8Array, label: string): string {
	try {
		return decodeUtf8(bytes);
	} catch (e) {
		if (!(e instanceof TextDecodeError)) throw e;
		throw new CheckpointError([coded('layout_not_utf8', { file: label }, { detail: [e.said] })]);
	}
}

/** `text` without a leading byte-order mark (editors on Windows add one to UTF-8 files). */
export function stripBom(text: string): string {
	return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * A byte count for people, in binary units: `812 B`, `1.5 KB`, `20 KB`, `2 MB`, `600 MB`,
 * `1.2 GB`. One decimal below 10 of a unit (dropped when it is 0), none above.
 */
export function formatBytes(bytes: number): string {
	let value = Math.max(0, bytes);
	let unit = 0;
	while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
		value /= 1024;
		unit++;
	}
	const shown =
		unit === 0 ? Math.round(value) : value < 10 ? Math.round(value * 10) / 10 : Math.round(value);
	return `${shown} ${BYTE_UNITS[unit]}`;
}

/** Offset of the first byte that starts an invalid UTF-8 sequence (RFC 3629), or the length. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
	let i = 0;
	while (i < bytes.length) {
		const b = bytes[i];
		let need: number;
		let min = 0x80;
		let max = 0xbf;
		if (b < 0x80) {
			i++;
			continue;
		} else if (b >= 0xc2 && b <= 0xdf) need = 1;
		else if (b >= 0xe0 && b <= 0xef) {
			need = 2;
			if (b === 0xe0) min = 0xa0; // overlong
			if (b === 0xed) max = 0x9f; // UTF-16 surrogates
		} else if (b >= 0xf0 && b <= 0xf4) {
			need = 3;
			if (b === 0xf0) min = 0x90;
			if (b === 0xf4) max = 0x8f;
		} else return i;
		if (i + need >= bytes.length) return i; // cut off at the end of the file
		const second = bytes[i + 1];
		if (second < min || second > max) return i;
		for (let k = 2; k <= need; k++) {
			const c = bytes[i + k];
			if (c < 0x80 || c > 0xbf) return i;
		}
		i += need + 1;
	}
	return bytes.length;
}
