/** JSONL reading and writing with errors that name the file and line. */
import { formatCount } from './report/format';
import { coded, type CoreText } from './said';
import type { z } from 'zod';
import { CheckpointError } from './errors';
import { stripBom } from './text';

/** One record a line, `\n`-terminated, UTF-8 as written by the caller. */
export function toJsonLine(record: unknown): string {
	return `${JSON.stringify(record)}\n`;
}

/**
 * Parses JSONL text, validating every line with `schema`. Blank lines are allowed only at
 * the end; any other problem throws `CheckpointError` naming `fileLabel` and the 1-based line.
 * A final line without its newline is a truncated write and is reported as such; zero bytes
 * anywhere are damage, reported as that (no resume repairs them).
 */
export function parseJsonl<S extends z.ZodType>(
	text: string,
	schema: S,
	fileLabel: string,
	options: JsonlOptions = {}
): z.infer<S>[] {
	const records: z.infer<S>[] = [];
	visitJsonl(text, schema, fileLabel, (record) => records.push(record), options);
	return records;
}

/** How a kind of JSONL file is read beyond its schema. */
export interface JsonlOptions {
	/**
	 * Longest line accepted (`chars`, its `\r` included), refused unparsed beyond: "more than the
	 * 1,000,000 `name` may hold". @default no limit
	 */
	maxLine?: { chars: number; name: Words };
	/** What a line that fails the schema is not, e.g. `a call-log entry`. @default the field alone */
	entry?: Words;
	/** What the user does about a cut-off last line. @default remove it and resume */
	tornAdvice?: Words;
	/**
	 * The 1-based number in its file of the text's first line, for a file read a line at a time;
	 * a byte-order mark is dropped only before line 1. @default 1
	 */
	firstLine?: number;
}

/**
 * Words a message puts in: a coded part (`jsonl_call_log_line`), said in each language; a string
 * is said as given, in every language.
 */
type Words = CoreText | string;

const part = (words: Words): CoreText[] => [
	typeof words === 'string' ? coded('jsonl_named', { name: words }) : words
];

/**
 * `parseJsonl`, handing each validated record to `visit` (with its 1-based line) instead of
 * collecting them, so a caller that keeps only part of each record (a resume keeps heads) need
 * not hold every whole record at once. Errors as `parseJsonl`, thrown before any later record
 * is visited.
 */
export function visitJsonl<S extends z.ZodType>(
	text: string,
	schema: S,
	fileLabel: string,
	visit: (record: z.infer<S>, line: number) => void,
	options: JsonlOptions = {}
): void {
	const first = options.firstLine ?? 1;
	const body = first === 1 ? stripBom(text) : text;
	const nul = body.indexOf('\u0000');
	if (nul !== -1) {
		// Zeros are no JSON at all: a file system that lost data after a crash, or a damaged copy,
		// fills with them. Not a cut-off write that resuming would repair.
		const line = body.slice(0, nul).split('\n').length + first - 1;
		throw new CheckpointError([coded('jsonl_zero_bytes', { file: fileLabel, line })]);
	}
	if (body.length > 0 && !body.endsWith('\n')) {
		let line = first;
		for (let at = body.indexOf('\n'); at !== -1; at = body.indexOf('\n', at + 1)) line++;
		const at = { file: fileLabel, line };
		throw new CheckpointError([
			options.tornAdvice === undefined
				? coded('jsonl_torn_line', at)
				: coded('jsonl_torn_line_advised', at, { advice: part(options.tornAdvice) })
		]);
	}
	let start = 0;
	for (let i = first - 1; start < body.length; i++) {
		const end = body.indexOf('\n', start);
		const max = options.maxLine;
		if (max && end - start > max.chars) {
			const [chars, most] = [end - start, max.chars].map(formatCount);
			const at = { file: fileLabel, line: i + 1, chars, max: most };
			throw new CheckpointError([coded('jsonl_line_too_long', at, { name: part(max.name) })]);
		}
		const raw = body.slice(start, end);
		start = end + 1;
		const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
		visit(parseJsonlLine(line, schema, { file: fileLabel, line: i + 1 }, options), i + 1);
	}
}

/**
 * One line of a JSONL file (without its line break) parsed and checked against `schema`, the
 * error naming `at` as `parseJsonl` names it: for a store that keeps lines as rows, so a file's
 * records are read without joining the rows into text and splitting it again.
 */
export function parseJsonlLine<S extends z.ZodType>(
	line: string,
	schema: S,
	at: { file: string; line: number },
	options: Pick<JsonlOptions, 'entry'> = {}
): z.infer<S> {
	if (line.trim() === '') {
		throw new CheckpointError([coded('jsonl_empty_line', at)]);
	}
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch (e) {
		throw new CheckpointError([coded('jsonl_not_json', { ...at, detail: (e as Error).message })]);
	}
	const parsed = schema.safeParse(value);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		const detail = issue.message;
		if (options.entry) {
			const entry = { entry: part(options.entry) };
			throw new CheckpointError([
				issue.path.length
					? coded('jsonl_not_entry_field', { ...at, field: issue.path.join('.'), detail }, entry)
					: coded('jsonl_not_entry_line', { ...at, detail }, entry)
			]);
		}
		throw new CheckpointError([
			issue.path.length
				? coded('jsonl_bad_field', { ...at, field: issue.path.join('.'), detail })
				: coded('jsonl_bad_record', { ...at, detail })
		]);
	}
	return parsed.data;
}

/**
 * A file's bytes as they arrive: a web stream (`File.stream()`, a fetch body), any async iterable
 * of byte pieces (a Node read stream), or a text already in memory.
 */
export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | string;

/**
 * One line of a file read a piece at a time ({@link readLines}): its text with its `\n` (none on a
 * last line cut off), or, past the bound, its length in bytes (`\n` not counted), whether it had
 * its `\n`, and the text of its first `headBytes`: the rest was counted and dropped as it arrived,
 * never held.
 */
export type SourceLine =
	{ line: number; text: string } | { line: number; bytes: number; head: string; ended: boolean };

/** The pieces of a source, a web stream read through its reader (cancelled when left early). */
async function* piecesOf(source: ByteSource): AsyncGenerator<Uint8Array> {
	if (typeof source === 'string') {
		yield new TextEncoder().encode(source);
		return;
	}
	if (!('getReader' in source)) {
		yield* source;
		return;
	}
	const reader = source.getReader();
	let done = false;
	try {
		for (;;) {
			const next = await reader.read();
			if (next.done) break;
			yield next.value;
		}
		done = true;
	} finally {
		if (!done) await reader.cancel().catch(() => {});
		reader.releaseLock();
	}
}

/**
 * The lines of `source`, one at a time, the way every JSONL file that may be large is read
 * (batch output and error files, `batch/answers.jsonl`): no more than `maxLineBytes` of a line is
 * held, and no more than one line of the file. A longer line is handed over as its length and
 * head. Bytes are decoded as UTF-8 (a bad sequence becomes U+FFFD, as a whole-file read did), a
 * byte-order mark kept for {@link visitJsonl} to drop before line 1.
 */
export async function* readLines(
	source: ByteSource,
	maxLineBytes: number,
	headBytes = 4096
): AsyncGenerator<SourceLine> {
	const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
	let parts: Uint8Array[] = [];
	let held = 0;
	let bytes = 0;
	/** The line so far is past the bound: only its head is held. */
	let over = false;
	let line = 1;
	const join = () => {
		if (parts.length === 1) return parts[0];
		const all = new Uint8Array(held);
		let at = 0;
		for (const p of parts) {
			all.set(p, at);
			at += p.length;
		}
		return all;
	};
	const finish = (ended: boolean): SourceLine => {
		const whole = join();
		const done: SourceLine = over
			? { line, bytes: bytes - (ended ? 1 : 0), head: decoder.decode(whole), ended }
			: { line, text: decoder.decode(whole) };
		[parts, held, bytes, over] = [[], 0, 0, false];
		line++;
		return done;
	};
	for await (const chunk of piecesOf(source)) {
		let from = 0;
		while (from < chunk.length) {
			const nl = chunk.indexOf(10, from);
			const to = nl === -1 ? chunk.length : nl + 1;
			bytes += to - from;
			if (!over) {
				parts.push(chunk.subarray(from, to));
				held += to - from;
				if (bytes - (nl === -1 ? 0 : 1) > maxLineBytes) {
					// Past the bound: the head is copied (so the pieces it came in can go), the rest
					// of the line only counted.
					over = true;
					parts = [join().slice(0, headBytes)];
					held = parts[0].length;
				}
			}
			from = to;
			if (nl !== -1) yield finish(true);
		}
	}
	if (bytes > 0) yield finish(false);
}
