/**
 * A run plan in batch mode for the Run page (PROTOCOL.md §3, batch mode; §8, run plans): the
 * core's `runPlanBatch` over the plan's runs, each run under its own lock with its own sender
 * (`browserSender`: that model's endpoints and keys, or files offered for download), every change
 * of a run's saved rounds told to the page as one row per model × repetition. Stop aborts every
 * run and cancels the provider batches each has out. Files mode's outputs come back through
 * `importOutputs`: one upload answers every waiting run (`importPlanBatchOutputs`), checked whole
 * before anything is saved.
 */
import { importPlanBatchOutputs, type ImportResult } from '$lib/core/batch/import';
import { runPlanBatch } from '$lib/core/batch/plan-batch';
import type { BatchRunOptions } from '$lib/core/batch/rounds';
import { isBatchStore, type BatchSendMode, type BatchState } from '$lib/core/batch/store';
import { planRuns } from '$lib/core/engine/plan';
import { modelDirName, type RunKey } from '$lib/core/layout';
import { runKey } from '$lib/core/names';
import { withHeldLock } from '$lib/core/store/held-lock';
import type { CheckpointStore } from '$lib/core/store/types';
import { cancelOpenRound } from './batch-cancel';
import { browserSender, type BatchInputs } from './batch-senders';
import { batchView } from './batch-view';
import type { PlanInput } from './plan-input';
import { planBatchStatus, type PlanBatchRow, type PlanBatchView } from './plan-batch-view';
import { toRunError } from './run-snapshot';

/** What a plan in batch mode needs (a `PlanRequest` with its `batch`). */
export interface PlanBatchInput extends PlanInput {
	batch: BatchSendMode;
}

interface Member {
	run: RunKey;
	options: BatchRunOptions;
	/** Files mode: the input files of the run's waiting round, by name. */
	inputs: BatchInputs;
}

/** Takes every run's lock (in plan order), runs `body`, then releases them. */
async function underLocks<T>(store: CheckpointStore, runs: RunKey[], body: () => Promise<T>) {
	const releases: (() => Promise<void>)[] = [];
	try {
		for (const run of runs) releases.push(await store.lock(run));
		return await body();
	} finally {
		for (const release of releases.reverse()) await release();
	}
}

export class PlanBatchRunner {
	#members: Member[] = [];
	#store: CheckpointStore | null = null;

	/** Runs every run's rounds until each is done, failed, stopped or (files) waiting. */
	async run(
		input: PlanBatchInput,
		store: CheckpointStore,
		signal: AbortSignal,
		onView: (view: PlanBatchView) => void
	): Promise<PlanBatchView> {
		if (!isBatchStore(store)) throw new Error('this store keeps no batch rounds');
		const planned = planRuns(input.spec);
		const keys = await Promise.all(
			planned.map(async (p) => ({
				runId: p.runId,
				modelDir: await modelDirName(p.models.evaluated)
			}))
		);
		const rows: PlanBatchRow[] = planned.map((p, i) => ({
			run: keys[i],
			model: p.models.evaluated,
			repetition: p.repetition,
			status: 'running',
			batch: null
		}));
		const states: (BatchState | null)[] = [];
		const view = (): PlanBatchView => ({
			mode: input.batch,
			status: planBatchStatus(rows),
			rows: rows.map((r) => ({ ...r }))
		});
		const show = () => onView(view());
		this.#store = store;
		this.#members = planned.map((p, i) => ({
			run: keys[i],
			inputs: new Map(),
			options: {
				dataset: input.dataset,
				limit: input.limit ?? undefined,
				store: withHeldLock(store, keys[i]),
				runId: p.runId,
				models: p.models,
				endpoints: p.endpoints,
				settings: input.settings,
				pack: input.pack,
				keys: input.keys,
				stages: input.stages,
				concurrency: input.concurrency,
				signal
			}
		}));
		const members = this.#members;
		return underLocks(store, keys, async () => {
			for (const [i, run] of keys.entries()) {
				states[i] = await store.readBatchState(run);
				rows[i].batch = states[i] && batchView(states[i]);
			}
			show();
			const senders = planned.map((p, i) =>
				browserSender(input.batch, keys[i], input.clients[p.modelIndex], members[i].inputs)
			);
			const outcomes = await runPlanBatch(
				members.map((m, i) => ({
					options: m.options,
					sender: senders[i],
					events: {
						onRound: (state: BatchState) => {
							rows[i].batch = batchView((states[i] = state));
							show();
						}
					}
				}))
			);
			for (const [i, outcome] of outcomes.entries()) {
				const row = rows[i];
				if ('result' in outcome) {
					row.status = outcome.result.done ? 'done' : 'waiting';
					if (!outcome.result.done && states[i]) {
						row.batch = batchView(states[i], inputList(members[i].inputs));
					}
				} else if (signal.aborted) {
					row.status = 'aborted';
					const cancelled = await cancelOpenRound(store, keys[i], senders[i]);
					if (cancelled) row.batch = batchView(cancelled);
				} else {
					row.status = 'failed';
					row.error = toRunError(outcome.error);
				}
			}
			show();
			return view();
		});
	}

	/**
	 * Reads output files into every waiting run of the last plan run here: all of them, or
	 * nothing (a refusal names file and line). Start the plan again to go on.
	 */
	async importOutputs(files: { name: string; text: string }[]): Promise<ImportResult[]> {
		const store = this.#store;
		const members = this.#members;
		if (!store) throw new Error('no plan in batch mode has run in this page');
		const got = await underLocks(
			store,
			members.map((m) => m.run),
			() =>
				importPlanBatchOutputs(
					members.map((m) => ({ ...m.options, signal: undefined })),
					files
				)
		);
		for (const m of members) m.inputs.clear();
		return got;
	}

	/** A waiting round's input file of `run`, by name; null when not kept. */
	input(run: RunKey, name: string): string | null {
		const member = this.#members.find((m) => runKey(m.run) === runKey(run));
		return member?.inputs.get(name)?.text ?? null;
	}
}

function inputList(inputs: BatchInputs) {
	return [...inputs].map(([name, f]) => ({ name, model: f.model, lines: f.lines }));
}
