/**
 * A CLI command of one run (`run`, a stage command, `rejudge`, `run --batch`): a session of that
 * one run. Its result, or the error that ended it thrown as the command's (exit 1 or 2 as
 * always); a run its spending cap stopped says so and gives `EXIT_CAPPED`.
 */
import type { RunStagesResult } from '../../lib/core/engine/open-engine';
import {
	openSession,
	type RunOutcome,
	type Session,
	type SessionOptions,
	type SessionRun
} from '../../lib/core/session';
import type { CliIo } from '../types';
import { cappedText, EXIT_CAPPED, stopWhenCapped } from './spend-flags';

/** How the one run ended: completed (its result and outcome), or capped (its exit code). */
export type OneRunEnd =
	{ capped: false; result: RunStagesResult; outcome: RunOutcome } | { capped: true; code: number };

/** Runs `run` to its end in a session of its own; throws what ended it unless it completed. */
export async function runOne(
	run: SessionRun,
	options: Omit<SessionOptions, 'runs'>,
	io: Pick<CliIo, 'stderr'>
): Promise<OneRunEnd> {
	let session: Session | null = null;
	session = openSession({
		...options,
		runs: [run],
		onSnapshot: stopWhenCapped(() => session?.stop(), options.onSnapshot)
	});
	const { runs, snapshot } = await session.done;
	const [outcome] = runs;
	if (outcome.status === 'done' || outcome.status === 'waiting') {
		return { capped: false, result: outcome.result!, outcome };
	}
	if (snapshot.spend?.capped) {
		io.stderr(cappedText(snapshot));
		return { capped: true, code: EXIT_CAPPED };
	}
	throw outcome.error;
}
