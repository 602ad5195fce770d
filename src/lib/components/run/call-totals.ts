/**
 * The Run page's calls and tokens by role: this start's, from its progress, and after a resume
 * the run's, which adds what the call log held before this start (`state/earlier-calls.ts`).
 */
import type { StageName, StageProgress } from '$lib/core/engine/types';
import { ROLES, type Role } from '$lib/core/record-names';
import type { EarlierCalls, RoleCalls } from '$lib/state/earlier-calls';

export interface RoleCallRow {
	role: Role;
	/** The run's totals: every start's. */
	run: RoleCalls;
	/** This start's part; null when nothing came before it (the run's totals are this start's). */
	sinceStart: RoleCalls | null;
}

/** One row per role. */
export function roleCallRows(
	stages: readonly StageName[],
	progress: Partial<Record<StageName, StageProgress>>,
	earlier: EarlierCalls | null
): RoleCallRow[] {
	return ROLES.map((role) => {
		const now: RoleCalls = { calls: 0, prompt: 0, completion: 0 };
		for (const s of stages) {
			const p = progress[s];
			if (!p) continue;
			now.calls += p.calls[role];
			now.prompt += p.tokens[role].prompt;
			now.completion += p.tokens[role].completion;
		}
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
