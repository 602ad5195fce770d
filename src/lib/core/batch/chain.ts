/**
 * The longest chain of dependent calls, as measured: for each case (the case part of its
 * custom_ids, every stage together), the number of rounds that carried a request of it; the
 * longest over the cases. A run that wastes no round takes exactly that many rounds.
 */
import type { SavedBatchAnswer } from './store';

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
