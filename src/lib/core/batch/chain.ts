/**
 * Chains of dependent calls, which set how many rounds a batch run takes: the rounds a run can
 * still expect, and the longest chain as measured.
 */
import { stageChain } from '../engine/priority';
import type { StageName } from '../engine/types';
import type { BatchRound, SavedBatchAnswer } from './store';

/**
 * Rounds the longest chain of dependent calls still needs if no request fails, after `last`
 * (the run's last round): a round out or cancelled still has its whole `chain_ahead` to go (a
 * cancelled round's requests are asked again), an answered one all but itself. Null for a round
 * saved before `chain_ahead` was kept.
 */
export function roundsLeft(last: BatchRound): number | null {
	if (last.chain_ahead === undefined) return null;
	return last.status === 'answered' ? Math.max(0, last.chain_ahead - 1) : last.chain_ahead;
}

/**
 * The rounds a run should take in all if no request fails (each retry on the longest chain adds
 * one): before its first round, the longest chain its `stages` can make (11 with gen); then the
 * rounds sent before the round out and what is left. Null when the saved round does not say.
 */
export function roundsToExpect(
	last: BatchRound | null | undefined,
	stages: readonly StageName[]
): number | null {
	if (!last) return Math.max(1, ...stages.map(stageChain));
	const left = roundsLeft(last);
	if (left === null) return null;
	// A round out is one of the rounds left; so is a cancelled one, unless it was sent.
	const spent =
		last.status === 'answered' || (last.status === 'cancelled' && last.files.length > 0);
	return (spent ? last.round : last.round - 1) + left;
}

/**
 * The longest chain of dependent calls, as measured: for each case (the case part of its
 * custom_ids, every stage together), the number of rounds that carried a request of it; the
 * longest over the cases. A run that wastes no round takes exactly that many rounds.
 */
export function longestChain(answers: Iterable<SavedBatchAnswer>): number {
	const rounds = new Map<string, Set<number>>();
	for (const a of answers) {
		if (a.round === undefined) continue;
		const kase = a.customId.split('.')[3] ?? '';
		const seen = rounds.get(kase) ?? new Set<number>();
		seen.add(a.round);
		rounds.set(kase, seen);
	}
	let longest = 0;
	for (const seen of rounds.values()) longest = Math.max(longest, seen.size);
	return longest;
}
