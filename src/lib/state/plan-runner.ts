/**
 * Runs a plan for the Run page (in the run's worker, or in the page when no worker starts): the
 * core's `runPlan` over the plan's runs, with ONE `LimiterPool` for the whole plan, each run's
 * client made with that pool (two models on one server share its limit). Pause and resume act on
 * the plan (`PlanControl`), stop aborts every run; finished cases stay saved, and starting the
 * same plan again resumes every run where it stopped. A plan in batch mode (`batch` set) goes
 * through `PlanBatchRunner` instead: rounds, no pool, nothing to pause.
 */
import { planRuns, PlanControl, runPlan, type PlanSnapshot } from '$lib/core/engine';
import { LimiterPool } from '$lib/core/model/limiter';
import type { ModelClient } from '$lib/core/model/types';
import type { CheckpointStore } from '$lib/core/store/types';
import type { BatchSendMode } from '$lib/core/batch/store';
import { SIMULATED_LATENCY_MS } from './browser-client';
import { PlanBatchRunner } from './plan-batch-runner';
import type { PlanBatchView } from './plan-batch-view';
import type { PlanInput } from './plan-input';

/** Everything a plan needs, as plain data (it crosses to the worker by `postMessage`). */
export interface PlanRequest extends PlanInput {
	planId: string;
	simulated: boolean;
	/** Batch mode: how every run's rounds are sent (PROTOCOL.md §3); absent: interactive. */
	batch?: BatchSendMode;
}

/** Builds one run's client with the plan's pool. */
async function planClient(
	request: PlanRequest,
	modelIndex: number,
	runId: string,
	limiters: LimiterPool
): Promise<ModelClient> {
	if (request.simulated) {
		const { createSimulatedClient } = await import('$lib/core/simulated');
		const model = request.spec.models[modelIndex].evaluated.model;
		return createSimulatedClient({
			pack: request.pack,
			latencyMs: SIMULATED_LATENCY_MS,
			model,
			runId
		});
	}
	const { createOpenAIClient } = await import('$lib/core/model/openai-client');
	return createOpenAIClient(request.clients[modelIndex], {
		retries: request.settings.retries,
		timeoutMs: request.settings.timeout_s * 1000,
		limiters
	});
}

export interface PlanRunnerHooks {
	onSnapshot(snapshot: PlanSnapshot): void;
	/** Batch mode: the rows of every run's rounds, at each change. */
	onBatch?(view: PlanBatchView): void;
}

/** How a plan ended: its last snapshot (batch mode: its rows), or why it could not start. */
export interface PlanEnd {
	snapshot: PlanSnapshot | null;
	batch?: PlanBatchView;
	error: string | null;
}

/** Runs `request` (interactive or batch mode) on `runner`; never throws. */
export async function runPlanRequest(
	runner: PlanRunner,
	request: PlanRequest,
	store: CheckpointStore,
	hooks: PlanRunnerHooks
): Promise<PlanEnd> {
	try {
		const { batch } = request;
		if (!batch) return { snapshot: await runner.start(request, store, hooks), error: null };
		const onView = (view: PlanBatchView) => hooks.onBatch?.(view);
		return {
			snapshot: null,
			batch: await runner.startBatch({ ...request, batch }, store, onView),
			error: null
		};
	} catch (e) {
		return { snapshot: null, error: e instanceof Error ? e.message : String(e) };
	}
}

/** One plan at a time: start, pause, resume, stop. */
export class PlanRunner {
	#control: PlanControl | null = null;
	#abort: AbortController | null = null;
	/** Batch mode's rounds, and a files round's inputs kept for download. */
	readonly batch = new PlanBatchRunner();

	get active(): boolean {
		return this.#abort !== null;
	}

	/** Runs a plan in batch mode until every run is done, failed, stopped or waiting (files). */
	async startBatch(
		request: PlanRequest & { batch: BatchSendMode },
		store: CheckpointStore,
		onView: (view: PlanBatchView) => void
	): Promise<PlanBatchView> {
		if (this.#abort) throw new Error('a plan is already active in this page');
		const abort = (this.#abort = new AbortController());
		try {
			return await this.batch.run(request, store, abort.signal, onView);
		} finally {
			this.#abort = null;
		}
	}

	/** Runs the plan to its end; resolves with its last snapshot. */
	async start(
		request: PlanRequest,
		store: CheckpointStore,
		hooks: PlanRunnerHooks
	): Promise<PlanSnapshot> {
		if (this.#abort) throw new Error('a plan is already active in this page');
		const control = (this.#control = new PlanControl());
		const abort = (this.#abort = new AbortController());
		try {
			const limiters = new LimiterPool({ max: request.concurrency });
			const runs = await Promise.all(
				planRuns(request.spec).map(async (r) => ({
					dataset: request.dataset,
					store,
					pack: request.pack,
					settings: request.settings,
					limit: request.limit ?? undefined,
					keys: request.keys,
					stages: request.stages,
					runId: r.runId,
					repetition: r.repetition,
					models: r.models,
					endpoints: r.endpoints,
					client: await planClient(request, r.modelIndex, r.runId, limiters)
				}))
			);
			const result = await runPlan({
				runs,
				limiters,
				signal: abort.signal,
				control,
				onSnapshot: hooks.onSnapshot
			});
			return result.snapshot;
		} finally {
			this.#control = null;
			this.#abort = null;
		}
	}

	pause(): void {
		this.#control?.pause();
	}

	resume(): void {
		this.#control?.resume();
	}

	stop(): void {
		this.#abort?.abort();
	}
}
