/** What the three cards above the Run form say: what a run would be made of, from the pages. */
import { datasetState } from './dataset.svelte';
import { promptsState } from './prompts.svelte';
import { settingsState } from './settings.svelte';

export interface Readiness {
	dataset: { name: string; cases: number; sha256: string; sample: boolean } | null;
	/** Null: no evaluated model chosen. */
	models:
		| { simulated: true }
		| { simulated: false; evaluated: string; user: string; judge: string }
		| null;
	prompts: { isDefault: boolean; sha256: string | null };
}

/** The readiness as the Dataset, Models and Prompts pages hold it now. */
export function readinessNow(): Readiness {
	const d = datasetState.status === 'ready' ? datasetState.head : null;
	const models = settingsState.identity.models;
	return {
		dataset: d
			? {
					name: datasetState.fileName ?? '',
					cases: d.caseCount,
					sha256: d.sha256,
					sample: datasetState.isSample
				}
			: null,
		models: settingsState.simulated
			? { simulated: true }
			: models.evaluated
				? { simulated: false, ...models }
				: null,
		prompts: { isDefault: promptsState.isDefault, sha256: promptsState.hashes?.prompts ?? null }
	};
}
