/**
 * The JSON objects written somewhere in a model's answer (prose, a fenced block, or bare), found
 * in time linear in the answer's length (PROTOCOL.md §3): a judge answer is provider text, and
 * one of 100,000 `{` must cost milliseconds, not the time that scanning from every `{` to its
 * match took (quadratic: 2 s for 20,000 `{` already, about a minute for 100,000).
 *
 * Two passes over the text:
 * 1. **Pairing.** One left-to-right pass with a stack of open `{`. Inside an open brace, JSON
 *    strings are followed (a `"` opens or closes one, `\` escapes the next character), so a brace
 *    in a string is text; outside every brace a `"` is prose and ignored. A raw line break ends a
 *    string, as JSON strings hold none: an unpaired `"` in prose inside braces hides at most the
 *    rest of its line. Each `}` that closes an open `{` gives a span; spans come out in the order
 *    of their end, an object's inner objects before it.
 * 2. **Reading.** Each span is read as JSON, in that order, by a small parser that steps over an
 *    inner object by its already-read result instead of reading it again. So every character is
 *    read by one span at most (the innermost holding it), and nesting costs no recursion for
 *    objects; arrays nest at most {@link MAX_ARRAY_DEPTH} deep inside one object.
 *
 * A span that is no JSON object (prose in braces, `{a}`) is skipped; the objects inside it still
 * count. Values are built as `JSON.parse` builds them: a repeated key keeps its last value, and
 * `__proto__` is an own key like any other.
 */
import { QUOTE, BACKSLASH, OPEN_BRACE, CLOSE_BRACE, LF, CR } from '../text/json-bytes';

/** One JSON object of the text: where it starts and ends (exclusive), and its value. */
export interface FoundObject {
	start: number;
	end: number;
	value: Record<string, unknown>;
}

/** Arrays nested deeper than this inside one object make it no candidate. */
export const MAX_ARRAY_DEPTH = 64;

/**
 * Every JSON object in `text`, in the order of its end (so an object comes after the objects it
 * holds, and the answer's last object comes last). `work` counts the characters both passes
 * looked at, at most twice the text's length: the tests hold the parser to that.
 */
export function findJsonObjects(text: string): { objects: FoundObject[]; work: number } {
	const spans = pairBraces(text);
	const reader = new SpanReader(text);
	const objects: FoundObject[] = [];
	for (let k = 0; k < spans.length; k += 2) {
		const start = spans[k];
		const end = spans[k + 1];
		const value = reader.object(start, end);
		if (value) objects.push({ start, end, value });
	}
	return { objects, work: text.length + reader.work };
}

/** `start, end` (end exclusive) of each balanced `{…}`, flat, in the order of their end. */
function pairBraces(text: string): number[] {
	const open: number[] = [];
	const spans: number[] = [];
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (inString) {
			if (c === BACKSLASH) i++;
			else if (c === QUOTE || c === LF || c === CR) inString = false;
		} else if (c === OPEN_BRACE) open.push(i);
		else if (open.length === 0) continue;
		else if (c === QUOTE) inString = true;
		else if (c === CLOSE_BRACE) spans.push(open.pop()!, i + 1);
	}
	return spans;
}

/** Thrown inside a {@link SpanReader} when the span is not JSON; never leaves this module. */
const NOT_JSON = Symbol('not JSON');

/**
 * Reads spans of one text as JSON objects, in the order of their end; an inner object is taken
 * from its own, earlier read (`done`), by where it starts.
 */
class SpanReader {
	work = 0;
	private i = 0;
	private end = 0;
	/** End of each span read as an object, by its start (0: none, or not an object). */
	private readonly ends: Int32Array;
	private readonly values = new Map<number, Record<string, unknown>>();

	constructor(private readonly text: string) {
		this.ends = new Int32Array(text.length);
	}

	/** The span's object, or null when `[start, end)` is not exactly one JSON object. */
	object(start: number, end: number): Record<string, unknown> | null {
		this.i = start;
		this.end = end;
		try {
			const value = this.members();
			if (this.i !== end) return null;
			this.ends[start] = end;
			this.values.set(start, value);
			return value;
		} catch (e) {
			if (e === NOT_JSON) return null;
			throw e;
		}
	}

	/** The object whose `{` is at the cursor, read here: its members up to `}`. */
	private members(): Record<string, unknown> {
		this.expect(OPEN_BRACE);
		const value: Record<string, unknown> = {};
		this.blanks();
		if (this.peek() === CLOSE_BRACE) {
			this.i++;
			return value;
		}
		for (;;) {
			this.blanks();
			const key = this.string();
			this.blanks();
			this.expect(0x3a); // :
			const member = this.value(0);
			// As JSON.parse: `__proto__` is an own key, not the object's prototype.
			if (key === '__proto__') Object.defineProperty(value, key, OWN(member));
			else value[key] = member;
			this.blanks();
			const c = this.next();
			if (c === CLOSE_BRACE) return value;
			if (c !== 0x2c) throw NOT_JSON; // ,
		}
	}

	private value(depth: number): unknown {
		this.blanks();
		const c = this.peek();
		if (c === OPEN_BRACE) return this.inner();
		if (c === 0x5b) return this.array(depth + 1); // [
		if (c === QUOTE) return this.string();
		if (c === 0x74) return this.word('true', true);
		if (c === 0x66) return this.word('false', false);
		if (c === 0x6e) return this.word('null', null);
		return this.number();
	}

	/** An inner object: already read as a span of its own, so stepped over. */
	private inner(): Record<string, unknown> {
		const end = this.ends[this.i];
		if (end === 0 || end > this.end) throw NOT_JSON;
		const value = this.values.get(this.i)!;
		this.i = end;
		return value;
	}

	private array(depth: number): unknown[] {
		if (depth > MAX_ARRAY_DEPTH) throw NOT_JSON;
		this.i++;
		const items: unknown[] = [];
		this.blanks();
		if (this.peek() === 0x5d) {
			this.i++;
			return items;
		}
		for (;;) {
			items.push(this.value(depth));
			this.blanks();
			const c = this.next();
			if (c === 0x5d) return items; // ]
			if (c !== 0x2c) throw NOT_JSON;
		}
	}

	private string(): string {
		this.expect(QUOTE);
		let out = '';
		let from = this.i;
		for (;;) {
			const c = this.next();
			if (c === QUOTE) return out + this.text.slice(from, this.i - 1);
			if (c < 0x20) throw NOT_JSON;
			if (c !== BACKSLASH) continue;
			out += this.text.slice(from, this.i - 1);
			const e = this.next();
			const simple = ESCAPES[e];
			if (simple !== undefined) out += simple;
			else if (e === 0x75) {
				// \uXXXX
				const hex = this.text.slice(this.i, this.i + 4);
				if (!/^[0-9a-fA-F]{4}$/.test(hex) || this.i + 4 > this.end) throw NOT_JSON;
				this.i += 4;
				this.work += 4;
				out += String.fromCharCode(parseInt(hex, 16));
			} else throw NOT_JSON;
			from = this.i;
		}
	}

	private number(): number {
		// Sticky, from the cursor: the match costs the number's own length, and it cannot run past
		// the span, which ends in `}`.
		NUMBER.lastIndex = this.i;
		const m = NUMBER.exec(this.text);
		if (!m) throw NOT_JSON;
		this.i += m[0].length;
		this.work += m[0].length;
		return Number(m[0]);
	}

	private word<T>(word: string, value: T): T {
		if (this.i + word.length <= this.end && this.text.startsWith(word, this.i)) {
			this.i += word.length;
			this.work += word.length;
			return value;
		}
		throw NOT_JSON;
	}

	private blanks(): void {
		for (;;) {
			const c = this.peek();
			if (c !== 0x20 && c !== 0x09 && c !== LF && c !== CR) return;
			this.i++;
			this.work++;
		}
	}

	private expect(code: number): void {
		if (this.next() !== code) throw NOT_JSON;
	}

	private peek(): number {
		return this.i < this.end ? this.text.charCodeAt(this.i) : -1;
	}

	private next(): number {
		if (this.i >= this.end) throw NOT_JSON;
		this.work++;
		return this.text.charCodeAt(this.i++);
	}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

const OWN = (value: unknown): PropertyDescriptor => ({
	value,
	writable: true,
	enumerable: true,
	configurable: true
});

const ESCAPES: Record<number, string> = {
	0x22: '"',
	0x5c: '\\',
	0x2f: '/',
	0x62: '\b',
	0x66: '\f',
	0x6e: '\n',
	0x72: '\r',
	0x74: '\t'
};
