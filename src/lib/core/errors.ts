/** Errors a user sees. Each message names the place: case, file, line, field. */

/** An invalid or inconsistent input: dataset, flags, prompt pack, bundle. CLI exit 2. */
export class UsageError extends Error {
	override name = 'UsageError';
}

/** A saved checkpoint or manifest that does not fit this run, or a malformed file. CLI exit 2. */
export class CheckpointError extends Error {
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
