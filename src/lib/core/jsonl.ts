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
		const at = { file: fileLabel, line: i + 1 };
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
		visit(parsed.data, i + 1);
	}
}
