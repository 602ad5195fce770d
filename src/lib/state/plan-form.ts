/**
 * The Run page's plan: the evaluated models the user added (each with its own base URL and key,
 * or the Models page's) and the repetitions, turned into the core's `PlanSpec` (no key) and the
 * endpoints with keys each model's client is built from. One model, once, is no plan: the page
 * runs it as a single run, exactly as before plans.
 */
import { planRuns, type PlanSpec } from '$lib/core/engine/plan';
import { publicBaseUrl } from '$lib/core/model/base-url';
import type { RoleEndpoint } from '$lib/core/model/types';
import type { Role } from '$lib/core/record-names';
import { SIMULATED_ENDPOINT } from '$lib/core/run-defaults';
import { resolveEndpoints, runIdentity, type ModelSettings } from './model-settings';

/** One evaluated model as typed; empty fields take the Models page's. */
export interface PlanModelRow {
	model: string;
	baseURL: string;
	apiKey: string;
}

export interface PlanForm {
	/** The run id, or with repetitions above 1 the prefix of the run ids. */
	runId: string;
	repetitions: number;
	rows: readonly PlanModelRow[];
}

/** Whether the form is a plan (more than one run, or a model other than the Models page's). */
export function isPlan(form: PlanForm): boolean {
	const own = form.rows.some((r) => r.model.trim() || r.baseURL.trim() || r.apiKey.trim());
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
	const clients = rows.map((row): Record<Role, RoleEndpoint> => {
		const ownURL = row.baseURL.trim();
		const evaluated: RoleEndpoint = {
			model: row.model.trim() || identity.models.evaluated,
			baseURL: ownURL || shared.evaluated.baseURL,
			apiKey: row.apiKey.trim() || (ownURL ? '' : shared.evaluated.apiKey)
		};
		return { ...shared, evaluated };
	});
	const keys = identity.simulated ? [] : keysOf(clients);
	const endpoint = (e: RoleEndpoint) =>
		identity.simulated ? SIMULATED_ENDPOINT : publicBaseUrl(e.baseURL, keys);
	const spec: PlanSpec = {
		runId: form.runId.trim(),
		...(form.repetitions !== 1 ? { repetitions: form.repetitions } : {}),
		models: clients.map((c) => ({
			evaluated: { model: c.evaluated.model, endpoint: endpoint(c.evaluated) }
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
