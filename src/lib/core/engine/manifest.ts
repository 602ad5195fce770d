/** The manifest a run writes (or checks on resume), built from what the run was given. */
import type { Case } from '../dataset/types';
import { codeSha256, promptsSha256 } from '../prompts/hashes';
import type { PromptPack } from '../prompts/pack';
import { MANIFEST_SCHEMA_VERSION, type Role } from '../record-names';
import type { Manifest, RejudgedFrom, Settings } from '../records';
import type { RunDataset } from './types';

/** Name and version of the program that wrote a run. */
export type ToolInfo = {
	name: string;
	version: string;
};

/** @default { name: 'lexpilot-workbench', version: 'dev' } */
export const DEFAULT_TOOL: ToolInfo = { name: 'lexpilot-workbench', version: 'dev' };

export interface ManifestInputs {
	runId: string;
	modelDir: string;
	dataset: RunDataset;
	selected: readonly Case[];
	pack: PromptPack;
	models: Record<Role, string>;
	/** Base URLs only; keys never reach a manifest. */
	endpoints: Record<Role, string>;
	settings: Settings;
	/** Cases worked on at once: recorded in `operational_history`, never compared. */
	concurrency: number;
	simulated: boolean;
	tool?: ToolInfo;
	/** @default new Date() */
	createdAt?: Date;
	/** A re-judged run's source (PROTOCOL.md §5); absent for every other run. */
	rejudgedFrom?: RejudgedFrom;
	/** Run in batch mode: `mode: 'batch'` (PROTOCOL.md §5); absent for an interactive run. */
	batch?: boolean;
}

export async function buildManifest(inputs: ManifestInputs): Promise<Manifest> {
	const createdAt = (inputs.createdAt ?? new Date()).toISOString();
	return {
		schema_version: MANIFEST_SCHEMA_VERSION,
		tool: inputs.tool ?? DEFAULT_TOOL,
		run_id: inputs.runId,
		model_dir: inputs.modelDir,
		created_at: createdAt,
		dataset: {
			sha256: inputs.dataset.sha256,
			n_cases: inputs.dataset.cases.length,
			selected_case_numbers: inputs.selected.map((c) => c.case_number_value),
			history_fields: inputs.dataset.historyFields
		},
		code_sha256: await codeSha256(inputs.pack),
		prompts_sha256: await promptsSha256(inputs.pack),
		models: { ...inputs.models },
		endpoints: { ...inputs.endpoints },
		settings: { ...inputs.settings },
		categories: inputs.dataset.categories,
		simulated: inputs.simulated,
		operational_history: [
			{
				at: createdAt,
				timeout_s: inputs.settings.timeout_s,
				retries: inputs.settings.retries,
				concurrency: inputs.concurrency
			}
		],
		...(inputs.rejudgedFrom ? { rejudged_from: inputs.rejudgedFrom } : {}),
		...(inputs.batch ? { mode: 'batch' as const } : {})
	};
}
