/**
 * Redaction of API keys in text a provider sent back (an error body, an echoed header), before
 * it is shown or logged. Providers echo keys in many shapes: whole, minus a character, inside a
 * base64 `Basic` credential, URL-encoded in a quoted URL. So any run of {@link MIN_RUN} or more
 * characters of a key, of its base64 (standard or URL-safe, at any alignment) or of its
 * URL-encoded form is replaced with `[key]`.
 */

/** The shortest run of a key's characters that counts as the key. */
export const MIN_RUN = 8;
const MARK = '[key]';

/** Base64 of `bytes` (standard alphabet, padded), without depending on Node or the DOM. */
function base64(bytes: Uint8Array): string {
	const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
	let out = '';
	for (let i = 0; i < bytes.length; i += 3) {
		const [a, b, c] = [bytes[i], bytes[i + 1], bytes[i + 2]];
		out += abc[a >> 2] + abc[((a & 3) << 4) | ((b ?? 0) >> 4)];
		out += b === undefined ? '=' : abc[((b & 15) << 2) | ((c ?? 0) >> 6)];
		out += c === undefined ? '=' : abc[c & 63];
	}
	return out;
}

/**
 * The strings whose runs betray `key`: the key, its URL-encoded form, and the parts of its
 * base64 that do not depend on the bytes around it (for each of the three alignments).
 */
function forms(key: string): string[] {
	const out = new Set([key, encodeURIComponent(key)]);
	const bytes = new TextEncoder().encode(key);
	for (let shift = 0; shift < 3; shift++) {
		const shifted = new Uint8Array(shift + bytes.length);
		shifted.set(bytes, shift);
		let b = base64(shifted);
		// The first group mixes in the bytes before the key, the last one those after it.
		if (shift > 0) b = b.slice(4);
		b = b.slice(0, Math.max(0, b.length - 4));
		if (b.length >= MIN_RUN) {
			out.add(b);
			out.add(b.replace(/\+/g, '-').replace(/\//g, '_'));
		}
	}
	return [...out];
}

/**
 * `text` with every run of {@link MIN_RUN}+ characters of any of `keys` (or of their base64 or
 * URL-encoded forms) replaced with `[key]`. A key shorter than that is replaced where it occurs
 * whole (4 characters at least: shorter "keys" are placeholders, not secrets).
 */
export function redactKeys(text: string, keys: readonly string[]): string {
	const windows = new Set<string>();
	let out = text;
	for (const key of keys) {
		if (key.length >= MIN_RUN) {
			for (const form of forms(key)) {
				for (let i = 0; i + MIN_RUN <= form.length; i++) windows.add(form.slice(i, i + MIN_RUN));
			}
		} else if (key.length >= 4) out = out.split(key).join(MARK);
	}
	if (windows.size === 0 || out.length < MIN_RUN) return out;
	// Mark every character covered by a window of a key, then replace each marked run once.
	const covered = new Uint8Array(out.length);
	let any = false;
	for (let i = 0; i + MIN_RUN <= out.length; i++) {
		if (windows.has(out.slice(i, i + MIN_RUN))) {
			covered.fill(1, i, i + MIN_RUN);
			any = true;
		}
	}
	if (!any) return out;
	let result = '';
	for (let i = 0; i < out.length;) {
		if (covered[i]) {
			result += MARK;
			while (i < out.length && covered[i]) i++;
		} else {
			const start = i;
			while (i < out.length && !covered[i]) i++;
			result += out.slice(start, i);
		}
	}
	return result;
}
