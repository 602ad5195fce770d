/**
 * Runs a plan for the Run page (in the run's worker, or in the page when no worker starts): the
 * core's `runPlan` over the plan's runs, with ONE `LimiterPool` for the whole plan, each run's
 * client made with that pool (two models on one server share its limit). Pause and resume act on
 * the plan (`PlanControl`), stop aborts every run; finished cases stay saved, and starting the
 * same plan again resumes every run where it stopped.
 */
import { planRuns, PlanControl, runPlan, type PlanSnapshot } from '$lib/core/engine';
import type { PlanSpec } from '$lib/core/engine/plan';
import type { RunDataset, StageName } from '$lib/core/engine/types';
import { LimiterPool } from '$lib/core/model/limiter';
import type { ModelClient, RoleEndpoint } from '$lib/core/model/types';
import type { PromptPack } from '$lib/core/prompts/pack';
import type { Role, Settings } from '$lib/core/records';
import type { CheckpointStore } from '$lib/core/store/types';
import { SIMULATED_LATENCY_MS } from './browser-client';

/** Everything a plan needs, as plain data (it crosses to the worker by `postMessage`). */
export interface PlanRequest {
	planId: string;
	spec: PlanSpec;
	dataset: RunDataset;
	limit: number | null;
	stages: StageName[];
	settings: Settings;
	concurrency: number;
	pack: PromptPack;
	simulated: boolean;
	/** Per model of `spec`, its roles' endpoints with keys: in memory only, never stored. */
	clients: Record<Role, RoleEndpoint>[];
	keys: string[];
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
}

/** One plan at a time: start, pause, resume, stop. */
export class PlanRunner {
	#control: PlanControl | null = null;
	#abort: AbortController | null = null;

	get active(): boolean {
		return this.#control !== null;
	}

	/** Runs the plan to its end; resolves with its last snapshot. */
	async start(
		request: PlanRequest,
		store: CheckpointStore,
		hooks: PlanRunnerHooks
	): Promise<PlanSnapshot> {
		if (this.#control) throw new Error('a plan is already active in this page');
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
