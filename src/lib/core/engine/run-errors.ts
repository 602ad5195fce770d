/**
 * How the engine tells where a run stopped: one way to restate an error (`restated`: the same
 * kind, said with a coded piece before or after its own, the original as `cause`), used to name the case (`naming`), to say what is saved (`resumable`, `withHint`) and
 * to report a stop.
 */
import type { Case } from '../dataset/types';
import { around, CheckpointError, ModelCallError, saidOf, UsageError } from '../errors';
import { coded, type CoreText } from '../said';
import { english } from '../voice';
import type { StageName } from './types';

/**
 * `error` as the same kind of error (`ModelCallError` with its details, `UsageError`,
 * `CheckpointError`, else `Error`), said with `before` and `after` around its own words, the
 * original kept as `cause`. Its message is the English of those pieces; an error whose own
 * words have no code keeps them as they are, between the English of the two pieces.
 * `details` fills in what a `ModelCallError` does not say itself.
 */
export function restated(
	error: unknown,
	before: CoreText | null,
	after: CoreText | null,
	details: ModelCallError['details'] = {}
): Error {
	const said = around(saidOf(error), before, after);
	const message = said
		? english(said)
		: (before ? english(before) : '') + messageOf(error) + (after ? english(after) : '');
	const cause = { cause: error };
	let out: Error;
	if (error instanceof ModelCallError) {
		out = new ModelCallError(message, { ...details, ...error.details, said });
	} else if (error instanceof UsageError) out = new UsageError(message, said);
	else if (error instanceof CheckpointError) out = new CheckpointError(message, said);
	else out = new Error(message);
	return Object.assign(out, cause);
}

/** An error's message, or what was thrown as text. */
export const messageOf = (error: unknown) =>
	error instanceof Error ? error.message : String(error);

/** Puts the case (zero-based position, as the dataset report shows it, and case_number) in front of an error that lacks it. */
export function naming(error: unknown, stage: StageName, kase: Case): Error {
	const place = coded('run_stopped_at_case', {
		stage,
		index: kase.index,
		caseNumber: kase.case_number
	});
	return restated(error, place, null, { caseNumber: kase.case_number });
}

/** The same error, telling how many cases of the stage are saved and how to go on. */
export function resumable(error: unknown, done: number, total: number): Error {
	return restated(error, null, coded('run_saved_cases', { done, total }));
}

/** What is saved of each stage of a run, for the messages that stop it. */
export interface SavedSummary {
	done: number;
	total: number;
	/** `gen 2, dcg 3, …`: the cases saved of each stage. */
	perStage: string;
}

/** The error that stopped a run of stages together, telling what is saved and how to go on. */
export function withHint(error: unknown, saved: SavedSummary): Error {
	return restated(error, null, coded('run_saved_stages', { ...saved }));
}

/** One stage stopped on request. */
export function stageStopped(stage: StageName, done: number, total: number): ModelCallError {
	return stopped(coded('stage_stopped_on_request', { stage, done, total }));
}

/** Stages run together stopped on request. */
export function runStopped(saved: SavedSummary): ModelCallError {
	return stopped(coded('run_stopped_on_request', { ...saved }));
}

function stopped(said: CoreText): ModelCallError {
	return new ModelCallError(english(said), { kind: 'aborted', said: [said] });
}

/**
 * Releases the run's lock. When the run failed already, a failing release (a disk turned
 * read-only cannot unlink the lock file) must not replace that failure, which says where the
 * stage stopped and how many cases are saved: its message gets a line about the lock instead.
 */
export async function releaseKeepingFailure(
	release: () => Promise<void>,
	failure: unknown
): Promise<void> {
	try {
		await release();
	} catch (cleanup) {
		if (failure === null) throw cleanup;
		if (failure instanceof Error) {
			failure.message += `\nAlso, the run's lock could not be released: ${(cleanup as Error).message}`;
		}
	}
}
