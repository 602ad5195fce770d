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
import { escapeControl } from '../../lib/core/text/escape-control';
import type { CliIo } from '../types';
import { cappedText, EXIT_CAPPED, stopWhenCapped } from './spend-flags';

/** How the one run ended: completed (its result and outcome), or capped (its exit code). */
export type OneRunEnd =
	{ capped: false; result: RunStagesResult; outcome: RunOutcome } | { capped: true; code: number };

/**
 * Runs `run` to its end in a session of its own; throws what ended it unless it completed. A
 * command's progress `printer` is ended as the run ends, then a completed run's warnings follow.
 */
export async function runOne(
	run: SessionRun,
	options: Omit<SessionOptions, 'runs'>,
	io: Pick<CliIo, 'stderr'>,
	printer?: { end(): void }
): Promise<OneRunEnd> {
	let session: Session | null = null;
	let outcome: RunOutcome;
	try {
		session = openSession({
			...options,
			runs: [run],
			onSnapshot: stopWhenCapped(() => session?.stop(), options.onSnapshot)
		});
		const { runs, snapshot } = await session.done;
		[outcome] = runs;
		if (outcome.status !== 'done' && outcome.status !== 'waiting') {
			if (!snapshot.spend?.capped) throw outcome.error;
			io.stderr(cappedText(snapshot));
			return { capped: true, code: EXIT_CAPPED };
		}
	} finally {
		printer?.end();
	}
	const result = outcome.result!;
	if (printer) for (const w of result.warnings) io.stderr(`warning: ${escapeControl(w)}\n`);
	return { capped: false, result, outcome };
}
