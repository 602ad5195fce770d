/**
 * A Run-page run in batch mode, as a session's batch run: rounds sent by the provider or offered
 * as files, every change of the saved round state told to the Progress card; Stop cancels the
 * provider's batches of the round out and marks it cancelled (its requests go in a new round on
 * resume). Files mode's outputs come back through `importOutputs`, checked whole before anything
 * is saved.
 */
import { importBatchOutputs, type ImportResult, type OutputFile } from '$lib/core/batch/import';
import type { BatchRunOptions, RoundSender } from '$lib/core/batch/rounds';
import type { BatchSendMode, BatchStore } from '$lib/core/batch/store';
import type { RunKey } from '$lib/core/layout';
import type { RoleEndpoint } from '$lib/core/model/types';
import type { Role } from '$lib/core/records';
import { isBatchStore } from '$lib/core/batch/store';
import { withHeldLock } from '$lib/core/store/held-lock';
import type { CheckpointStore } from '$lib/core/store/types';
import type { RunMode, RunOutcome } from '$lib/core/session';
import { cancelOpenRound } from '$lib/core/control/batch-cancel';
import { browserSender, inputList, type BatchInputs } from '$lib/core/control/batch-senders';
import type { RunRequest } from './run-controller-types';
import { BatchCardFeed } from '$lib/core/control/batch-card';
import type { BatchCard } from '$lib/core/control/batch-view';

/**
 * An output file uploaded for a files round: its name as given and the file itself (a `File` is
 * handed to the worker without copying its bytes, and read there a line at a time).
 */
export interface BatchOutputFile {
	name: string;
	file: Blob;
}

export class BatchRunner {
	/** The input files of the files round waiting, kept for download. */
	readonly inputs: BatchInputs = new Map();
	#sender: RoundSender | null = null;
	#card: BatchCardFeed | null = null;

	/**
	 * The session's batch mode for `run` (whose lock the caller holds), its saved rounds shown at
	 * once and at every change.
	 */
	async mode(
		to: {
			mode: BatchSendMode;
			store: CheckpointStore;
			run: RunKey;
			endpoints: Record<Role, RoleEndpoint>;
			/** The run's own retries, for each call to the provider. */
			retries: number | undefined;
		},
		stages: RunRequest['stages'],
		onCard: (card: BatchCard) => void
	): Promise<RunMode> {
		const { mode, store, run } = to;
		const rounds = batchStore(store);
		this.inputs.clear();
		const sender = browserSender(mode, run, to.endpoints, this.inputs, to.retries);
		const card = new BatchCardFeed(mode, () => rounds.readBatchAnswers(run), onCard);
		card.show(await rounds.readBatchState(run));
		this.#sender = sender;
		this.#card = card;
		return { kind: 'batch', stages, sender, onRound: (state) => card.show(state) };
	}

	/** After the session: a waiting files round offers its inputs; a stopped run cancels its round. */
	async ended(outcome: RunOutcome, store: CheckpointStore, run: RunKey): Promise<void> {
		const card = this.#card;
		if (!card) return;
		if (outcome.status === 'waiting') {
			card.show(await batchStore(store).readBatchState(run), inputList(this.inputs));
		} else if (outcome.status === 'stopped' && this.#sender) {
			const cancelled = await cancelOpenRound(batchStore(store), run, this.#sender);
			if (cancelled) card.show(cancelled);
		}
	}

	/** Reads output files into the waiting round: all of them, or nothing (a refusal names the place). */
	async importOutputs(
		options: BatchRunOptions,
		files: readonly BatchOutputFile[]
	): Promise<ImportResult> {
		const got = await importBatchOutputs(options, outputFiles(files));
		this.inputs.clear();
		return got;
	}
}

/** Uploaded output files as an import reads them: each a stream of its bytes (`Blob.stream()`). */
export function outputFiles(files: readonly BatchOutputFile[]): OutputFile[] {
	return files.map((f) => ({ name: f.name, open: () => f.file.stream() }));
}

function batchStore(store: CheckpointStore): CheckpointStore & BatchStore {
	if (!isBatchStore(store)) throw new Error('this store keeps no batch rounds');
	return store;
}

/** What a run's request gives the engine, whichever way the run goes. */
export function runInputs(request: Omit<RunRequest, 'makeClient'>, run: RunKey) {
	return {
		dataset: request.dataset,
		limit: request.limit ?? undefined,
		runId: run.runId,
		models: request.models,
		endpoints: request.endpoints,
		settings: request.settings,
		pack: request.pack,
		keys: request.keys,
		tool: request.tool
	};
}

/** The batch options of a run's request over `store` (whose lock on `run` the caller holds). */
export function batchOptions(
	request: Omit<RunRequest, 'makeClient'>,
	store: CheckpointStore,
	run: RunKey
): BatchRunOptions {
	return {
		...runInputs(request, run),
		store: withHeldLock(batchStore(store), run),
		stages: request.stages,
		concurrency: request.concurrency
	};
}
