/** A session of batch runs (a plan in batch mode), each with its sender, to its end. */
import type { BatchRunOptions, RoundSender } from '../../../src/lib/core/batch/rounds';
import { openSession, type RunOutcome } from '../../../src/lib/core/session';

export async function batchSession(
	runs: readonly { options: BatchRunOptions; sender: RoundSender }[]
): Promise<RunOutcome[]> {
	const session = openSession({
		runs: runs.map(({ options, sender }) => ({
			...options,
			mode: { kind: 'batch', stages: options.stages, sender }
		}))
	});
	return (await session.done).runs;
}
