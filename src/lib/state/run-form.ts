/**
 * The Run form's run as the pages hold it: the stages it offers, the limit as typed, and the
 * check of what its run id holds (`FormCheck`), read field by field from the Dataset, Models and
 * Prompts pages, so a `$derived` over it changes with any of them.
 */
import { STAGE_NAMES, type StageName } from '$lib/core/protocol';
import { runIdProblem, type RunKey } from '$lib/core/layout';
import { datasetState } from './dataset.svelte';
import { promptsState } from './prompts.svelte';
import type { ManifestRequest } from './saved-run';
import { settingsState } from './settings.svelte';

/** Empty → null (every case); anything else as typed, for the form to check. */
export function parseLimit(text: string): number | null {
	const t = text.trim();
	return t === '' ? null : Number(t);
}

/** The form's ticks with `on` ticked. */
export const stageTicks = (on: readonly StageName[]): Record<StageName, boolean> =>
	Object.fromEntries(STAGE_NAMES.map((s) => [s, on.includes(s)])) as Record<StageName, boolean>;

/** The first `runN` no saved run of `modelDir` (of any model when null) uses. */
export function firstFreeRunId(saved: readonly RunKey[], modelDir: string | null): string {
	const used = saved
		.filter((r) => modelDir === null || r.modelDir === modelDir)
		.map((r) => r.runId);
	let n = 1;
	while (used.includes(`run${n}`)) n++;
	return `run${n}`;
}

/** What the form's run is checked with against the run its run id holds. */
export interface FormCheck {
	request: ManifestRequest;
	stages: readonly StageName[];
	/** The pack's hash, new with every edit of the pack (null while it is computed). */
	promptsSha256: string | null;
	/** Everything above that decides the answer, as one string: equal keys, equal answers. */
	key: string;
}

/**
 * Everything the saved-run check depends on (a changed temperature, model, base URL, dataset,
 * limit, prompt pack or run id makes a new value); null while the form cannot name a run.
 */
export function formCheckOf(
	runId: string,
	limit: number | null,
	stages: readonly StageName[]
): FormCheck | null {
	const dataset = datasetState.status === 'ready' ? datasetState.dataset : null;
	const identity = settingsState.identity;
	if (!dataset || !identity.models.evaluated || runIdProblem(runId) !== null) return null;
	if (limit !== null && (!Number.isInteger(limit) || limit < 1)) return null;
	const s = settingsState.value;
	const request: ManifestRequest = {
		dataset,
		runId,
		limit,
		models: identity.models,
		endpoints: identity.endpoints,
		settings: { ...s.generation },
		concurrency: s.concurrency,
		pack: promptsState.pack,
		simulated: identity.simulated
	};
	const promptsSha256 = promptsState.hashes?.prompts ?? null;
	const { models, endpoints, settings, simulated } = request;
	const key = JSON.stringify([
		[dataset.sha256, dataset.cases.length, limit],
		[runId, models, endpoints, settings, simulated],
		[stages, promptsSha256]
	]);
	return { request, stages, promptsSha256, key };
}
