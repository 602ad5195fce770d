/**
 * What the Run form's run id already holds, before Start: nothing (a new run), a run of the same
 * inputs (Start resumes it; its saved cases are not counted in the estimate), or a run of other
 * inputs, which the engine would refuse (PROTOCOL.md §6) — with every difference, so the page can say
 * what differs in the browser's words before anything is started, written or overwritten.
 * The manifest's builder and comparer (and the zod schemas behind them) are imported on the first
 * check, not with the Run page, to keep its first load small (PERFORMANCE.md).
 */
import type { StageName } from '$lib/core/engine/types';
import { modelDirName, type RunKey } from '$lib/core/layout';
import type { Manifest } from '$lib/core/records';
import type { ManifestDifference } from '$lib/core/store/resume';
import type { CheckpointStore } from '$lib/core/store/types';
import type { RunRequest } from '$lib/adapters/workers/run-controller';
import { runKey } from '$lib/core/names';
import { type RunPlan } from '$lib/core/control/run-plans';
import { savedPerStage } from './unfinished-runs';
import { onlyWhatDiffers } from './code-difference';

export type SavedRun =
	| { kind: 'new'; run: RunKey }
	| {
			kind: 'resume';
			run: RunKey;
			/** Cases saved per stage of the form: a resume does not run them again. */
			saved: Partial<Record<StageName, number>>;
	  }
	| {
			kind: 'refused';
			run: RunKey;
			manifest: Manifest;
			/** Every input that differs from the saved run's: each one refuses a resume. */
			differences: ManifestDifference[];
			/** The dataset file the run was started on, when this browser remembers it. */
			datasetName: string | null;
	  };

/** What a request needs to be compared with a saved run; `simulated` is the client's. */
export type ManifestRequest = Pick<
	RunRequest,
	'dataset' | 'runId' | 'limit' | 'models' | 'endpoints' | 'settings' | 'concurrency' | 'pack'
> & { simulated: boolean; tool?: RunRequest['tool'] };

/** The manifest `runStages` would write (or check on resume) for `request`. */
export async function manifestOf(request: ManifestRequest): Promise<Manifest> {
	const { dataset } = request;
	const { buildManifest } = await import('$lib/core/engine/manifest');
	return buildManifest({
		runId: request.runId,
		modelDir: await modelDirName(request.models.evaluated),
		dataset,
		selected: dataset.cases.slice(0, request.limit ?? dataset.cases.length),
		pack: request.pack,
		models: request.models,
		endpoints: request.endpoints,
		settings: request.settings,
		concurrency: request.concurrency,
		simulated: request.simulated,
		tool: request.tool
	});
}

/** Looks up the form's run in `store` and compares it with what Start would run. */
export async function checkSavedRun(
	store: CheckpointStore,
	request: ManifestRequest,
	stages: readonly StageName[],
	plans: readonly RunPlan[] = []
): Promise<SavedRun> {
	const wanted = await manifestOf(request);
	const run: RunKey = { runId: wanted.run_id, modelDir: wanted.model_dir };
	const saved = await store.readManifest(run);
	if (!saved) return { kind: 'new', run };
	const { manifestDifferences } = await import('$lib/core/store/resume');
	const differences = await onlyWhatDiffers(saved, manifestDifferences(saved, wanted));
	if (differences.length === 0) {
		return { kind: 'resume', run, saved: await savedPerStage(store, run, stages) };
	}
	const plan = plans.find((p) => runKey(p) === runKey(run));
	return {
		kind: 'refused',
		run,
		manifest: saved,
		differences,
		datasetName: plan?.datasetName ?? null
	};
}
