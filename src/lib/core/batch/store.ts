/**
 * Where a batch-mode run keeps its rounds (PROTOCOL.md §5, batch mode): a small interface of its
 * own beside `CheckpointStore`, like the call log. Two things per run, under
 * `runs/<runId>/<modelDir>/batch/`:
 * - `answers.jsonl`: every answer read from a round's output or error files, one line each
 *   (`{custom_id, response: {status_code, body}}` or `{custom_id, error}`, the output format
 *   itself), appended as a round comes back, never rewritten; the next pass replays from them.
 * - `state.json`: the rounds sent, each with its files, the provider's file and batch ids and
 *   its status, rewritten whole (atomically) on every change, so a stopped CLI or a closed tab
 *   polls a round it submitted instead of submitting it again.
 * Neither is a canonical stage file: not in a bundle, not an input of any hash, removed with the
 * run.
 */
import { z } from 'zod';
import { CheckpointError } from '../errors';
import { readLines, visitJsonl, type ByteSource } from '../jsonl';
import { SETTING_LIMITS } from '../run-defaults';
import { coded } from '../said';
import type { RunKey } from '../layout';
import { formatCount } from '../report/format';
import { longLineText, maxOutputLineBytes, textOrFailure, type BatchAnswer } from './output';
import { RoundOutcome } from './outcome';

/** How a round is sent: a provider's Batch API, or files run elsewhere (`vllm run-batch`). */
export const BatchSendMode = z.enum(['provider', 'files']);
export type BatchSendMode = z.infer<typeof BatchSendMode>;

/** One input file of a round: one per model and endpoint, cut at the provider's limits. */
export const BatchRoundFile = z.object({
	/** The file's name as written (files mode: under the batch folder) or uploaded. */
	name: z.string().max(255),
	/** Role endpoint identity (`endpointId` of names.ts) and model it is for. */
	endpoint: z.string().max(2048),
	model: z.string().max(512),
	lines: z.number().int().nonnegative(),
	bytes: z.number().int().nonnegative(),
	/**
	 * Provider mode: the SHA-256 (hex) of the file's content, saved before it is uploaded; a
	 * file with it and no `file_id` is an upload a kill may have cut short (found again by it).
	 */
	sha256: z
		.string()
		.regex(/^[0-9a-f]{64}$/)
		.optional(),
	/** Provider mode: the uploaded input file's id and the batch made from it. */
	file_id: z.string().max(256).optional(),
	batch_id: z.string().max(256).optional(),
	/** Provider's batch status as last polled (`validating`, `in_progress`, `completed`, …). */
	status: z.string().max(64).optional(),
	/** Provider mode, as last polled: the batch's request counts. */
	counts: z
		.object({
			total: z.number().int().nonnegative(),
			completed: z.number().int().nonnegative(),
			failed: z.number().int().nonnegative()
		})
		.optional(),
	/** Provider mode, as last polled: the batch's output and error files. */
	output_file_id: z.string().max(256).optional(),
	error_file_id: z.string().max(256).optional(),
	/** Provider mode: why the batch failed (`errors.data`, the first 5, messages clipped). */
	errors: z
		.array(
			z.object({
				code: z.string().max(200).nullable(),
				message: z.string().max(400).nullable(),
				line: z.number().int().nullable()
			})
		)
		.max(5)
		.optional(),
	/** How many errors the provider listed in all. */
	errors_total: z.number().int().nonnegative().optional()
});
export type BatchRoundFile = z.infer<typeof BatchRoundFile>;

/**
 * Why a batch answered nothing, from its kept errors (`errors.data`): `batch ID STATUS:` and the
 * first error (`code: message (input line N)`), with how many more; empty when it kept none.
 * Not escaped here: it is saved as the provider's words and escaped where shown.
 */
export function reasonsText(file: BatchRoundFile): string {
	const [first] = file.errors ?? [];
	if (!first) return '';
	const total = Math.max(file.errors_total ?? 0, file.errors!.length);
	const words = [first.code, first.message].filter((w) => w).join(': ') || '(no message)';
	const at = first.line === null ? '' : ` (input line ${first.line})`;
	const more = total > 1 ? ` and ${total - 1} more` : '';
	return `batch ${file.batch_id ?? ''} ${file.status ?? ''}: ${words}${at}${more}`;
}

/** What a round is doing: written (files mode, waiting for outputs), submitted, answered. */
export const BatchRoundStatus = z.enum(['written', 'submitted', 'answered', 'cancelled']);

export const BatchRound = z.object({
	round: z.number().int().positive(),
	mode: BatchSendMode,
	status: BatchRoundStatus,
	/** ISO 8601 time the round was written or submitted. */
	sent_at: z.string().max(64),
	/** Requests in the round (all files). */
	requests: z.number().int().nonnegative(),
	/**
	 * Rounds the longest chain of dependent calls still needs from this round on, this one
	 * included, if no request fails (the longest `chain` of its requests).
	 */
	chain_ahead: z.number().int().nonnegative().optional(),
	files: z.array(BatchRoundFile).max(100_000),
	/**
	 * A pass that used this round's answers stopped the run on a request failed for good: the next
	 * start asks again every failure of this round and the ones before (as an interactive rerun).
	 */
	stopped_on_failure: z.literal(true).optional(),
	/** Once answered: its answers and failed requests by kind, with the first message of each. */
	outcome: RoundOutcome.optional()
});
export type BatchRound = z.infer<typeof BatchRound>;

export const BatchState = z.object({
	version: z.literal(1),
	rounds: z.array(BatchRound).max(10_000)
});
export type BatchState = z.infer<typeof BatchState>;

export interface BatchStore {
	/** The run's saved round state, validated; null when the run never ran in batch mode. */
	readBatchState(run: RunKey): Promise<BatchState | null>;
	/** Replaces the run's round state (atomically: a crash leaves the old or the new one). */
	writeBatchState(run: RunKey, state: BatchState): Promise<void>;
	/** Appends answers (flushed before resolving), in the given order, with their `round`. */
	appendBatchAnswers(run: RunKey, answers: readonly SavedBatchAnswer[]): Promise<void>;
	/**
	 * Every saved answer, in written order; [] when there is none. A torn last line (a crash
	 * mid-append) is dropped, any other bad line rejects naming `batch/answers.jsonl` and its line.
	 */
	readBatchAnswers(run: RunKey): Promise<SavedBatchAnswer[]>;
}

/**
 * An answer as saved: with the round it came back in, so the pass that first uses it (and only
 * that pass, also after a restart) writes its call-log line.
 */
export type SavedBatchAnswer = BatchAnswer & { round?: number };

/** True when `store` also keeps batch rounds. */
export function isBatchStore(store: unknown): store is BatchStore {
	const s = store as Partial<BatchStore> | null;
	return (
		typeof s?.readBatchState === 'function' &&
		typeof s?.writeBatchState === 'function' &&
		typeof s?.appendBatchAnswers === 'function' &&
		typeof s?.readBatchAnswers === 'function'
	);
}

const SavedAnswer = z.object({
	custom_id: z.string().max(64),
	round: z.number().int().positive().optional(),
	response: z.object({ status_code: z.number().int(), body: z.unknown() }).optional(),
	error: z.object({ code: z.string().nullable(), message: z.string().nullable() }).optional()
});

/** One line of `batch/answers.jsonl`, in the batch output format, `\n`-terminated. */
export function batchAnswerLine(answer: SavedBatchAnswer): string {
	const round = answer.round === undefined ? {} : { round: answer.round };
	const row =
		'error' in answer
			? { custom_id: answer.customId, ...round, error: answer.error }
			: {
					custom_id: answer.customId,
					...round,
					response: { status_code: answer.status, body: answer.body }
				};
	return `${JSON.stringify(row)}\n`;
}

/**
 * The most of one saved answer line held: the line bound of the largest `max_tokens` a run may
 * ask. An answer saved within its own bound is far below; a longer line (saved by an older
 * version, which saved answers past the bound) is read as the failed attempt it stands for.
 */
const MAX_SAVED_LINE_BYTES = maxOutputLineBytes(SETTING_LIMITS.max_tokens.max);

/**
 * The answers of a saved `batch/answers.jsonl` (`file` names it in errors), read a line at a
 * time, never the file whole, so a run whose answers grew large still opens. A last line without
 * its line end is a crash mid-append and is dropped (its round is asked again). An answer whose
 * text is not text, or a line past the bound (both saved by an older version), is read as the
 * failed attempt it is. `maxLineBytes` is for tests. @default the bound of the largest max_tokens
 */
export async function parseBatchAnswers(
	source: ByteSource,
	file: string,
	maxLineBytes = MAX_SAVED_LINE_BYTES
): Promise<SavedBatchAnswer[]> {
	const answers: SavedBatchAnswer[] = [];
	const options = { entry: 'a saved batch answer', firstLine: 0 };
	for await (const got of readLines(source, maxLineBytes)) {
		// A torn last line (no line end) is dropped, whatever it holds.
		if ('text' in got ? !got.text.endsWith('\n') : !got.ended) break;
		if ('head' in got) {
			answers.push(longAnswer(got, file, maxLineBytes));
			continue;
		}
		options.firstLine = got.line;
		visitJsonl(
			got.text,
			SavedAnswer,
			file,
			(row, line) => answers.push(savedAnswer(row, file, line)),
			options
		);
	}
	return answers;
}

/**
 * The failed attempt a saved line past the bound stands for, with the custom_id and round its
 * head starts with (as {@link batchAnswerLine} writes them); refused when it does not.
 */
function longAnswer(got: { line: number; bytes: number; head: string }, file: string, max: number) {
	const start = /^\{"custom_id":("(?:[^"\\]|\\.){1,64}")(?:,"round":(\d{1,9}))?,/.exec(got.head);
	const id: unknown = start ? JSON.parse(start[1]) : null;
	if (typeof id !== 'string' || id.length > 64) {
		const [chars, most] = [got.bytes, max].map(formatCount);
		const at = { file, line: got.line, chars, max: most };
		const name = [coded('jsonl_named', { name: 'a saved batch answer' })];
		throw new CheckpointError([coded('jsonl_line_too_long', at, { name })]);
	}
	const round = start![2] === undefined ? {} : { round: Number(start![2]) };
	const error = { code: 'answer_too_large', message: longLineText(got.bytes, max) };
	return { customId: id, ...round, error } satisfies SavedBatchAnswer;
}

/** One saved answer line's answer. */
function savedAnswer(
	row: z.infer<typeof SavedAnswer>,
	file: string,
	line: number
): SavedBatchAnswer {
	const round = row.round === undefined ? {} : { round: row.round };
	if (row.response) {
		const { status_code: status, body } = row.response;
		return textOrFailure({ customId: row.custom_id, ...round, status, body });
	}
	if (row.error) return { customId: row.custom_id, ...round, error: row.error };
	throw new CheckpointError([coded('batch_answer_empty', { file, line })]);
}

/**
 * A saved `batch/state.json` text, validated; `file` names it in the refusal (coded, so both
 * languages say it): not JSON, or not a batch state (with the first field that is wrong).
 */
export function parseBatchState(text: string, file: string): BatchState {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		throw new CheckpointError([coded('batch_state_not_json', { file })]);
	}
	const parsed = BatchState.safeParse(value);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new CheckpointError([
			coded('batch_state_invalid', {
				file,
				field: issue.path.join('.') || '(state)',
				detail: issue.message
			})
		]);
	}
	return parsed.data;
}
