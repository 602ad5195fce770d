/**
 * A run plan: several evaluated models × R repetitions, each an ordinary run with its own
 * manifest (PROTOCOL.md §8). The user model and the judge are the plan's unless a model sets its
 * own. With `repetitions` the run ids are the prefix and 1..R (`run1`…`run5`), the seed's habit;
 * without, the one run id as given.
 */
import { UsageError } from '../errors';
import { sha256Canonical } from '../hash';
import { checkRunId } from '../layout';
import { endpointKey } from '../names';
import { perRole, type Role } from '../record-names';
import { SETTING_LIMITS, withinLimit } from '../run-defaults';
import { coded } from '../said';

/** A role of a plan: the model id and its base URL (never a key). */
export interface PlanRole {
	model: string;
	endpoint: string;
}

/**
 * The most evaluated models of one plan (a plan file's `models`, or `--model` repeated): with
 * at most 10 repetitions, at most 500 runs, which one process holds with room to spare.
 */
export const PLAN_MAX_MODELS = 50;

/** One evaluated model of a plan, with the user model and judge it uses when not the plan's. */
export interface PlanModel {
	evaluated: PlanRole;
	/** @default the plan's */
	user?: PlanRole;
	/** @default the plan's */
	judge?: PlanRole;
}

export interface PlanSpec {
	/** The run id, or with `repetitions` the prefix of the run ids. */
	runId: string;
	/** 1–10 (`SETTING_LIMITS.repetitions`); run ids `<runId>1`…`<runId>R`. @default one run, `runId` */
	repetitions?: number;
	models: readonly PlanModel[];
	user: PlanRole;
	judge: PlanRole;
}

/** One run of a plan, in plan order (model by model, repetition by repetition). */
export interface PlannedRun {
	runId: string;
	/** 1-based; 1 for a plan without repetitions. */
	repetition: number;
	/** Which model of the plan, 0-based. */
	modelIndex: number;
	models: Record<Role, string>;
	endpoints: Record<Role, string>;
}

/** The run ids of `repetitions` runs under `runId` (the id itself when none). */
export function planRunIds(runId: string, repetitions?: number): string[] {
	if (repetitions === undefined) return [runId];
	if (!withinLimit(repetitions, SETTING_LIMITS.repetitions)) {
		const { min, max } = SETTING_LIMITS.repetitions;
		throw new UsageError([coded('plan_repetitions', { min, max, got: String(repetitions) })]);
	}
	return Array.from({ length: repetitions }, (_, i) => `${runId}${i + 1}`);
}

/** Every run of `spec`; `UsageError` for a run id no run can take or a model named twice. */
export function planRuns(spec: PlanSpec): PlannedRun[] {
	if (spec.models.length === 0) throw new UsageError([coded('plan_no_model', {})]);
	const ids = planRunIds(spec.runId, spec.repetitions);
	for (const id of ids) checkRunId(id);
	const seen = new Set<string>();
	for (const [i, m] of spec.models.entries()) {
		const place = `models[${i}]`;
		if (!m.evaluated.model.trim()) throw new UsageError([coded('plan_no_model_id', { place })]);
		if (seen.has(m.evaluated.model)) {
			const model = JSON.stringify(m.evaluated.model.slice(0, 200));
			throw new UsageError([coded('plan_model_twice', { place, model })]);
		}
		seen.add(m.evaluated.model);
	}
	return spec.models.flatMap((m, modelIndex) => {
		const roles: Record<Role, PlanRole> = {
			evaluated: m.evaluated,
			user: m.user ?? spec.user,
			judge: m.judge ?? spec.judge
		};
		const models = perRole((r) => roles[r].model);
		const endpoints = perRole((r) => roles[r].endpoint);
		return ids.map((runId, i) => ({ runId, repetition: i + 1, modelIndex, models, endpoints }));
	});
}

/**
 * The identity of a plan, to find it again and resume it: SHA-256 of its runs (ids, models and
 * endpoints by their identity). The same plan started again has the same id; its runs resume.
 */
export function planId(spec: PlanSpec): Promise<string> {
	return sha256Canonical(
		planRuns(spec).map((r) => ({
			run_id: r.runId,
			models: r.models,
			endpoints: perRole((role) => endpointKey(r.endpoints[role]))
		}))
	);
}
