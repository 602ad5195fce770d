/**
 * A Run-page run in batch mode (`runBatch`): rounds sent by the provider or offered as files,
 * every change of the saved round state told to the Progress card; Stop cancels the provider's
 * batches of the round out and marks it cancelled (its requests go in a new round on resume).
 * Files mode's outputs come back through `importOutputs`, checked whole before anything is saved.
 */
import { importBatchOutputs } from '$lib/core/batch/import';
// eslint-disable-next-line no-restricted-imports -- the Run page's single run moves onto the session next (issue 31 §3); plans already run on it
import { runBatch, type BatchRunOptions, type BatchRunResult } from '$lib/core/batch/rounds';
import type { BatchSendMode, BatchState } from '$lib/core/batch/store';
import { modelDirName } from '$lib/core/layout';
import type { RoleEndpoint } from '$lib/core/model/types';
import type { Role } from '$lib/core/records';
import { isBatchStore } from '$lib/core/batch/store';
import { withHeldLock } from '$lib/core/store/held-lock';
import type { CheckpointStore } from '$lib/core/store/types';
import type { RunKey } from '$lib/core/layout';
import { cancelOpenRound } from './batch-cancel';
import { browserSender, type BatchInputs } from './batch-senders';
import type { RunRequest } from './run-controller-types';
import { BatchCardFeed } from './batch-card';
import type { BatchCard, BatchView } from './batch-view';

export class BatchRunner {
	/** The input files of the files round waiting, kept for download. */
	readonly inputs: BatchInputs = new Map();

	/** Runs rounds until done, or (files mode) until a round waits for its outputs. */
	async run(
		mode: BatchSendMode,
		options: BatchRunOptions,
		endpoints: Record<Role, RoleEndpoint>,
		onCard: (card: BatchCard) => void
	): Promise<BatchRunResult> {
		const run = { runId: options.runId, modelDir: await modelDirName(options.models.evaluated) };
		const sender = browserSender(mode, run, endpoints, this.inputs);
		this.inputs.clear();
		const card = new BatchCardFeed(mode, () => options.store.readBatchAnswers(run), onCard);
		let last: BatchState | null = await options.store.readBatchState(run);
		card.show(last);
		try {
			const result = await runBatch(options, sender, {
				onRound: (state) => card.show((last = state))
			});
			if (!result.done) card.show(last, this.#inputList());
			return result;
		} catch (e) {
			if (options.signal?.aborted) {
				const cancelled = await cancelOpenRound(options.store, run, sender);
				if (cancelled) card.show(cancelled);
			}
			throw e;
		}
	}

	/** Reads output files into the waiting round: all of them, or nothing (a refusal names the place). */
	async importOutputs(
		options: BatchRunOptions,
		files: { name: string; text: string }[]
	): Promise<{ answers: number; round: number }> {
		const got = await importBatchOutputs(options, files);
		this.inputs.clear();
		return got;
	}

	#inputList(): BatchView['inputs'] {
		return [...this.inputs].map(([name, f]) => ({ name, model: f.model, lines: f.lines }));
	}
}

/**
 * The batch options of a run's request over `store` (whose lock on `run` the caller holds), the
 * engine's options of one pass added (`pass`: stages together, snapshots).
 */
export function batchOptions(
	request: Omit<RunRequest, 'makeClient'>,
	store: CheckpointStore,
	run: RunKey,
	pass: Partial<BatchRunOptions> = {}
): BatchRunOptions {
	if (!isBatchStore(store)) throw new Error('this store keeps no batch rounds');
	return {
		dataset: request.dataset,
		limit: request.limit ?? undefined,
		store: withHeldLock(store, run),
		runId: run.runId,
		models: request.models,
		endpoints: request.endpoints,
		settings: request.settings,
		pack: request.pack,
		keys: request.keys,
		tool: request.tool,
		stages: request.stages,
		concurrency: request.concurrency,
		...pass
	};
}
