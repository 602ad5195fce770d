/**
 * The run plans this browser started, for "Resume" after a reload: each plan's spec (models,
 * base URLs, repetitions; never a key), what the form asked (stages, cases, settings) and how it
 * last stood, in `localStorage` by plan id (`planId(spec)`). The runs themselves are in IndexedDB;
 * resuming starts the same plan again and every run goes on where it stopped.
 */
import type { PlanModel, PlanRole, PlanSpec } from '$lib/core/engine/plan';
import { STAGE_NAMES, type StageName } from '$lib/core/engine/types';
import type { BatchSendMode } from '$lib/core/batch/store';
import type { Settings } from '$lib/core/records';

export const PLAN_SPECS_KEY = 'lexpilot.plan-specs.v1';
/** More plans than a person starts by hand; the oldest go first. */
const MAX_PLANS = 20;

export interface StoredPlan {
	planId: string;
	spec: PlanSpec;
	stages: StageName[];
	/** First `limit` cases; null for all. */
	limit: number | null;
	settings: Settings;
	datasetName: string;
	simulated: boolean;
	status: 'running' | 'paused' | 'stopped' | 'failed';
	updatedAt: string;
	/** Batch mode: how the runs' rounds are sent; absent: interactive. */
	batch?: BatchSendMode;
}
type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'> | null;

const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown, max = 2000): v is string => typeof v === 'string' && v.length <= max;
const role = (v: unknown): PlanRole | null =>
	isObject(v) && text(v.model, 300) && text(v.endpoint) && v.model.length > 0
		? { model: v.model, endpoint: v.endpoint }
		: null;
/** A model of a plan, with its own user model and judge where it set them; null when unreadable. */
function planModel(v: unknown): PlanModel | null {
	if (!isObject(v)) return null;
	const evaluated = role(v.evaluated);
	const own = (['user', 'judge'] as const).filter((r) => v[r] !== undefined);
	const roles = own.map((r) => [r, role(v[r])] as const);
	if (!evaluated || roles.some(([, x]) => x === null)) return null;
	return { evaluated, ...Object.fromEntries(roles) };
}

/** `v` as a stored plan with exactly its fields (a key or anything else is dropped), or null. */
export function readStoredPlan(v: unknown): StoredPlan | null {
	if (!isObject(v) || !isObject(v.spec) || !isObject(v.settings)) return null;
	const s = v.spec;
	const models = Array.isArray(s.models) ? s.models.slice(0, 50).map(planModel) : [];
	const user = role(s.user);
	const judge = role(s.judge);
	const stages = Array.isArray(v.stages) ? v.stages : [];
	const ok =
		text(v.planId, 64) &&
		text(s.runId, 64) &&
		(s.repetitions === undefined || Number.isInteger(s.repetitions)) &&
		models.length > 0 &&
		models.every(Boolean) &&
		user &&
		judge &&
		stages.length > 0 &&
		stages.every((st) => (STAGE_NAMES as readonly unknown[]).includes(st)) &&
		(v.limit === null || Number.isInteger(v.limit)) &&
		Object.values(v.settings).every((x) => typeof x === 'number') &&
		text(v.datasetName, 300) &&
		typeof v.simulated === 'boolean' &&
		['running', 'paused', 'stopped', 'failed'].includes(v.status as string) &&
		text(v.updatedAt, 40);
	if (!ok) return null;
	return {
		planId: v.planId as string,
		spec: {
			runId: s.runId as string,
			...(s.repetitions !== undefined ? { repetitions: s.repetitions as number } : {}),
			models: models.map((m) => m!),
			user: user!,
			judge: judge!
		},
		stages: [...(stages as StageName[])],
		limit: v.limit as number | null,
		settings: { ...(v.settings as unknown as Settings) },
		datasetName: v.datasetName as string,
		simulated: v.simulated as boolean,
		status: v.status as StoredPlan['status'],
		updatedAt: v.updatedAt as string,
		...(v.batch === 'provider' || v.batch === 'files' ? { batch: v.batch } : {})
	};
}

/** Every stored plan, newest last; unreadable entries are dropped. */
export function loadStoredPlans(storage: Storage): StoredPlan[] {
	try {
		const value: unknown = JSON.parse(storage?.getItem(PLAN_SPECS_KEY) ?? '{}');
		if (!isObject(value)) return [];
		return Object.values(value).flatMap((v) => readStoredPlan(v) ?? []);
	} catch {
		return [];
	}
}

function write(storage: Storage, plans: StoredPlan[]): void {
	try {
		const kept = plans.slice(-MAX_PLANS);
		storage?.setItem(
			PLAN_SPECS_KEY,
			JSON.stringify(Object.fromEntries(kept.map((p) => [p.planId, p])))
		);
	} catch {
		// A full or blocked localStorage costs only the "Resume" entry; the runs are in IndexedDB.
	}
}

export const nowIso = (): string => new Date().toISOString();

/** Adds or replaces a plan (by its id). */
export function storePlan(storage: Storage, plan: StoredPlan): void {
	const checked = readStoredPlan(plan);
	if (!checked) throw new Error(`not a valid run plan (${String(plan.planId)})`);
	write(storage, [...loadStoredPlans(storage).filter((p) => p.planId !== plan.planId), checked]);
}

/** Changes how a stored plan stands; a plan not stored is left alone. */
export function setStoredPlanStatus(
	storage: Storage,
	planId: string,
	status: StoredPlan['status'],
	now = new Date()
): void {
	const plans = loadStoredPlans(storage);
	const plan = plans.find((p) => p.planId === planId);
	if (!plan) return;
	Object.assign(plan, { status, updatedAt: now.toISOString() });
	write(storage, plans);
}

export function forgetPlan(storage: Storage, planId: string): void {
	write(
		storage,
		loadStoredPlans(storage).filter((p) => p.planId !== planId)
	);
}
