/**
 * What a run's call log held before this start: the calls and tokens of its earlier starts, per
 * role, so the Run page shows the run's totals after a Resume, with this start's part beside
 * them (its progress counts only what this start did). Read once, under the run's lock and before
 * the engine writes, so no line of this start is in it.
 */
import { callTotals } from '../calls/totals';
import { isCallLog } from '../calls/types';
import type { RunKey } from '../layout';
import { ROLES, type Role } from '../record-names';

/** Answered calls and tokens of one role. */
export interface RoleCalls {
	calls: number;
	prompt: number;
	completion: number;
}

/** The run's calls before this start, from its call log. */
export interface EarlierCalls {
	byRole: Record<Role, RoleCalls>;
}

/**
 * The earlier starts' calls in `store`'s log of `run`; null when the log holds none (a new run,
 * or a store without a log). A log that cannot be read gives null too: it never stops a run.
 */
export async function earlierCalls(store: unknown, run: RunKey): Promise<EarlierCalls | null> {
	if (!isCallLog(store)) return null;
	try {
		const entries = await store.readCalls(run);
		if (entries.length === 0) return null;
		const totals = callTotals(entries);
		const byRole = Object.fromEntries(
			ROLES.map((r) => {
				const g = totals.by_role[r];
				// Answered calls, as the progress counts them (a call that failed for good is no answer).
				const calls = g.calls - g.failed;
				return [r, { calls, prompt: g.tokens.prompt, completion: g.tokens.completion }];
			})
		) as Record<Role, RoleCalls>;
		return { byRole };
	} catch {
		return null;
	}
}
