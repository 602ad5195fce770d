/**
 * What this browser remembers about the runs it started, beyond their manifests: the stages
 * asked for, the concurrency and how the run last ended. With the manifest (models, endpoints,
 * settings, selected cases, prompts) this is everything "Resume" needs after a reload or a
 * closed tab, except keys, which a plan never holds.
 */
import { z } from 'zod';
import { STAGE_NAMES } from '$lib/core/engine/types';
import type { RunKey } from '$lib/core/layout';

export const PLANS_STORAGE_KEY = 'lexpilot.run-plans.v1';

export const RunPlan = z.object({
	runId: z.string().min(1),
	modelDir: z.string().min(1),
	/** Stages asked for, in run order. */
	stages: z.array(z.enum(STAGE_NAMES)).min(1),
	concurrency: z.number().int().positive(),
	/** File name of the dataset, to tell the user which file to load before resuming. */
	datasetName: z.string(),
	/**
	 * `running` stays written when a tab is closed or reloaded mid-run; with no tab holding the
	 * run's lock it means "interrupted".
	 */
	status: z.enum(['running', 'paused', 'stopped', 'failed', 'done']),
	/** Why it stopped, when it failed. */
	error: z.string().nullable(),
	updatedAt: z.string()
});
export type RunPlan = z.infer<typeof RunPlan>;
export type PlanStatus = RunPlan['status'];

/** The part of `localStorage` plans use; null when the browser offers none. */
export type PlanStorage = Pick<Storage, 'getItem' | 'setItem'> | null;

export function planKey(run: RunKey): string {
	return `${run.runId}/${run.modelDir}`;
}

/** Every remembered plan; unreadable entries are dropped rather than block the page. */
export function loadPlans(storage: PlanStorage): RunPlan[] {
	let value: unknown;
	try {
		value = JSON.parse(storage?.getItem(PLANS_STORAGE_KEY) ?? '[]');
	} catch {
		return [];
	}
	if (!Array.isArray(value)) return [];
	return value.flatMap((v) => {
		const parsed = RunPlan.safeParse(v);
		return parsed.success ? [parsed.data] : [];
	});
}

function write(storage: PlanStorage, plans: RunPlan[]): void {
	try {
		storage?.setItem(PLANS_STORAGE_KEY, JSON.stringify(plans));
	} catch {
		// A full or blocked localStorage only costs the "Resume" list; the records are in IndexedDB.
	}
}

/** Adds or replaces the plan of a run. */
export function savePlan(storage: PlanStorage, plan: RunPlan): void {
	const others = loadPlans(storage).filter((p) => planKey(p) !== planKey(plan));
	write(storage, [...others, RunPlan.parse(plan)]);
}

/** Changes the status (and error) of a remembered plan; a run without one is left alone. */
export function updatePlanStatus(
	storage: PlanStorage,
	run: RunKey,
	status: PlanStatus,
	error: string | null = null,
	now: Date = new Date()
): void {
	const plans = loadPlans(storage);
	const plan = plans.find((p) => planKey(p) === planKey(run));
	if (!plan) return;
	Object.assign(plan, { status, error, updatedAt: now.toISOString() });
	write(storage, plans);
}

export function removePlan(storage: PlanStorage, run: RunKey): void {
	write(
		storage,
		loadPlans(storage).filter((p) => planKey(p) !== planKey(run))
	);
}

/** The two writes a running run makes to its plan; a run's worker sends them to the page. */
export interface PlanBook {
	/** Adds or replaces the plan of a run. */
	save(plan: RunPlan): void;
	/** Changes the status (and error) of a remembered plan. */
	setStatus(run: RunKey, status: PlanStatus, error: string | null, now: Date): void;
}

/** The plan writes of a run, made to `storage` (the page's `localStorage`). */
export function planBook(storage: PlanStorage): PlanBook {
	return {
		save: (plan) => savePlan(storage, plan),
		setStatus: (run, status, error, now) => updatePlanStatus(storage, run, status, error, now)
	};
}
