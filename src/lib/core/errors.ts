/**
 * Errors a user sees. Each message names the place: case, file, line, field. An error may also
 * carry `said`, its message as coded pieces (`./said.ts`) that the browser says in the
 * interface language one after the other; given only those, its message is their English
 * (`./voice.ts`). An error without them is shown in English.
 */
import type { CoreText } from './said';
import { english } from './voice';

/** The coded pieces of `error`'s message, when it has them all. */
export function saidOf(error: unknown): CoreText[] | undefined {
	if (error instanceof ModelCallError) return error.details.said;
	if (error instanceof CodedError) return error.said;
	return undefined;
}

/**
 * `said` with a piece put before and after, or undefined when the error's own message has no
 * code (then no piece of it is coded, and the whole English message is shown).
 */
export function around(
	said: CoreText[] | undefined,
	before: CoreText | null,
	after: CoreText | null
): CoreText[] | undefined {
	if (!said) return undefined;
	return [...(before ? [before] : []), ...said, ...(after ? [after] : [])];
}

/** An error whose message may come with its coded pieces, or be made of them. */
abstract class CodedError extends Error {
	readonly said?: CoreText[];
	/** Given coded pieces, its message is their English; else `message`, `said` beside it. */
	constructor(message: string | CoreText[], said?: CoreText[]) {
		super(typeof message === 'string' ? message : english(message));
		this.said = typeof message === 'string' ? said : message;
	}
}

/** An invalid or inconsistent input: dataset, flags, prompt pack, bundle. CLI exit 2. */
export class UsageError extends CodedError {
	override name = 'UsageError';
}

/** A saved checkpoint or manifest that does not fit this run, or a malformed file. CLI exit 2. */
export class CheckpointError extends CodedError {
	override name = 'CheckpointError';
}

/**
 * A stage's upstream stage file (gen's, for lca and ljp-interaction) lacks selected cases. Stages
 * that do not read it (ljp-direct, ljp-gold) still run first. CLI exit 2.
 */
export class UpstreamIncompleteError extends CheckpointError {
	override name = 'UpstreamIncompleteError';
}

/** Another writer holds the run (second tab, second CLI process). CLI exit 2. */
export class RunLockedError extends CheckpointError {
	override name = 'RunLockedError';
}

/** A model call that failed for good after its retries, naming the case. CLI exit 1. */
export class ModelCallError extends Error {
	override name = 'ModelCallError';
	constructor(
		message: string,
		readonly details: {
			caseNumber?: string;
			role?: string;
			task?: string;
			status?: number;
			/** The raw output that could not be used (judge JSON, empty or truncated text). */
			rawOutput?: string;
			/** A batch answer used again by a later pass: already logged, not logged again. */
			replayed?: boolean;
			/** Every attempt the call took (the client's retry loop), for the call log. */
			attempts?: {
				attempt: number;
				outcome: string;
				status?: number;
				reason?: string;
				latencyMs: number;
				delayMs?: number;
				rawOutput?: string;
			}[];
			/** The message as coded pieces, for the interface language (see the file header). */
			said?: CoreText[];
			/** Kind of failure, for the UI to pick an explanation. */
			kind?:
				| 'cors'
				| 'unreachable'
				| 'auth'
				| 'not_found'
				| 'bad_request'
				| 'rate_limit'
				| 'server'
				| 'timeout'
				| 'invalid_output'
				| 'aborted';
		} = {}
	) {
		super(message);
	}
}
