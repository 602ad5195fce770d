/**
 * Reading a round's output and error files, in the format OpenAI's Batch API, vLLM's
 * `run-batch` and the providers with the same API share: one line per request,
 * `{id, custom_id, response: {status_code, request_id, body} | null, error: {code, message} | null}`.
 * vLLM's `run_batch` writes its failures in shapes of its own, each read as a failed request:
 * `error` as its `ErrorResponse` (`{object: "error", message, type, param, code: <integer>}` in
 * older versions, `{error: {message, type, param, code}}` in newer ones) beside a response of
 * that status and no body, or as a plain string (its exception path, status 400, no body).
 *
 * An answer whose text (`content`, `reasoning_content`, `reasoning`) is neither text nor absent
 * is a failed attempt (`not_text`), kept as such: its body is never saved nor replayed.
 *
 * The files are hostile: every line is checked against the round it answers, and a custom_id
 * that is malformed, of another run, not asked in this round, or answered twice (in one file or
 * across files) is refused with its file and line, before any answer is used. A line whose
 * request the run took in an earlier round (an import run again) is passed over, not refused.
 */
import { answerTooLarge, notTextField } from '../model/read-completion';
import { z } from 'zod';
import { UsageError } from '../errors';
import { readLines, visitJsonl, type ByteSource, type SourceLine } from '../jsonl';
import { ANSWER_MARGIN_BYTES, maxResponseBytes, sizeText } from '../model/bounded-fetch';
import { coded } from '../said';
import { clipText } from '../text/clip';
import { customIdRun } from './custom-id';

/**
 * The most of one output line that is held for `maxTokens`: a body that can hold an answer within
 * the answer bound ({@link maxResponseBytes}, the bound of an interactive response) and 64 KiB
 * for the line's envelope (`id`, `custom_id`, `request_id`, status). A longer line cannot hold an
 * answer the protocol accepts (PROTOCOL.md §3): it is counted as it is read, never held whole,
 * and stands for a failed attempt (`answer_too_large`), as an interactive answer past its bound.
 */
export function maxOutputLineBytes(maxTokens: number): number {
	return maxResponseBytes(maxTokens) + ANSWER_MARGIN_BYTES;
}

/** Bytes of a line past its bound kept to find its custom_id (written first by every provider). */
const HEAD_BYTES = 4096;

/** Characters of a provider's error code and message kept with a failed request. */
const ERROR_CODE_CHARS = 64;
const ERROR_MESSAGE_CHARS = 2000;

/** `code` as providers write it: OpenAI a string, vLLM's `ErrorResponse` an integer. */
const ErrorCode = z.union([z.string(), z.number()]).nullish();
const ErrorFields = z.object({
	code: ErrorCode,
	message: z.string().nullish(),
	type: z.string().nullish(),
	param: z.string().nullish()
});
/** `error` of a line: OpenAI's `{code, message}`, vLLM's `ErrorResponse` (flat or nested), or a string. */
const LineError = z.union([z.string(), z.object({ error: ErrorFields }), ErrorFields]);

const OutputLine = z.object({
	id: z.string().nullish(),
	custom_id: z.string(),
	response: z
		.object({
			status_code: z.number().int(),
			request_id: z.string().nullish(),
			body: z.unknown()
		})
		.nullish(),
	error: LineError.nullish()
});

type ReadError = { code: string | null; message: string | null; type?: string; param?: string };

/** A line's `error`, whatever its shape, bounded. */
function readError(error: z.infer<typeof LineError>): ReadError {
	if (typeof error === 'string')
		return { code: null, message: clipText(error, ERROR_MESSAGE_CHARS) };
	const e = 'error' in error ? error.error : error;
	return {
		code:
			e.code === null || e.code === undefined ? null : clipText(String(e.code), ERROR_CODE_CHARS),
		message: e.message ? clipText(e.message, ERROR_MESSAGE_CHARS) : null,
		...(e.type ? { type: clipText(e.type, ERROR_CODE_CHARS) } : {}),
		...(e.param ? { param: clipText(e.param, ERROR_CODE_CHARS) } : {})
	};
}

/** The body an error status stands for when the line carries none: the error as OpenAI words it. */
function errorBody(error: ReadError): unknown {
	const { code, type, param } = error;
	const named = !param || (error.message ?? '').includes(param);
	const message = named
		? error.message
		: `${error.message ?? code ?? 'refused'} (parameter ${param})`;
	return { error: { message, type: type ?? null, param: param ?? null, code } };
}

/** The failed attempt an answer with non-text text stands for; any other answer as it is. */
export function textOrFailure<T extends BatchAnswer & { round?: number }>(answer: T): T {
	if (!('status' in answer) || answer.status < 200 || answer.status >= 300) return answer;
	const why = notTextField(answer.body);
	if (why === null) return answer;
	const round = answer.round === undefined ? {} : { round: answer.round };
	return { customId: answer.customId, ...round, error: { code: 'not_text', message: why } } as T;
}

/**
 * The failed attempt (`answer_too_large`) an answer larger than its request's `maxTokens` allows
 * stands for (the interactive client's rule, `answerTooLarge`); any other answer as it is. Applied
 * before an answer is saved: such an answer is never saved, and asked again in a later round.
 */
export function boundedAnswer<T extends BatchAnswer & { round?: number }>(
	answer: T,
	maxTokens: number
): T {
	if (!('status' in answer) || answer.status < 200 || answer.status >= 300) return answer;
	const choices = (answer.body as { choices?: unknown } | null)?.choices;
	const message = Array.isArray(choices) ? (choices[0] as { message?: unknown })?.message : null;
	if (message === null || typeof message !== 'object') return answer;
	const why = answerTooLarge(message as Record<string, unknown>, maxTokens);
	if (why === null) return answer;
	const round = answer.round === undefined ? {} : { round: answer.round };
	return {
		customId: answer.customId,
		...round,
		error: { code: 'answer_too_large', message: why }
	} as T;
}

/**
 * The custom_id a line past its bound names in its head, or null; the failed attempt it stands
 * for says how long it was and the bound it passed.
 */
export function longLineId(head: string): string | null {
	const match = /^\s*\{.*?"custom_id"\s*:\s*("(?:[^"\\\n]|\\.){1,200}")/s.exec(head);
	if (!match) return null;
	try {
		const id: unknown = JSON.parse(match[1]);
		return typeof id === 'string' ? id : null;
	} catch {
		return null;
	}
}

/** Why a line past its bound is a failed attempt, in the words of an interactive answer past it. */
export function longLineText(bytes: number, limit: number): string {
	return (
		`the output line is ${sizeText(bytes)} (${bytes} bytes), past the ${sizeText(limit)} ` +
		`(${limit} bytes) a line holding an answer within the answer bound may take, and was not ` +
		`read further: the provider ignored max_tokens`
	);
}

/** One request's answer: the HTTP status and body the provider gave, or its batch error. */
export type BatchAnswer =
	| { customId: string; status: number; body: unknown }
	| { customId: string; error: { code: string | null; message: string | null } };

/** Where an id was first answered, for the message that refuses a second answer. */
type Place = { file: string; line: number };

/** What a reader may be told beyond its round. */
export interface OutputReaderOptions {
	/**
	 * Bytes of one line held at most; past it a line is counted, not held, and stands for a
	 * failed attempt. @default {@link maxOutputLineBytes} of the largest `max_tokens` asked
	 */
	maxLineBytes?: number;
}

/** Reads the output and error files of one round; one reader for all of the round's files. */
export class BatchOutputReader {
	/** The round's custom_ids, each with the `max_tokens` it asked. */
	readonly #expected: ReadonlyMap<string, number>;
	readonly #runHashes: ReadonlySet<string>;
	readonly #taken: ReadonlySet<string>;
	readonly #maxLineBytes: number;
	readonly #seen = new Map<string, Place>();
	readonly #skipped: string[] = [];

	/**
	 * `expected`: the custom_ids sent in the round, each with its request's `max_tokens` (the
	 * answer bound it is read by); `runHash`: the run's (custom-id.ts), or those of every run of a
	 * plan whose rounds one import answers; `taken`: custom_ids whose answers were saved with an
	 * earlier round (an import run again): their lines are passed over ({@link skipped}), the
	 * answer saved first stands.
	 */
	constructor(
		expected: ReadonlyMap<string, number>,
		runHash: string | ReadonlySet<string>,
		taken: ReadonlySet<string> = new Set(),
		options: OutputReaderOptions = {}
	) {
		this.#expected = expected;
		this.#runHashes = typeof runHash === 'string' ? new Set([runHash]) : runHash;
		this.#taken = taken;
		this.#maxLineBytes =
			options.maxLineBytes ?? maxOutputLineBytes(Math.max(1, ...expected.values()));
	}

	/** The custom_ids of the lines passed over as taken before, in the order read. */
	skipped(): readonly string[] {
		return this.#skipped;
	}

	/**
	 * Every answer of one file, in order, read a line at a time (never the whole file at once,
	 * never more than the line bound of one line); throws `UsageError` naming the first bad line.
	 * A file that fails (a bad line, a broken download) leaves the reader as it was, so it may be
	 * read again.
	 */
	async read(source: ByteSource, file: string): Promise<BatchAnswer[]> {
		const answers: BatchAnswer[] = [];
		const seen = new Map<string, Place>();
		const skipped: string[] = [];
		const take = (answer: BatchAnswer | null) => {
			if (answer) answers.push(answer);
		};
		for await (const got of readLines(source, this.#maxLineBytes, HEAD_BYTES)) {
			if ('head' in got) {
				take(this.#long(got, file, seen, skipped));
				continue;
			}
			visitJsonl(
				got.text,
				OutputLine,
				file,
				(row, line) => take(this.#check(row, file, line, seen, skipped)),
				{ entry: 'a batch output line', tornAdvice: 'download the file again', firstLine: got.line }
			);
		}
		for (const [id, place] of seen) this.#seen.set(id, place);
		this.#skipped.push(...skipped);
		return answers;
	}

	/** The round's custom_ids no file has answered yet. */
	missing(): string[] {
		return [...this.#expected.keys()].filter((id) => !this.#seen.has(id));
	}

	/**
	 * Whether the line of `rawId` is to be read: false when its request was taken before (passed
	 * over); throws when it is of another run, not asked or answered twice.
	 */
	#claim(
		rawId: string,
		file: string,
		line: number,
		seen: Map<string, Place>,
		skipped: string[]
	): boolean {
		const id = clipText(rawId, 80);
		const run = customIdRun(rawId);
		const taken = !this.#expected.has(rawId) && this.#taken.has(rawId);
		if (run !== null && !taken && !this.#runHashes.has(run)) {
			throw new UsageError([coded('batch_id_other_run', { file, line, id })]);
		}
		if (run === null || (!taken && !this.#expected.has(rawId))) {
			throw new UsageError([coded('batch_id_unknown', { file, line, id })]);
		}
		const first = this.#seen.get(rawId) ?? seen.get(rawId);
		if (first) {
			throw new UsageError([
				coded('batch_id_twice', { file, line, id, firstFile: first.file, firstLine: first.line })
			]);
		}
		seen.set(rawId, { file, line });
		if (taken) skipped.push(rawId);
		return !taken;
	}

	/** A line past the bound: the failed attempt of the request its head names. */
	#long(
		got: Extract<SourceLine, { head: string }>,
		file: string,
		seen: Map<string, Place>,
		skipped: string[]
	): BatchAnswer | null {
		const { line, bytes } = got;
		const id = longLineId(got.head);
		if (id === null) {
			const max = this.#maxLineBytes;
			throw new UsageError([coded('batch_line_too_long', { file, line, bytes, max })]);
		}
		if (!this.#claim(id, file, line, seen, skipped)) return null;
		const limit = maxOutputLineBytes(this.#expected.get(id)!);
		return {
			customId: id,
			error: {
				code: 'answer_too_large',
				message: longLineText(bytes, Math.min(limit, this.#maxLineBytes))
			}
		};
	}

	#check(
		row: z.infer<typeof OutputLine>,
		file: string,
		line: number,
		seen: Map<string, Place>,
		skipped: string[]
	): BatchAnswer | null {
		if (!this.#claim(row.custom_id, file, line, seen, skipped)) return null;
		const customId = row.custom_id;
		const id = clipText(customId, 80);
		const error = row.error ? readError(row.error) : null;
		const response = row.response;
		const ok = response && response.status_code >= 200 && response.status_code < 300;
		// vLLM writes a failure's status with no body and its reasons in `error`.
		if (response && !ok) {
			const body = response.body ?? (error ? errorBody(error) : null);
			return { customId, status: response.status_code, body };
		}
		if (response && ((response.body !== null && response.body !== undefined) || !error)) {
			const answer = { customId, status: response.status_code, body: response.body };
			return boundedAnswer(textOrFailure(answer), this.#expected.get(customId)!);
		}
		// An error that names a parameter is the provider refusing the request (a reasoning model
		// refusing `max_tokens`): the 400 it stands for, which stops the run naming it, not a
		// failure asked again in every round.
		if (error?.param) return { customId, status: 400, body: errorBody(error) };
		if (error) return { customId, error: { code: error.code, message: error.message } };
		throw new UsageError([coded('batch_line_no_answer', { file, line, id })]);
	}
}
