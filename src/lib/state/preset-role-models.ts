/**
 * The user and judge model ids to pair with each provider preset. The defaults of PROTOCOL.md §2
 * (`DEFAULT_USER_MODEL`, `DEFAULT_JUDGE_MODEL`) are the paper's names, which no provider serves
 * under that id, so the Models page says so next to them and offers the ids below where the
 * provider is known. Local servers serve what was loaded into them: no pair, only the warning.
 */
import type { Role } from '$lib/core/record-names';
import { DEFAULT_JUDGE_MODEL, DEFAULT_USER_MODEL } from '$lib/core/run-defaults';
import type { PresetId } from './provider-presets';

/** Ids each known provider serves for the simulated user and the judge, from its preset's list. */
export const PRESET_ROLE_MODELS: Partial<Record<PresetId, { user: string; judge: string }>> = {
	openai: { user: 'gpt-4.1-mini', judge: 'gpt-4.1' },
	deepseek: { user: 'deepseek-chat', judge: 'deepseek-reasoner' },
	openrouter: { user: 'deepseek/deepseek-chat', judge: 'deepseek/deepseek-r1' }
};

const PAPER_NAMES: Record<'user' | 'judge', string> = {
	user: DEFAULT_USER_MODEL,
	judge: DEFAULT_JUDGE_MODEL
};

/**
 * When `model` (of the user or judge role) is still the paper's name: the id the role's preset
 * serves in its place (null when the provider is not known). Undefined when nothing is to say.
 */
export function paperNameFix(
	role: Role,
	model: string,
	preset: PresetId
): { suggested: string | null } | undefined {
	if (role === 'evaluated' || model.trim() !== PAPER_NAMES[role]) return undefined;
	return { suggested: PRESET_ROLE_MODELS[preset]?.[role] ?? null };
}
