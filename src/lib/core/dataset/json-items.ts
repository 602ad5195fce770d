/**
 * Reading a dataset's top-level JSON array one stretch of items at a time, so a large file is
 * never held as one decoded text and one parse tree (`validate` within 3× the file).
 *
 * `scanItems` walks the UTF-8 bytes once (no decoding, no values built) and finds each item's
 * byte extent, tracking strings, escapes and nesting; `readItems` then decodes some 64 KB
 * of consecutive items, `JSON.parse`s them (native, and its strings are fresh copies that keep
 * no decoded text alive) and turns each object into a `JsonObject` in file order.
 *
 * Both are for well-formed files only: whatever the scan does not recognise (no top-level array,
 * an empty one, a stray byte between items, nesting past {@link MAX_SCAN_DEPTH}) makes it return
 * null, and any decoding or syntax error makes `readItems` throw, and the caller then reads the
 * whole file with `parseOrderedJson`, which names the error and its place exactly as before.
 * Where `JSON.parse` would read an item differently from `parseOrderedJson` (duplicate keys: the
 * last one wins; integer-like keys: moved first; integers beyond 2^53: digits lost; escaped keys,
 * which may be either), the item is read again with `parseOrderedJson`, on its own text.
 */
import { JsonObject, JsonSyntaxError, parseOrderedJson, type JsonValue } from './ordered-json';
import {
	QUOTE,
	BACKSLASH,
	COMMA,
	COLON,
	OPEN_BRACKET,
	CLOSE_BRACKET,
	OPEN_BRACE,
	CLOSE_BRACE
} from '../text/json-bytes';

/** The items of a file's top-level array, as byte extents. */
export interface ItemScan {
	count: number;
	/** Byte offset of each item's first byte. */
	starts: Uint32Array;
	/** Byte offset just past each item. */
	ends: Uint32Array;
	/** Colons outside strings in each item: how many object entries it holds, duplicates included. */
	entries: Uint32Array;
	/** 1 where `JSON.parse` could read the item differently from `parseOrderedJson`. */
	special: Uint8Array;
}

/**
 * Far below `parseOrderedJson`'s 512 levels, so an item read on its own (one level less deep
 * than in the file) never passes a limit that the whole file's parse would stop at.
 */
export const MAX_SCAN_DEPTH = 256;

/** About this many bytes of items are decoded and parsed at once. */
const BATCH_BYTES = 64 * 1024;

/** An integer of this many digits may be beyond 2^53 (16 digits): read in order, to keep its digits. */
const LONG_DIGITS = 16;

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
const isDigit = (b: number) => b >= 0x30 && b <= 0x39;

function skipSpace(bytes: Uint8Array, pos: number): number {
	while (pos < bytes.length && isSpace(bytes[pos])) pos++;
	return pos;
}

/** Offset of the quote closing the string opened at `open`, or -1 when the file ends first. */
function stringEnd(bytes: Uint8Array, open: number): number {
	const n = bytes.length;
	let i = open + 1;
	// Keys and short values: a plain loop beats a native call per string.
	for (const stop = Math.min(n, i + 24); i < stop; i++) {
		const b = bytes[i];
		if (b === QUOTE) return i;
		if (b === BACKSLASH) i++;
	}
	if (i >= n) return -1;
	// Long texts: a native search for each quote, then count the backslashes before it.
	for (;;) {
		const q = bytes.indexOf(QUOTE, i);
		if (q < 0) return -1;
		let k = q - 1;
		while (bytes[k] === BACKSLASH) k--;
		if ((q - 1 - k) % 2 === 0) return q;
		i = q + 1;
	}
}

/** A key `JSON.parse` would not keep in place: an integer-like one, or an escaped one (which may be). */
function isSpecialKey(bytes: Uint8Array, start: number, end: number): boolean {
	let digits = start < end;
	for (let i = start; i < end; i++) {
		const b = bytes[i];
		if (b === BACKSLASH) return true;
		if (!isDigit(b)) digits = false;
	}
	return digits;
}

/**
 * The byte extents of the items of the top-level array of UTF-8 JSON `bytes` (a leading BOM
 * skipped), or null when the file is not a non-empty top-level array of the plain shape this
 * reads (the caller then parses it whole). Checks only the array's own syntax; the items are
 * checked by `readItems`. `onItem` is called after each item with the offset just past it.
 */
export function scanItems(bytes: Uint8Array, onItem?: (end: number) => void): ItemScan | null {
	const n = bytes.length;
	if (n >= 2 ** 32 - 1) return null;
	let pos = n >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
	pos = skipSpace(bytes, pos);
	if (bytes[pos] !== OPEN_BRACKET) return null;
	pos = skipSpace(bytes, pos + 1);
	if (pos >= n || bytes[pos] === CLOSE_BRACKET) return null;

	let capacity = 1024;
	let starts = new Uint32Array(capacity);
	let ends = new Uint32Array(capacity);
	let entries = new Uint32Array(capacity);
	let special = new Uint8Array(capacity);
	let count = 0;
	for (;;) {
		const start = pos;
		let colons = 0;
		let odd = 0;
		const first = bytes[pos];
		if (first === OPEN_BRACE || first === OPEN_BRACKET) {
			let depth = 0;
			let keyStart = -1;
			let keyEnd = -1;
			for (;;) {
				if (pos >= n) return null;
				const b = bytes[pos];
				if (b === QUOTE) {
					const close = stringEnd(bytes, pos);
					if (close < 0) return null;
					keyStart = pos + 1;
					keyEnd = close;
					pos = close + 1;
					continue;
				}
				if (b === OPEN_BRACE || b === OPEN_BRACKET) {
					if (++depth > MAX_SCAN_DEPTH) return null;
				} else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
					if (--depth === 0) {
						pos++;
						break;
					}
				} else if (b === COLON) {
					colons++;
					if (keyEnd < 0 || isSpecialKey(bytes, keyStart, keyEnd)) odd = 1;
				} else if (isDigit(b)) {
					const from = pos;
					while (pos < n && isDigit(bytes[pos])) pos++;
					if (pos - from >= LONG_DIGITS) odd = 1;
					continue;
				}
				pos++;
			}
		} else if (first === QUOTE) {
			const close = stringEnd(bytes, pos);
			if (close < 0) return null;
			pos = close + 1;
		} else {
			// A number or a literal: up to the next space, comma or bracket.
			while (pos < n) {
				const b = bytes[pos];
				if (isSpace(b) || b === COMMA || b === CLOSE_BRACKET) break;
				pos++;
			}
			if (pos - start >= LONG_DIGITS) odd = 1;
		}
		if (count === capacity) {
			capacity *= 2;
			starts = grow(starts, capacity);
			ends = grow(ends, capacity);
			entries = grow(entries, capacity);
			special = grow(special, capacity);
		}
		starts[count] = start;
		ends[count] = pos;
		entries[count] = colons;
		special[count] = odd;
		count++;
		onItem?.(pos);
		pos = skipSpace(bytes, pos);
		const next = bytes[pos];
		if (next === COMMA) {
			pos = skipSpace(bytes, pos + 1);
			if (pos >= n || bytes[pos] === CLOSE_BRACKET) return null;
		} else if (next === CLOSE_BRACKET) {
			if (skipSpace(bytes, pos + 1) !== n) return null;
			break;
		} else return null;
	}
	return {
		count,
		starts: starts.slice(0, count),
		ends: ends.slice(0, count),
		entries: entries.slice(0, count),
		special: special.slice(0, count)
	};
}

function grow<T extends Uint32Array | Uint8Array>(array: T, capacity: number): T {
	const bigger = new (array.constructor as new (n: number) => T)(capacity);
	bigger.set(array);
	return bigger;
}

/** Thrown by `readItems` when a stretch of the file is not well-formed UTF-8 JSON. */
export class NotWellFormed extends Error {
	override name = 'NotWellFormed';
}

// BOMs kept: one inside the file is a character, which the parse then refuses, as a whole parse would.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decode(bytes: Uint8Array): string {
	try {
		return decoder.decode(bytes);
	} catch {
		throw new NotWellFormed('invalid UTF-8');
	}
}

/**
 * Calls `visit` with each item of the scanned file in order, read as `parseOrderedJson` reads it
 * (objects as `JsonObject` in file order), a stretch of about 64 KB at a time, so at most one
 * stretch's text and values are alive besides what `visit` keeps. Throws `NotWellFormed` at the
 * first stretch that does not decode or parse; items before it have been visited.
 */
export function readItems(
	bytes: Uint8Array,
	scan: ItemScan,
	visit: (value: JsonValue, index: number) => void
): void {
	const { count, starts, ends, entries, special } = scan;
	// The stretch's bytes between "[" and "]", decoded as one flat text: JSON.parse of a
	// concatenated "[" + text + "]" takes several times as long.
	let scratch = new Uint8Array(0);
	let from = 0;
	while (from < count) {
		let to = from + 1;
		while (to < count && ends[to] - starts[from] <= BATCH_BYTES) to++;
		const length = ends[to - 1] - starts[from];
		if (scratch.length < length + 2) scratch = new Uint8Array(Math.max(length, BATCH_BYTES) + 2);
		scratch[0] = OPEN_BRACKET;
		scratch.set(bytes.subarray(starts[from], ends[to - 1]), 1);
		scratch[length + 1] = CLOSE_BRACKET;
		const text = decode(scratch.subarray(0, length + 2));
		let plain: unknown[];
		try {
			plain = JSON.parse(text) as unknown[];
		} catch {
			throw new NotWellFormed('not valid JSON');
		}
		if (plain.length !== to - from) throw new NotWellFormed('items miscounted');
		for (let i = from; i < to; i++) {
			let value: JsonValue | null = null;
			if (!special[i]) {
				const read = { entries: 0 };
				value = fromPlain(plain[i - from], read);
				// Fewer entries than colons: an object had a key twice, which JSON.parse merged.
				if (read.entries !== entries[i]) value = null;
			}
			plain[i - from] = null;
			visit(value ?? readInOrder(decode(bytes.subarray(starts[i], ends[i]))), i);
		}
		from = to;
	}
}

function readInOrder(text: string): JsonValue {
	try {
		return parseOrderedJson(text);
	} catch (e) {
		if (e instanceof JsonSyntaxError) throw new NotWellFormed(e.message);
		throw e;
	}
}

/** A `JSON.parse` value as `parseOrderedJson` gives it; counts the object entries into `read`. */
function fromPlain(v: unknown, read: { entries: number }): JsonValue {
	if (typeof v !== 'object' || v === null) return v as JsonValue;
	if (Array.isArray(v)) {
		for (let i = 0; i < v.length; i++) v[i] = fromPlain(v[i], read);
		return v as JsonValue[];
	}
	const keys = Object.keys(v);
	const values: JsonValue[] = new Array<JsonValue>(keys.length);
	for (let i = 0; i < keys.length; i++) {
		values[i] = fromPlain((v as Record<string, unknown>)[keys[i]], read);
	}
	read.entries += keys.length;
	return new JsonObject(keys, values);
}
