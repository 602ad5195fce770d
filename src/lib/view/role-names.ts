/** The model roles as the Run page names them, in the interface language. */
import type { Role } from '$lib/core/record-names';
import { m } from '$lib/paraglide/messages';

const NAMES: Record<Role, () => string> = {
	evaluated: () => m.run_role_evaluated(),
	user: () => m.run_role_user(),
	judge: () => m.run_role_judge()
};

/** `evaluated`, `user`, `judge` (被评估模型, 用户模型, 评审模型); an unknown role as it came. */
export function roleName(role: string): string {
	return role in NAMES ? NAMES[role as Role]() : role;
}
