/**
 * How many model calls a run will make, before it starts (PROTOCOL.md §4). Every stage has a fixed
 * count per case except gen, whose interaction stops early on a judgment: between 0 and 3 more
 * questions, each with a user reply and a label, and at most one forced prediction.
 */
import { ROLES, type Role } from '$lib/core/record-names';
import { STAGE_NAMES, type StageName } from '$lib/core/engine/types';

export interface CallRange {
	min: number;
	max: number;
}

type PerRole = Record<Role, CallRange>;

const r = (min: number, max = min): CallRange => ({ min, max });

/** Calls per case of each stage, by role. */
export const CALLS_PER_CASE: Record<StageName, PerRole> = {
	// a1 on both histories (2 lexawn) + up to 2 more lexawn and 1 force_judge in the
	// interaction; up to 3 user replies; LCA on both a1 responses + up to 2 new responses.
	gen: { evaluated: r(2, 5), user: r(0, 3), judge: r(2, 4) },
	lca: { evaluated: r(0), user: r(0), judge: r(2) },
	// Two forced questions, one user reply between them, one DCG judgement per question.
	dcg: { evaluated: r(2), user: r(1), judge: r(2) },
	'ljp-direct': { evaluated: r(1), user: r(0), judge: r(1) },
	'ljp-gold': { evaluated: r(1), user: r(0), judge: r(1) },
	'ljp-interaction': { evaluated: r(0), user: r(0), judge: r(1) }
};

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
