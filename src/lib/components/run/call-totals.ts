/**
 * The Run page's calls and tokens by role: this start's, from its progress, and after a resume
 * the run's, which adds what the call log held before this start (`core/control/earlier-calls.ts`).
 */
import type { RunSnapshot } from '$lib/core/engine/types';
import { ROLES, type Role } from '$lib/core/record-names';
import type { EarlierCalls, RoleCalls } from '$lib/core/control/earlier-calls';

export interface RoleCallRow {
	role: Role;
	/** The run's totals: every start's. */
	run: RoleCalls;
	/** This start's part; null when nothing came before it (the run's totals are this start's). */
	sinceStart: RoleCalls | null;
}

/** One row per role, from the run's progress (null: not opened yet). */
export function roleCallRows(
	progress: RunSnapshot | null,
	earlier: EarlierCalls | null
): RoleCallRow[] {
	return ROLES.map((role) => {
		const now: RoleCalls = {
			calls: progress?.calls.byRole[role] ?? 0,
			prompt: progress?.tokens[role].prompt ?? 0,
			completion: progress?.tokens[role].completion ?? 0
		};
		if (!earlier) return { role, run: now, sinceStart: null };
		const before = earlier.byRole[role];
		const run = {
			calls: before.calls + now.calls,
			prompt: before.prompt + now.prompt,
			completion: before.completion + now.completion
		};
		return { role, run, sinceStart: now };
	});
}

/** Answered calls of every role: the run's and this start's part (null: no earlier start). */
export function callSum(rows: readonly RoleCallRow[]): { run: number; sinceStart: number | null } {
	const run = rows.reduce((n, r) => n + r.run.calls, 0);
	const since = rows.some((r) => r.sinceStart)
		? rows.reduce((n, r) => n + (r.sinceStart?.calls ?? 0), 0)
		: null;
	return { run, sinceStart: since };
}
