/**
 * How many model calls a run will make, before it starts (PROTOCOL.md §4), from the calls per
 * case of each stage that `$lib/core/protocol` declares (gen's a range: its interaction stops
 * early on a judgment).
 */
import { ROLES, type Role } from '$lib/core/record-names';
import { CALLS_PER_CASE, STAGE_NAMES, type CallRange, type StageName } from '$lib/core/protocol';

type PerRole = Record<Role, CallRange>;

const r = (min: number, max = min): CallRange => ({ min, max });

// `plan-cost.ts` reads these here.
export { CALLS_PER_CASE, type CallRange };

export interface StageEstimate {
	stage: StageName;
	/** Cases the stage still has to run. */
	cases: number;
	calls: CallRange;
	byRole: PerRole;
}

export interface CallEstimate {
	stages: StageEstimate[];
	total: CallRange;
	byRole: PerRole;
}

const add = (a: CallRange, b: CallRange): CallRange => ({ min: a.min + b.min, max: a.max + b.max });
const times = (a: CallRange, n: number): CallRange => ({ min: a.min * n, max: a.max * n });
const zero = (): PerRole => ({ evaluated: r(0), user: r(0), judge: r(0) });

/**
 * The calls of `stages` over `cases` selected cases, minus cases already saved per stage.
 * Retries and re-asked judges come on top; they are not predictable.
 */
export function estimateCalls(
	stages: readonly StageName[],
	cases: number,
	saved: Partial<Record<StageName, number>> = {}
): CallEstimate {
	const ordered = STAGE_NAMES.filter((s) => stages.includes(s));
	const out: StageEstimate[] = ordered.map((stage) => {
		const todo = Math.max(0, cases - (saved[stage] ?? 0));
		const byRole = zero();
		let calls = r(0);
		for (const role of ROLES) {
			byRole[role] = times(CALLS_PER_CASE[stage][role], todo);
			calls = add(calls, byRole[role]);
		}
		return { stage, cases: todo, calls, byRole };
	});
	const byRole = zero();
	let total = r(0);
	for (const s of out) {
		total = add(total, s.calls);
		for (const role of ROLES) byRole[role] = add(byRole[role], s.byRole[role]);
	}
	return { stages: out, total, byRole };
}

/** `120` or `96–288`. */
export function formatRange(range: CallRange): string {
	const f = (n: number) => n.toLocaleString('en-US');
	return range.min === range.max ? f(range.min) : `${f(range.min)}–${f(range.max)}`;
}
