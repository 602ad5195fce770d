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
import { notTextField } from '../model/read-completion';
import { z } from 'zod';
import { UsageError } from '../errors';
import { visitJsonl } from '../jsonl';
import { coded } from '../said';
import { clipText } from '../text/clip';
import { customIdRun } from './custom-id';

/** Longest output line read: an answer is bounded by max_tokens (PROTOCOL.md §3), far below. */
const MAX_LINE_CHARS = 64 * 1024 * 1024;

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

/** One request's answer: the HTTP status and body the provider gave, or its batch error. */
export type BatchAnswer =
	| { customId: string; status: number; body: unknown }
	| { customId: string; error: { code: string | null; message: string | null } };

/** Where an id was first answered, for the message that refuses a second answer. */
type Place = { file: string; line: number };

/** Reads the output and error files of one round; one reader for all of the round's files. */
export class BatchOutputReader {
	readonly #expected: ReadonlySet<string>;
	readonly #runHashes: ReadonlySet<string>;
	readonly #taken: ReadonlySet<string>;
	readonly #seen = new Map<string, Place>();
	readonly #skipped: string[] = [];

	/**
	 * `expected`: the custom_ids sent in the round; `runHash`: the run's (custom-id.ts), or those
	 * of every run of a plan whose rounds one import answers; `taken`: custom_ids whose answers
	 * were saved with an earlier round (an import run again): their lines are passed over
	 * ({@link skipped}), the answer saved first stands.
	 */
	constructor(
		expected: ReadonlySet<string>,
		runHash: string | ReadonlySet<string>,
		taken: ReadonlySet<string> = new Set()
	) {
		this.#expected = expected;
		this.#runHashes = typeof runHash === 'string' ? new Set([runHash]) : runHash;
		this.#taken = taken;
	}

	/** The custom_ids of the lines passed over as taken before, in the order read. */
	skipped(): readonly string[] {
		return this.#skipped;
	}

	/** Every answer of one file, in order; throws `UsageError` naming the first bad line. */
	read(text: string, file: string): BatchAnswer[] {
		const answers: BatchAnswer[] = [];
		const take = (row: z.infer<typeof OutputLine>, line: number) => {
			const answer = this.#check(row, file, line);
			if (answer) answers.push(answer);
		};
		visitJsonl(text, OutputLine, file, take, {
			maxLine: { chars: MAX_LINE_CHARS, name: 'a batch output line' },
			entry: 'a batch output line',
			tornAdvice: 'download the file again'
		});
		return answers;
	}

	/** The round's custom_ids no file has answered yet. */
	missing(): string[] {
		return [...this.#expected].filter((id) => !this.#seen.has(id));
	}

	#check(row: z.infer<typeof OutputLine>, file: string, line: number): BatchAnswer | null {
		const id = clipText(row.custom_id, 80);
		const run = customIdRun(row.custom_id);
		const taken = !this.#expected.has(row.custom_id) && this.#taken.has(row.custom_id);
		if (run !== null && !taken && !this.#runHashes.has(run)) {
			throw new UsageError([coded('batch_id_other_run', { file, line, id })]);
		}
		if (run === null || (!taken && !this.#expected.has(row.custom_id))) {
			throw new UsageError([coded('batch_id_unknown', { file, line, id })]);
		}
		const first = this.#seen.get(row.custom_id);
		if (first) {
			throw new UsageError([
				coded('batch_id_twice', { file, line, id, firstFile: first.file, firstLine: first.line })
			]);
		}
		this.#seen.set(row.custom_id, { file, line });
		if (taken) {
			this.#skipped.push(row.custom_id);
			return null;
		}
		const customId = row.custom_id;
		const error = row.error ? readError(row.error) : null;
		const response = row.response;
		const ok = response && response.status_code >= 200 && response.status_code < 300;
		// vLLM writes a failure's status with no body and its reasons in `error`.
		if (response && !ok) {
			const body = response.body ?? (error ? errorBody(error) : null);
			return { customId, status: response.status_code, body };
		}
		if (response && ((response.body !== null && response.body !== undefined) || !error)) {
			return textOrFailure({ customId, status: response.status_code, body: response.body });
		}
		// An error that names a parameter is the provider refusing the request (a reasoning model
		// refusing `max_tokens`): the 400 it stands for, which stops the run naming it, not a
		// failure asked again in every round.
		if (error?.param) return { customId, status: 400, body: errorBody(error) };
		if (error) return { customId, error: { code: error.code, message: error.message } };
		throw new UsageError([coded('batch_line_no_answer', { file, line, id })]);
	}
}
