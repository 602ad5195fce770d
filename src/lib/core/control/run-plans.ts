/**
 * What this browser remembers about the runs it started, beyond their manifests: the stages
 * asked for, the concurrency and how the run last ended. With the manifest (models, endpoints,
 * settings, selected cases, prompts) this is everything "Resume" needs after a reload or a
 * closed tab, except keys, which a plan never holds.
 */
import { STAGE_NAMES, type StageName } from '../protocol';
import { runKey, type RunKey } from '../names';
import { SETTING_LIMITS, withinLimit } from '../run-defaults';
import { readCoreTexts, type CoreText } from '../said';
import type { BatchSendMode } from '../batch/store';

export const PLANS_STORAGE_KEY = 'lexpilot.run-plans.v1';

/** A remembered run. */
export interface RunPlan {
	runId: string;
	modelDir: string;
	/** Stages asked for, in run order; at least one. */
	stages: StageName[];
	/** In the range of `SETTING_LIMITS.concurrency` (1–64), as the form and the CLI take it. */
	concurrency: number;
	/** File name of the dataset, to tell the user which file to load before resuming. */
	datasetName: string;
	/**
	 * `running` stays written when a tab is closed or reloaded mid-run; with no tab holding the
	 * run's lock it means "interrupted".
	 */
	status: 'running' | 'paused' | 'stopped' | 'failed' | 'done';
	/** Why it stopped, when it failed. */
	error: string | null;
	/** `error` as coded pieces, for the interface language; absent in plans of older versions. */
	errorSaid?: CoreText[];
	updatedAt: string;
	/** Batch mode: how its rounds are sent; absent for an interactive run. */
	batch?: BatchSendMode;
}
export type PlanStatus = RunPlan['status'];
const STATUSES: readonly PlanStatus[] = ['running', 'paused', 'stopped', 'failed', 'done'];

/**
 * `v` as a plan with exactly the fields above (any other field, a key above all, is dropped),
 * or null. Checked without zod: the Run page reads plans on opening, and zod (even zod/mini,
 * measured at about 17 kB gzip more on every page) is kept out of the pages' first load.
 */
export function readPlan(v: unknown): RunPlan | null {
	if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
	const p = v as Record<string, unknown>;
	const nonEmpty = (x: unknown): x is string => typeof x === 'string' && x.length > 0;
	const ok =
		nonEmpty(p.runId) &&
		nonEmpty(p.modelDir) &&
		Array.isArray(p.stages) &&
		p.stages.length > 0 &&
		p.stages.every((st) => (STAGE_NAMES as readonly unknown[]).includes(st)) &&
		// Exactly the range the form and the CLI take.
		withinLimit(p.concurrency, SETTING_LIMITS.concurrency) &&
		typeof p.datasetName === 'string' &&
		(STATUSES as readonly unknown[]).includes(p.status) &&
		(p.error === null || typeof p.error === 'string') &&
		typeof p.updatedAt === 'string';
	if (!ok) return null;
	// Coded pieces that do not read back cost only the Chinese wording: the English stays.
	const errorSaid = p.error === null ? null : readCoreTexts(p.errorSaid);
	return {
		runId: p.runId as string,
		modelDir: p.modelDir as string,
		stages: [...(p.stages as StageName[])],
		concurrency: p.concurrency as number,
		datasetName: p.datasetName as string,
		status: p.status as PlanStatus,
		error: p.error as string | null,
		...(errorSaid ? { errorSaid } : {}),
		updatedAt: p.updatedAt as string,
		...(p.batch === 'provider' || p.batch === 'files' ? { batch: p.batch } : {})
	};
}

/** The part of `localStorage` plans use; null when the browser offers none. */
export type PlanStorage = Pick<Storage, 'getItem' | 'setItem'> | null;

/** Every remembered plan; unreadable entries are dropped rather than block the page. */
export function loadPlans(storage: PlanStorage): RunPlan[] {
	let value: unknown;
	try {
		value = JSON.parse(storage?.getItem(PLANS_STORAGE_KEY) ?? '[]');
	} catch {
		return [];
	}
	if (!Array.isArray(value)) return [];
	return value.flatMap((v) => readPlan(v) ?? []);
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
	const others = loadPlans(storage).filter((p) => runKey(p) !== runKey(plan));
	const checked = readPlan(plan);
	if (!checked) throw new Error(`not a valid run plan (run ${String(plan.runId)})`);
	write(storage, [...others, checked]);
}

/** Changes the status (and error) of a remembered plan; a run without one is left alone. */
export function updatePlanStatus(
	storage: PlanStorage,
	run: RunKey,
	status: PlanStatus,
	error: string | null = null,
	now: Date = new Date(),
	errorSaid?: CoreText[]
): void {
	const plans = loadPlans(storage);
	const plan = plans.find((p) => runKey(p) === runKey(run));
	if (!plan) return;
	delete plan.errorSaid;
	Object.assign(plan, { status, error, updatedAt: now.toISOString() });
	if (error !== null && errorSaid) plan.errorSaid = errorSaid;
	write(storage, plans);
}

export function removePlan(storage: PlanStorage, run: RunKey): void {
	write(
		storage,
		loadPlans(storage).filter((p) => runKey(p) !== runKey(run))
	);
}

/** The two writes a running run makes to its plan; a run's worker sends them to the page. */
export interface PlanBook {
	/** Adds or replaces the plan of a run. */
	save(plan: RunPlan): void;
	/** Changes the status (and error) of a remembered plan. */
	setStatus(
		run: RunKey,
		status: PlanStatus,
		error: string | null,
		now: Date,
		errorSaid?: CoreText[]
	): void;
}

/** The plan writes of a run, made to `storage` (the page's `localStorage`). */
export function planBook(storage: PlanStorage): PlanBook {
	return {
		save: (plan) => savePlan(storage, plan),
		setStatus: (run, status, error, now, errorSaid) =>
			updatePlanStatus(storage, run, status, error, now, errorSaid)
	};
}
