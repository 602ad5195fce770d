/**
 * How the engine tells where a run stopped: one way to restate an error (`restated`: the same
 * kind, a message that says more, the coded pieces for the interface language, the original as
 * `cause`), used to name the case (`naming`), to say what is saved (`resumable`, `withHint`) and
 * to report a stop.
 */
import type { Case } from '../dataset/types';
import { around, CheckpointError, ModelCallError, saidOf, UsageError } from '../errors';
import { coded, type CoreText } from '../said';
import { escapeControl } from '../text/escape-control';
import type { StageName } from './types';

/**
 * `error` as the same kind of error (`ModelCallError` with its details, `UsageError`,
 * `CheckpointError`, else `Error`) with `message` and `said`, the original kept as `cause`.
 * `details` fills in what a `ModelCallError` does not say itself.
 */
export function restated(
	error: unknown,
	message: string,
	said: CoreText[] | undefined,
	details: ModelCallError['details'] = {}
): Error {
	const cause = { cause: error };
	let out: Error;
	if (error instanceof ModelCallError) {
		out = new ModelCallError(message, { ...details, ...error.details, said });
	} else if (error instanceof UsageError) out = new UsageError(message, said);
	else if (error instanceof CheckpointError) out = new CheckpointError(message, said);
	else out = new Error(message);
	return Object.assign(out, cause);
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Puts the case (zero-based position, as the dataset report shows it, and case_number) in front of an error that lacks it. */
export function naming(error: unknown, stage: StageName, kase: Case): Error {
	const where = `${stage} stopped at case #${kase.index} (case_number ${escapeControl(String(kase.case_number))})`;
	const place = coded('run_stopped_at_case', {
		stage,
		index: kase.index,
		caseNumber: kase.case_number
	});
	return restated(error, `${where}: ${messageOf(error)}`, around(saidOf(error), place, null), {
		caseNumber: kase.case_number
	});
}

/** The same error, telling how many cases of the stage are saved and how to go on. */
export function resumable(error: unknown, done: number, total: number): Error {
	const hint = `\n${done} of ${total} cases are saved; fix the cause and run the same command again to resume.`;
	const said = around(saidOf(error), null, coded('run_saved_cases', { done, total }));
	return restated(error, messageOf(error) + hint, said);
}

/** What is saved of each stage of a run, for the messages that stop it. */
export interface SavedSummary {
	text: string;
	params: { done: number; total: number; perStage: string };
}

/** The error that stopped a run of stages together, telling what is saved and how to go on. */
export function withHint(error: unknown, saved: SavedSummary): Error {
	const hint = `\n${saved.text}; fix the cause and run the same command again to resume.`;
	const said = around(saidOf(error), null, coded('run_saved_stages', saved.params));
	return restated(error, messageOf(error) + hint, said);
}

/** One stage stopped on request. */
export function stageStopped(stage: StageName, done: number, total: number): ModelCallError {
	return new ModelCallError(
		`${stage} stopped on request; ${done} of ${total} cases are saved. Run the same command again to resume.`,
		{ kind: 'aborted', said: [coded('stage_stopped_on_request', { stage, done, total })] }
	);
}

/** Stages run together stopped on request. */
export function runStopped(saved: SavedSummary): ModelCallError {
	return new ModelCallError(
		`run stopped on request; ${saved.text}. Run the same command again to resume.`,
		{ kind: 'aborted', said: [coded('run_stopped_on_request', saved.params)] }
	);
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
