/**
 * The saved answers a pass may use. While a round is out (written or submitted), only those of
 * earlier rounds: a crash between appending a round's answers and marking it answered leaves some
 * or all of them saved, and a pass that used them would recompute another round's requests than
 * the one out. Without them the round's requests are recomputed as sent, and its answers read
 * again (provider: from its batches; files mode: by the next import).
 */
import type { BatchState, SavedBatchAnswer } from './store';

/** Answers by custom_id; with `open`, those saved with an earlier round (or none) only. */
export function knownAnswers(
	saved: readonly SavedBatchAnswer[],
	open: number | null
): Map<string, SavedBatchAnswer> {
	const known = new Map<string, SavedBatchAnswer>();
	for (const a of saved) {
		if (open === null || a.round === undefined || a.round < open) known.set(a.customId, a);
	}
	return known;
}

/**
 * The last round whose failures a stopped run already reported (`stopped_on_failure`), or 0: a
 * start after it asks those requests again instead of stopping on them once more.
 */
export function reportedRound(state: BatchState | null): number {
	const stopped = state?.rounds.filter((r) => r.stopped_on_failure) ?? [];
	return Math.max(0, ...stopped.map((r) => r.round));
}

/** `askAgain` of the batch client: the answer came back in a round up to `reported`. */
export function askedBefore(
	answers: ReadonlyMap<string, SavedBatchAnswer>,
	reported: number
): (customId: string) => boolean {
	return (id) => reported > 0 && (answers.get(id)?.round ?? 0) <= reported;
}
