/**
 * `rejudgeRun`: the engine configured to re-judge a finished run (PROTOCOL.md §5–§6, `lexpilot
 * rejudge`). A new run id shares the source's generation records (copied, never generated again)
 * and makes only the judge calls, with another judge model, endpoint or prompt pack. It is a run
 * like any other: `runStages` with the stages' plans of `prepare.ts`, so its records, call log,
 * seals and resume rules are every run's; its manifest names the source as `rejudged_from`.
 */
import { CheckpointError, UsageError } from '../../errors';
import { forwarding } from '../../forward';
import type { RunKey } from '../../layout';
import type { ModelClient } from '../../model/types';
import { caseKey } from '../../record-names';
import type { Settings } from '../../records';
import { coded } from '../../said';
import { runStages, type RunStagesOptions, type RunStagesResult } from '../run-stages';
import { rejudgePreparers } from './prepare';
import { readRejudgeSource, REJUDGING } from './source';

export interface RejudgeOptions extends Omit<
	RunStagesOptions,
	'stages' | 'models' | 'endpoints' | 'settings' | 'limit' | 'loadDataset' | 'prepare'
> {
	/** The finished run to re-judge, in the same store. */
	source: RunKey;
	/** The new run's judge: its model id and base URL (never a key). */
	judge: { model: string; endpoint: string };
	/**
	 * Changes to the source's settings: the operational ones (timeout, retries) and the judge's
	 * temperature. Every other setting is the source's, since its generation records were made so.
	 */
	settings?: Partial<Pick<Settings, 'timeout_s' | 'retries' | 'judge_temperature'>>;
}

/** The client with only the judge role: a re-judged run makes no generation call. */
function judgeOnly(client: ModelClient, simulated: boolean): ModelClient {
	return forwarding(client, {
		simulated,
		complete: (request) =>
			request.role === 'judge'
				? client.complete(request)
				: Promise.reject(
						new UsageError([
							coded('rejudge_generation_call', { role: request.role, task: request.task })
						])
					)
	});
}

/**
 * Re-judges `source` into the run `runId` (same evaluated model, so the same model folder).
 * Throws `CheckpointError` when the source is missing or unfinished, or its dataset is not the one
 * given; otherwise as `runStages`.
 */
export async function rejudgeRun(options: RejudgeOptions): Promise<RunStagesResult> {
	const { source: run, store, dataset } = options;
	if (run.runId === options.runId) {
		throw new UsageError([coded('rejudge_same_run', { runId: run.runId })]);
	}
	const release = await store.lock(run);
	let source;
	try {
		const manifest = await store.readManifest(run);
		if (!manifest) {
			throw new CheckpointError([
				coded('rejudge_no_source', { runId: run.runId, model: run.modelDir })
			]);
		}
		const selected = manifest.dataset.selected_case_numbers.map(caseKey);
		const cases = dataset.cases.slice(0, selected.length);
		const sameCases =
			cases.length === selected.length &&
			cases.every((c, i) => caseKey(c.case_number) === selected[i]);
		if (manifest.dataset.sha256 !== dataset.sha256 || !sameCases) {
			throw new CheckpointError([coded('rejudge_dataset_differs', { runId: run.runId })]);
		}
		source = await readRejudgeSource(store, run, manifest, cases);
	} finally {
		await release();
	}
	const { manifest, stages } = source;
	return runStages({
		...options,
		client: judgeOnly(options.client, manifest.simulated || options.client.simulated),
		stages,
		limit: manifest.dataset.selected_case_numbers.length,
		models: { ...manifest.models, judge: options.judge.model },
		endpoints: { ...manifest.endpoints, judge: options.judge.endpoint },
		settings: { ...manifest.settings, ...options.settings },
		prepare: rejudgePreparers(source),
		rejudgedFrom: {
			run_id: run.runId,
			model_dir: run.modelDir,
			judge: manifest.models.judge,
			prompts_sha256: manifest.prompts_sha256,
			stages: [...stages],
			shared_files: stages.flatMap((s) => [...REJUDGING[s]!.copies])
		}
	});
}
