/**
 * Stop in batch mode: the round a run has out is cancelled at the provider (its batches) and
 * marked cancelled in the saved state, so a later start sends its requests in a new round.
 */
import { openRound, type RoundSender } from '../batch/rounds';
import type { BatchState, BatchStore } from '../batch/store';
import type { RunKey } from '../layout';

/**
 * Cancels `run`'s round out, if any and if its sender can (provider mode); returns the state as
 * saved then, or null when nothing was cancelled.
 */
export async function cancelOpenRound(
	store: BatchStore,
	run: RunKey,
	sender: RoundSender
): Promise<BatchState | null> {
	const state = await store.readBatchState(run);
	const out = state && openRound(state);
	if (!state || !out || !sender.cancel) return null;
	await sender.cancel(out);
	const rounds = state.rounds.map((r) =>
		r.round === out.round ? { ...r, status: 'cancelled' as const } : r
	);
	const next: BatchState = { version: 1, rounds };
	await store.writeBatchState(run, next);
	return next;
}
