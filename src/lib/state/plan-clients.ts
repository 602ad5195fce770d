/**
 * The clients of a stored plan, to resume it: the plan keeps no key, so each role's key comes from
 * the form (the row of the same evaluated model, its own user or judge fields) or the Models
 * page's, the latter only for a role at the Models page's base URL (a key never goes elsewhere).
 */
import type { PlanSpec } from '$lib/core/engine/plan';
import type { RoleEndpoint } from '$lib/core/model/types';
import { sameEndpoint } from '$lib/core/names';
import { ROLES, type Role } from '$lib/core/record-names';
import type { PlanModelRow } from './plan-form';

export function storedClients(
	spec: PlanSpec,
	rows: readonly PlanModelRow[],
	shared: Record<Role, RoleEndpoint>
): Record<Role, RoleEndpoint>[] {
	return spec.models.map((m) => {
		const row = rows.find((r) => r.model.trim() === m.evaluated.model);
		const roles = { evaluated: m.evaluated, user: m.user, judge: m.judge };
		const typed = { evaluated: row, user: row?.user, judge: row?.judge };
		const client = (role: Role): RoleEndpoint => {
			const planned = roles[role];
			if (!planned) return shared[role];
			const own = typed[role]?.apiKey.trim();
			const key = own
				? own
				: sameEndpoint(shared[role].baseURL, planned.endpoint)
					? shared[role].apiKey
					: '';
			return { model: planned.model, baseURL: planned.endpoint, apiKey: key };
		};
		return Object.fromEntries(ROLES.map((r) => [r, client(r)])) as Record<Role, RoleEndpoint>;
	});
}
