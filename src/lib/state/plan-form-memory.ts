/**
 * The Run page's plan form kept across a reload, in this tab's `sessionStorage`: the models with
 * their base URLs and own user model and judge, the repetitions and the run id (the prefix). Keys
 * are kept only when the user asked the Models page to remember keys, as it does with its own;
 * otherwise they are dropped on writing and on reading. What is read back is hostile text: bounded,
 * field by field, and anything else is dropped.
 */
import { SETTING_LIMITS, withinLimit } from '$lib/core/run-defaults';
import type { PlanModelRow, PlanRoleRow } from './plan-form';
import { webStorage } from './web-storage';

export const PLAN_FORM_KEY = 'lexpilot.plan-form.v1';
/** More models than a person adds by hand. */
export const MAX_FORM_ROWS = 50;
const MAX_TEXT = 2000;

export interface KeptPlanForm {
	runId: string;
	repetitions: number;
	rows: PlanModelRow[];
}

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'> | null;

const text = (v: unknown, max = MAX_TEXT) => (typeof v === 'string' && v.length <= max ? v : '');

function roleRow(v: unknown, keys: boolean): PlanRoleRow {
	const r = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
	return {
		model: text(r.model, 300),
		baseURL: text(r.baseURL),
		apiKey: keys ? text(r.apiKey) : ''
	};
}

const modelRow = (v: unknown, keys: boolean): PlanModelRow => {
	const r = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
	return { ...roleRow(r, keys), user: roleRow(r.user, keys), judge: roleRow(r.judge, keys) };
};

/** The form as `value` holds it, keys only with `keys`; null when it holds no form. */
export function readPlanForm(value: unknown, keys: boolean): KeptPlanForm | null {
	if (typeof value !== 'object' || value === null) return null;
	const v = value as Record<string, unknown>;
	if (!Array.isArray(v.rows) || v.rows.length === 0) return null;
	const reps = v.repetitions;
	return {
		runId: text(v.runId, 64),
		repetitions:
			typeof reps === 'number' && withinLimit(reps, SETTING_LIMITS.repetitions) ? reps : 1,
		rows: v.rows.slice(0, MAX_FORM_ROWS).map((r) => modelRow(r, keys))
	};
}

export function loadPlanForm(storage: Storage, keys: boolean): KeptPlanForm | null {
	try {
		return readPlanForm(JSON.parse(storage?.getItem(PLAN_FORM_KEY) ?? 'null'), keys);
	} catch {
		return null;
	}
}

export function savePlanForm(storage: Storage, form: KeptPlanForm, keys: boolean): void {
	try {
		storage?.setItem(PLAN_FORM_KEY, JSON.stringify(readPlanForm(form, keys)));
	} catch {
		// Storage full or blocked: the form stays for this page only.
	}
}

/** This tab's session storage, or null where there is none. */
export const sessionStore = (): Storage | null => webStorage('sessionStorage');

/** The parts of the Run page's state the kept form fills. */
export interface PlanFormFields {
	runId: string;
	runIdEdited: boolean;
	active: boolean;
	plan: { rows: PlanModelRow[]; repetitions: number };
}

/**
 * Fills `fields` from the kept form, before the page suggests a run id: the models and
 * repetitions, and the run id when the kept form was a plan (a single run's id is suggested
 * afresh, as before plans). Nothing while a run is under way.
 */
export function restorePlanForm(fields: PlanFormFields, storage: Storage, keys: boolean): void {
	const kept = loadPlanForm(storage, keys);
	if (!kept || fields.active) return;
	fields.plan.rows = kept.rows;
	fields.plan.repetitions = kept.repetitions;
	const plan = kept.rows.length > 1 || kept.repetitions !== 1;
	if (plan && kept.runId && !fields.runId) {
		fields.runId = kept.runId;
		fields.runIdEdited = true;
	}
}

/** Keeps the form of `fields` (read whole, so an effect that calls this follows every field). */
export function keepPlanForm(fields: PlanFormFields, storage: Storage, keys: boolean): void {
	const { rows, repetitions } = fields.plan;
	savePlanForm(
		storage,
		JSON.parse(JSON.stringify({ runId: fields.runId, repetitions, rows })),
		keys
	);
}

/** Drops the keys of the kept form (keys are no longer remembered, or were forgotten). */
export function dropPlanFormKeys(storage: Storage): void {
	const kept = loadPlanForm(storage, true);
	if (kept) savePlanForm(storage, kept, false);
}
