/**
 * The Run page's plan: the evaluated models the user added (each with its own base URL and key,
 * or the Models page's; each with its own user model and judge, or the plan's) and the repetitions, turned into the core's `PlanSpec` (no key) and the
 * endpoints with keys each model's client is built from. One model, once, is no plan: the page
 * runs it as a single run, exactly as before plans.
 */
import { planRuns, type PlanSpec } from '$lib/core/engine/plan';
import { publicBaseUrl } from '$lib/core/model/base-url';
import type { RoleEndpoint } from '$lib/core/model/types';
import type { Role } from '$lib/core/record-names';
import { SIMULATED_ENDPOINT } from '$lib/core/run-defaults';
import { resolveEndpoints, runIdentity, type ModelSettings } from './model-settings';

/** One role of a model as typed; empty fields take the Models page's. */
export interface PlanRoleRow {
	model: string;
	baseURL: string;
	apiKey: string;
}

/** One evaluated model as typed, with the user model and judge it uses when not the plan's. */
export interface PlanModelRow extends PlanRoleRow {
	/** @default the plan's (the Models page's) */
	user?: PlanRoleRow;
	/** @default the plan's (the Models page's) */
	judge?: PlanRoleRow;
}

/** The roles a model of a plan may set for itself besides the evaluated one. */
export const OWN_ROLES = ['user', 'judge'] as const;

const typed = (r: PlanRoleRow | undefined) =>
	!!r && !!(r.model.trim() || r.baseURL.trim() || r.apiKey.trim());

/** Whether `row` sets its own user model or judge (a model id or a base URL). */
export const ownRole = (r: PlanRoleRow | undefined): r is PlanRoleRow =>
	!!r && !!(r.model.trim() || r.baseURL.trim());

/** `row`'s endpoint: its own fields, the rest `shared`'s (never the shared key at another URL). */
function endpointOf(row: PlanRoleRow, shared: RoleEndpoint, model: string): RoleEndpoint {
	const ownURL = row.baseURL.trim();
	return {
		model: row.model.trim() || model,
		baseURL: ownURL || shared.baseURL,
		apiKey: row.apiKey.trim() || (ownURL ? '' : shared.apiKey)
	};
}

export interface PlanForm {
	/** The run id, or with repetitions above 1 the prefix of the run ids. */
	runId: string;
	repetitions: number;
	rows: readonly PlanModelRow[];
}

/** Whether the form is a plan (more than one run, or a model other than the Models page's). */
export function isPlan(form: PlanForm): boolean {
	const own = form.rows.some((r) => typed(r) || typed(r.user) || typed(r.judge));
	return form.rows.length > 1 || form.repetitions !== 1 || own;
}

export interface BuiltPlan {
	spec: PlanSpec;
	simulated: boolean;
	/** Per model of `spec`, every role's endpoint with its key (never stored). */
	clients: Record<Role, RoleEndpoint>[];
	keys: string[];
}

/** The plan of `form` with the Models page's `settings`; `UsageError` as `planRuns` refuses. */
export function buildPlan(form: PlanForm, settings: ModelSettings): BuiltPlan {
	const identity = runIdentity(settings);
	const shared = resolveEndpoints(settings);
	const rows = form.rows.length > 0 ? form.rows : [{ model: '', baseURL: '', apiKey: '' }];
	const roleOf = (row: PlanModelRow, role: (typeof OWN_ROLES)[number]): RoleEndpoint => {
		const r = row[role];
		return ownRole(r) ? endpointOf(r, shared[role], identity.models[role]) : shared[role];
	};
	const clients = rows.map((row): Record<Role, RoleEndpoint> => ({
		evaluated: endpointOf(row, shared.evaluated, identity.models.evaluated),
		user: roleOf(row, 'user'),
		judge: roleOf(row, 'judge')
	}));
	const keys = identity.simulated ? [] : keysOf(clients);
	const endpoint = (e: RoleEndpoint) =>
		identity.simulated ? SIMULATED_ENDPOINT : publicBaseUrl(e.baseURL, keys);
	const planRole = (e: RoleEndpoint) => ({ model: e.model, endpoint: endpoint(e) });
	const spec: PlanSpec = {
		runId: form.runId.trim(),
		...(form.repetitions !== 1 ? { repetitions: form.repetitions } : {}),
		models: rows.map((row, i) => ({
			evaluated: planRole(clients[i].evaluated),
			...Object.fromEntries(
				OWN_ROLES.filter((r) => ownRole(row[r])).map((r) => [r, planRole(clients[i][r])])
			)
		})),
		user: { model: identity.models.user, endpoint: identity.endpoints.user },
		judge: { model: identity.models.judge, endpoint: identity.endpoints.judge }
	};
	planRuns(spec);
	return { spec, simulated: identity.simulated, clients, keys };
}

/** The run ids of the form, shown before Start; empty while the form names none. */
export function planRunIdsOf(form: PlanForm, settings: ModelSettings): string[] {
	try {
		return [...new Set(planRuns(buildPlan(form, settings).spec).map((r) => r.runId))];
	} catch {
		return [];
	}
}

/** Every key of the clients, once each (the engine checks no record holds one). */
export function keysOf(clients: readonly Record<Role, RoleEndpoint>[]): string[] {
	return [...new Set(clients.flatMap((c) => Object.values(c).map((e) => e.apiKey)))].filter(
		Boolean
	);
}
