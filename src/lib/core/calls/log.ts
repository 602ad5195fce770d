/** Writing and reading call-log lines: keys redacted, fields bounded, every line validated. */
import { coded } from '../said';
import { parseJsonl } from '../jsonl';
import { MIN_KEY_LENGTH } from '../store/key-free';
import { CallLogEntry, MAX_CALL_FIELD_CHARS, MAX_CALL_LINE_CHARS } from './schema';

/** What a key becomes in a call-log line. */
export const REDACTED = '[key]';

/** The text fields a line may cut to stay bounded, longest-lived first. */
const CUTTABLE = ['prompt', 'response', 'reasoning', 'raw_content'] as const;

/** Replaces every key (of at least `MIN_KEY_LENGTH` characters) in every string of `value`. */
function redactDeep(value: unknown, keys: readonly string[]): unknown {
	if (typeof value === 'string') {
		return keys.reduce(
			(text, key) => (text.includes(key) ? text.split(key).join(REDACTED) : text),
			value
		);
	}
	if (Array.isArray(value)) return value.map((v) => redactDeep(v, keys));
	if (value !== null && typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value).map(([k, v]) => [redactDeep(k, keys) as string, redactDeep(v, keys)])
		);
	}
	return value;
}

function cut(entry: CallLogEntry, limit: number): CallLogEntry {
	const out: Record<string, unknown> = { ...entry };
	const truncated = new Set(entry.truncated ?? []);
	for (const field of CUTTABLE) {
		const text = out[field];
		if (typeof text === 'string' && text.length > limit) {
			out[field] =
				`${text.slice(0, limit)}\n[… ${(text.length - limit).toLocaleString('en')} more characters not kept]`;
			truncated.add(field);
		}
	}
	out.attempts = entry.attempts.map((a) =>
		a.raw_output && a.raw_output.length > 2000
			? { ...a, raw_output: a.raw_output.slice(0, 2000) }
			: a
	);
	if (truncated.size) out.truncated = [...truncated];
	return out as CallLogEntry;
}

/** True when some string of `value` (a key of an object included) holds one of `keys`. */
function holdsKey(value: unknown, keys: readonly string[]): boolean {
	if (typeof value === 'string') return keys.some((key) => value.includes(key));
	if (Array.isArray(value)) return value.some((v) => holdsKey(v, keys));
	if (value !== null && typeof value === 'object') {
		for (const [k, v] of Object.entries(value)) {
			if (holdsKey(k, keys) || holdsKey(v, keys)) return true;
		}
	}
	return false;
}

/**
 * The fields of a line whose values come from outside the engine's own code: the run's model id,
 * the dataset's case number, and what the provider answered (finish reason, usage, the status
 * and timings of each attempt, the error). The engine makes every other field itself, of a type
 * the schema takes (ids, enums, counters, the prompt and the split response, always strings).
 */
const FROM_OUTSIDE = CallLogEntry.pick({
	model: true,
	case_number: true,
	finish_reason: true,
	usage: true,
	latency_ms: true,
	attempts: true,
	error: true
});

/**
 * The JSONL line of one call (`\n`-terminated): every key in `keys` replaced by `[key]` (a
 * provider may echo it in an error), text fields over `MAX_CALL_FIELD_CHARS` cut and named in
 * `truncated`, and the whole line below `MAX_CALL_LINE_CHARS`. The fields from outside the
 * engine are validated against the schema (`FROM_OUTSIDE`), so a writer cannot save a line a
 * reader would refuse; the line is not parsed again as a whole, which cost more than any other
 * check of a call (PERFORMANCE.md, "CLI `run` end to end").
 */
export function callLogLine(entry: CallLogEntry, keys: Iterable<string> = []): string {
	const secrets = [...keys].filter((k) => typeof k === 'string' && k.length >= MIN_KEY_LENGTH);
	// Copied with the keys replaced only where one occurs (the line of nearly every call has none).
	let value = holdsKey(entry, secrets) ? (redactDeep(entry, secrets) as CallLogEntry) : entry;
	FROM_OUTSIDE.parse({
		model: value.model,
		case_number: value.case_number,
		finish_reason: value.finish_reason,
		usage: value.usage,
		latency_ms: value.latency_ms,
		attempts: value.attempts,
		error: value.error
	});
	let line = JSON.stringify(cut(value, MAX_CALL_FIELD_CHARS));
	// Escapes can make a bounded field longer in JSON than in memory; cut harder then.
	if (line.length >= MAX_CALL_LINE_CHARS) {
		value = cut(value, MAX_CALL_FIELD_CHARS / 20);
		line = JSON.stringify(value);
	}
	return `${line}\n`;
}

/**
 * Parses the text of a calls.jsonl by the JSONL rules of every stage file (`parseJsonl`), plus a
 * bound on each line: a line over `MAX_CALL_LINE_CHARS`, not JSON, or not a call-log entry throws
 * `CheckpointError` naming `fileLabel` and the line. A final line without its line end is a write
 * cut off by a crash: reported too (a store that appends drops such a tail first, `dropTornTail`).
 */
export function parseCallLog(text: string, fileLabel: string): CallLogEntry[] {
	return parseJsonl(text, CallLogEntry, fileLabel, {
		maxLine: { chars: MAX_CALL_LINE_CHARS, name: coded('jsonl_call_log_line', {}) },
		entry: coded('jsonl_call_log_entry', {}),
		tornAdvice: coded('jsonl_call_log_torn', {})
	});
}

/** Text of a calls file with a cut-off last line (a crash mid-write) dropped. */
export function dropTornTail(text: string): string {
	if (text === '' || text.endsWith('\n')) return text;
	const end = text.lastIndexOf('\n');
	return end === -1 ? '' : text.slice(0, end + 1);
}
