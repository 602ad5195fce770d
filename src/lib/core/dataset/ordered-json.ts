/**
 * An order-preserving JSON reader. `JSON.parse` moves integer-like object keys ("1", "20")
 * ahead of the others, which would silently reorder `result_dict` claims; this parser keeps
 * every object as its entries in file order (duplicates included, so callers can report
 * them) and names line and column on a syntax error.
 */

/** A JSON value as read from the file, objects kept as ordered entries. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

/** A JSON object in file order. Duplicate keys are kept, in order, for the caller to report. */
export class JsonObject {
	/**
	 * @param rawNumbers for each value that is an integer too large to keep exactly (beyond
	 *   2^53), its index in `values` → the digits as written, so messages can quote them
	 */
	constructor(
		readonly keys: string[],
		readonly values: JsonValue[],
		readonly rawNumbers: ReadonlyMap<number, string> | null = null
	) {}

	/** The digits as written of the first value under `key`, when it is an integer beyond 2^53. */
	rawNumber(key: string): string | undefined {
		const i = this.keys.indexOf(key);
		return i < 0 ? undefined : this.rawNumbers?.get(i);
	}

	/** The first value stored under `key`, or undefined. */
	get(key: string): JsonValue | undefined {
		const i = this.keys.indexOf(key);
		return i < 0 ? undefined : this.values[i];
	}

	has(key: string): boolean {
		return this.keys.includes(key);
	}

	/** Keys that occur more than once, each named once, in file order. */
	duplicateKeys(): string[] {
		if (this.keys.length < 2) return [];
		const seen = new Set<string>();
		const dups = new Set<string>();
		for (const k of this.keys) (seen.has(k) ? dups : seen).add(k);
		return [...dups];
	}
}

/** A syntax error at a 1-based line and column (columns count UTF-16 code units). */
export class JsonSyntaxError extends Error {
	override name = 'JsonSyntaxError';
	constructor(
		readonly detail: string,
		readonly line: number,
		readonly column: number
	) {
		super(`line ${line}, column ${column}: ${detail}`);
	}
}

/** Deeper nesting than any dataset needs; it keeps a hostile file from exhausting the stack. */
const MAX_DEPTH = 512;

/** A backslash or a control character: the string needs the careful character loop. */
// eslint-disable-next-line no-control-regex
const NEEDS_CARE = /[\\\u0000-\u001f]/;

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

const ESCAPES: Record<string, string> = {
	'"': '"',
	'\\': '\\',
	'/': '/',
	b: '\b',
	f: '\f',
	n: '\n',
	r: '\r',
	t: '\t'
};

/** Options of {@link parseOrderedJson}. */
export interface ParseOptions {
	/**
	 * Called after each item of a top-level array with the offset just past it, so a caller
	 * can report progress through a large file.
	 */
	onTopLevelItem?: (end: number) => void;
}

/** Parses JSON text (no BOM) into ordered values. Throws `JsonSyntaxError`. */
export function parseOrderedJson(text: string, options: ParseOptions = {}): JsonValue {
	let pos = 0;
	/** The text of the number parseValue read last, when it was an integer beyond 2^53. */
	let unsafeNumber: string | null = null;
	const onTopLevelItem = options.onTopLevelItem;

	const fail = (detail: string, at = pos): never => {
		const { line, column } = lineColumn(text, at);
		throw new JsonSyntaxError(detail, line, column);
	};

	const describe = (at: number): string =>
		at >= text.length ? 'the end of the file' : `"${String.fromCodePoint(text.codePointAt(at)!)}"`;

	const skipSpace = () => {
		for (;;) {
			const c = text.charCodeAt(pos);
			// space, \t, \n, \r
			if (c === 32 || c === 9 || c === 10 || c === 13) pos++;
			else return;
		}
	};

	const parseString = (): string => {
		// pos is at the opening quote
		const start = ++pos;
		// Fast path: most strings hold no escape or control character, so one native search
		// for the closing quote and one regex test replace a loop over every character.
		const close = text.indexOf('"', start);
		if (close !== -1) {
			const plain = text.slice(start, close);
			if (!NEEDS_CARE.test(plain)) {
				pos = close + 1;
				return plain;
			}
		}
		let out = '';
		let chunk = start;
		for (;;) {
			if (pos >= text.length) fail('unterminated string (missing closing ")', start - 1);
			const c = text.charCodeAt(pos);
			if (c === 34) {
				out += text.slice(chunk, pos);
				pos++;
				return out;
			}
			if (c === 92) {
				out += text.slice(chunk, pos);
				const e = text[pos + 1];
				if (e === 'u') {
					const hex = text.slice(pos + 2, pos + 6);
					if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('invalid \\u escape (needs 4 hex digits)');
					out += String.fromCharCode(parseInt(hex, 16));
					pos += 6;
				} else if (e !== undefined && e in ESCAPES) {
					out += ESCAPES[e];
					pos += 2;
				} else {
					fail(`invalid escape "\\${e ?? ''}" in a string`);
				}
				chunk = pos;
				continue;
			}
			if (c < 32) {
				fail(
					c === 10 || c === 13
						? 'line break inside a string (write it as \\n, or close the string)'
						: 'control character inside a string (escape it)'
				);
			}
			pos++;
		}
	};

	const parseValue = (depth: number): JsonValue => {
		skipSpace();
		const c = text[pos];
		if (c === '"') return parseString();
		if (c === '{' || c === '[') {
			if (depth >= MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels`);
			return c === '{' ? parseObject(depth + 1) : parseArray(depth + 1);
		}
		if (c === 't' && text.startsWith('true', pos)) return ((pos += 4), true);
		if (c === 'f' && text.startsWith('false', pos)) return ((pos += 5), false);
		if (c === 'n' && text.startsWith('null', pos)) return ((pos += 4), null);
		NUMBER.lastIndex = pos;
		const m = NUMBER.exec(text);
		if (m) {
			pos += m[0].length;
			const n = Number(m[0]);
			if (Number.isInteger(n) && !Number.isSafeInteger(n) && /^-?\d+$/.test(m[0])) {
				unsafeNumber = m[0];
			}
			return n;
		}
		return fail(`expected a value, found ${describe(pos)}`);
	};

	/** After an item: true at `close` (passed), else past the comma to the next item. */
	const closes = (close: ']' | '}', item: string): boolean => {
		skipSpace();
		const c = text[pos];
		if (c !== ',' && c !== close)
			fail(`expected "," or "${close}" after ${item}, found ${describe(pos)}`);
		pos++;
		if (c === close) return true;
		skipSpace();
		if (text[pos] === close) fail(`trailing comma before "${close}"`);
		return false;
	};

	const parseArray = (depth: number): JsonValue[] => {
		pos++;
		const items: JsonValue[] = [];
		skipSpace();
		if (text[pos] === ']') return (pos++, items);
		for (;;) {
			items.push(parseValue(depth));
			if (depth === 1 && onTopLevelItem) onTopLevelItem(pos);
			if (closes(']', 'an array item')) return items.length > 16 ? items : items.slice();
		}
	};

	// A dataset repeats the same few keys in every case: one string each, not one per object.
	const knownKeys = new Map<string, string>();
	const parseKey = (): string => {
		const key = parseString();
		const known = knownKeys.get(key);
		if (known !== undefined) return known;
		if (knownKeys.size < 10_000) knownKeys.set(key, key);
		return key;
	};

	const parseObject = (depth: number): JsonObject => {
		pos++;
		const keys: string[] = [];
		const values: JsonValue[] = [];
		let rawNumbers: Map<number, string> | null = null;
		skipSpace();
		if (text[pos] === '}') return (pos++, new JsonObject(keys, values));
		for (;;) {
			skipSpace();
			if (text[pos] !== '"') fail(`expected a quoted key, found ${describe(pos)}`);
			keys.push(parseKey());
			skipSpace();
			if (text[pos] !== ':') fail(`expected ":" after a key, found ${describe(pos)}`);
			pos++;
			unsafeNumber = null;
			const value = parseValue(depth);
			values.push(value);
			if (typeof value === 'number' && unsafeNumber !== null) {
				(rawNumbers ??= new Map()).set(values.length - 1, unsafeNumber);
			}
			unsafeNumber = null;
			// Exact-size copies: a grown array keeps spare room, most of a small object's memory.
			if (closes('}', 'an object entry'))
				return new JsonObject(keys.slice(), values.slice(), rawNumbers);
		}
	};

	skipSpace();
	if (pos >= text.length) fail('the file is empty');
	const value = parseValue(0);
	skipSpace();
	if (pos < text.length) fail(`unexpected ${describe(pos)} after the end of the JSON value`);
	return value;
}

/** 1-based line and column of a string offset; only computed on error, so a plain scan is fine. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
	let line = 1;
	let lineStart = 0;
	for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
		line++;
		lineStart = i + 1;
	}
	return { line, column: offset - lineStart + 1 };
}

/** Converts an ordered value to plain JS objects and arrays (for a duplicate key the last wins). */
export function toPlain(value: JsonValue): unknown {
	if (value instanceof JsonObject) {
		const out: Record<string, unknown> = {};
		value.keys.forEach((k, i) => {
			// defineProperty, because assigning a "__proto__" key from the file would set the prototype
			Object.defineProperty(out, k, {
				value: toPlain(value.values[i]),
				enumerable: true,
				writable: true,
				configurable: true
			});
		});
		return out;
	}
	if (Array.isArray(value)) return value.map(toPlain);
	return value;
}

/** A short name of a value's JSON type for messages: "string", "array", "object", "null"… */
export function jsonTypeOf(value: JsonValue | undefined): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	if (value instanceof JsonObject) return 'object';
	if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
	return typeof value;
}
