/**
 * Reading a round's output and error files, in the format OpenAI's Batch API, vLLM's
 * `run-batch` and the providers with the same API share: one line per request,
 * `{id, custom_id, response: {status_code, request_id, body} | null, error: {code, message} | null}`.
 *
 * The files are hostile: every line is checked against the round it answers, and a custom_id
 * that is malformed, of another run, not asked in this round, or answered twice (in one file or
 * across files) is refused with its file and line, before any answer is used.
 */
import { z } from 'zod';
import { UsageError } from '../errors';
import { visitJsonl } from '../jsonl';
import { coded } from '../said';
import { clipText } from '../text/clip';
import { customIdRun } from './custom-id';

/** Longest output line read: an answer is bounded by max_tokens (PROTOCOL.md §3), far below. */
const MAX_LINE_CHARS = 64 * 1024 * 1024;

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
	error: z.object({ code: z.string().nullish(), message: z.string().nullish() }).nullish()
});

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
	readonly #seen = new Map<string, Place>();

	/**
	 * `expected`: the custom_ids sent in the round; `runHash`: the run's (custom-id.ts), or those
	 * of every run of a plan whose rounds one import answers.
	 */
	constructor(expected: ReadonlySet<string>, runHash: string | ReadonlySet<string>) {
		this.#expected = expected;
		this.#runHashes = typeof runHash === 'string' ? new Set([runHash]) : runHash;
	}

	/** Every answer of one file, in order; throws `UsageError` naming the first bad line. */
	read(text: string, file: string): BatchAnswer[] {
		const answers: BatchAnswer[] = [];
		visitJsonl(text, OutputLine, file, (row, line) => answers.push(this.#check(row, file, line)), {
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

	#check(row: z.infer<typeof OutputLine>, file: string, line: number): BatchAnswer {
		const id = clipText(row.custom_id, 80);
		const run = customIdRun(row.custom_id);
		if (run !== null && !this.#runHashes.has(run)) {
			throw new UsageError([coded('batch_id_other_run', { file, line, id })]);
		}
		if (run === null || !this.#expected.has(row.custom_id)) {
			throw new UsageError([coded('batch_id_unknown', { file, line, id })]);
		}
		const first = this.#seen.get(row.custom_id);
		if (first) {
			throw new UsageError([
				coded('batch_id_twice', { file, line, id, firstFile: first.file, firstLine: first.line })
			]);
		}
		this.#seen.set(row.custom_id, { file, line });
		if (row.response) {
			return { customId: row.custom_id, status: row.response.status_code, body: row.response.body };
		}
		if (row.error) {
			return {
				customId: row.custom_id,
				error: { code: row.error.code ?? null, message: row.error.message ?? null }
			};
		}
		throw new UsageError([coded('batch_line_no_answer', { file, line, id })]);
	}
}
