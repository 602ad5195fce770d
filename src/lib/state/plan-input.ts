/** What every run plan needs, interactive or in batch mode (PROTOCOL.md §8), as plain data. */
import type { PlanSpec } from '$lib/core/engine/plan';
import type { RunDataset, StageName } from '$lib/core/engine/types';
import type { RoleEndpoint } from '$lib/core/model/types';
import type { PromptPack } from '$lib/core/prompts/pack';
import type { Role, Settings } from '$lib/core/records';

/** The plan, its dataset and stages, and every model's endpoints. */
export interface PlanInput {
	spec: PlanSpec;
	dataset: RunDataset;
	limit: number | null;
	stages: StageName[];
	settings: Settings;
	concurrency: number;
	pack: PromptPack;
	/** Per model of `spec`, its roles' endpoints with keys: in memory only, never stored. */
	clients: Record<Role, RoleEndpoint>[];
	keys: string[];
}
