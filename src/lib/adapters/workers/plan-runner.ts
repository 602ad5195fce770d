/**
 * Runs a plan for the Run page (in the run's worker, or in the page when no worker starts): ONE
 * run session (`openSession`) over the plan's runs, interactive or in batch mode (PROTOCOL.md §3,
 * batch mode; §8, run plans). Interactive: one `LimiterPool` for the whole plan, each run's client
 * made with it (two models on one server share its limit). Batch mode: each run under its lock,
 * with its own sender (`browserSender`: that model's endpoints and keys, or files offered for
 * download). Pause, resume, stop and the spending cap act on the session; the cap and the spend
 * so far are kept with the plan when the store keeps them (`PlanSpendStore`). Stop cancels the
 * provider batches each run has out. Files mode's outputs come back through `importOutputs`: one
 * upload answers every waiting run (`importPlanBatchOutputs`), checked whole before anything is
 * saved. Starting the same plan again resumes every run where it stopped.
 */
import type { Prices } from '$lib/core/calls/cost';
import { UsageError } from '$lib/core/errors';
import { coded } from '$lib/core/said';
import { importPlanBatchOutputs, type ImportResult } from '$lib/core/batch/import';
import type { BatchRunOptions } from '$lib/core/batch/rounds';
import {
	isBatchStore,
	type BatchSendMode,
	type BatchState,
	type BatchStore
} from '$lib/core/batch/store';
import { planRuns, type PlanSpec } from '$lib/core/engine/plan';
import type { RunDataset, StageName } from '$lib/core/engine/types';
import { modelDirName, type RunKey } from '$lib/core/layout';
import { LimiterPool } from '$lib/core/model/limiter';
import type { ModelClient, RoleEndpoint } from '$lib/core/model/types';
import type { PromptPack } from '$lib/core/prompts/pack';
import type { Role, Settings } from '$lib/core/records';
import {
	isPlanSpendStore,
	openSession,
	type Session,
	type SessionRun,
	type SessionSnapshot
} from '$lib/core/session';
import { withHeldLock } from '$lib/core/store/held-lock';
import type { CheckpointStore } from '$lib/core/store/types';
import { outputFiles } from './batch-run';
import type { BatchOutputFile } from './batch-run';
import { cancelOpenRound } from '$lib/core/control/batch-cancel';
import { browserSender, inputList, type BatchInputs } from '$lib/core/control/batch-senders';
import type { BatchView } from '$lib/core/control/batch-view';
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
	/** Per model of `spec`, its roles' endpoints with keys: in memory only, never stored. */
	clients: Record<Role, RoleEndpoint>[];
	keys: string[];
	simulated: boolean;
	/** Batch mode: how every run's rounds are sent (PROTOCOL.md §3); absent: interactive. */
	batch?: BatchSendMode;
	/**
	 * Prices and the spending cap: the session counts the spend and keeps both with the plan.
	 * `cap` undefined keeps the saved cap. Absent: money is not counted.
	 */
	spend?: { prices: Prices; cap?: number | null };
}

/** Files mode: a waiting run's input files, as the page lists them (texts stay here). */
export type PlanInputs = (BatchView['inputs'] | null)[];

/** How a plan ended: its last snapshot (files mode: each waiting run's inputs), or why not. */
export interface PlanEnd {
	snapshot: SessionSnapshot | null;
	inputs?: PlanInputs;
	error: string | null;
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

/** A run of the last plan in batch mode: what an import needs, and its files round's inputs. */
interface Member {
	run: RunKey;
	options: BatchRunOptions;
	inputs: BatchInputs;
}

/** One plan at a time: start, pause, resume, stop, a new cap; files mode's import and inputs. */
export class PlanRunner {
	#session: Session | null = null;
	#starting = false;
	#members: Member[] = [];
	#store: CheckpointStore | null = null;

	get active(): boolean {
		return this.#starting || this.#session !== null;
	}

	/** Runs `request` to its end; never throws (why it could not start is the end's `error`). */
	async run(
		request: PlanRequest,
		store: CheckpointStore,
		onSnapshot: (snapshot: SessionSnapshot) => void
	): Promise<PlanEnd> {
		if (this.active) return { snapshot: null, error: 'a plan is already active in this page' };
		this.#starting = true;
		try {
			return await this.#run(request, store, onSnapshot);
		} catch (e) {
			return { snapshot: null, error: e instanceof Error ? e.message : String(e) };
		} finally {
			this.#starting = false;
			this.#session = null;
		}
	}

	async #run(
		request: PlanRequest,
		store: CheckpointStore,
		onSnapshot: (snapshot: SessionSnapshot) => void
	): Promise<PlanEnd> {
		const { batch } = request;
		if (batch && !isBatchStore(store)) throw new Error('this store keeps no batch rounds');
		const rounds = store as CheckpointStore & BatchStore;
		const planned = planRuns(request.spec);
		const keys = await Promise.all(
			planned.map(async (p) => ({
				runId: p.runId,
				modelDir: await modelDirName(p.models.evaluated)
			}))
		);
		const limiters = new LimiterPool({ max: request.concurrency });
		const common = (i: number) => ({
			dataset: request.dataset,
			store,
			pack: request.pack,
			settings: request.settings,
			limit: request.limit ?? undefined,
			keys: request.keys,
			runId: planned[i].runId,
			models: planned[i].models,
			endpoints: planned[i].endpoints
		});
		// Batch mode: each run's saved rounds, shown from the start and kept current by its rounds.
		const states: (BatchState | null)[] = [];
		const members: Member[] = [];
		let runs: SessionRun[];
		if (batch) {
			for (const [i, key] of keys.entries()) {
				const options = { ...common(i), store: withHeldLock(rounds, key), stages: request.stages };
				members.push({ run: key, options, inputs: new Map() });
			}
			runs = planned.map((p, i) => ({
				...members[i].options,
				repetition: p.repetition,
				mode: {
					kind: 'batch',
					stages: request.stages,
					sender: browserSender(
						batch,
						keys[i],
						request.clients[p.modelIndex],
						members[i].inputs,
						request.settings.retries
					),
					onRound: (state) => (states[i] = state)
				}
			}));
			this.#store = store;
			this.#members = members;
		} else {
			runs = await Promise.all(
				planned.map(async (p, i) => ({
					...common(i),
					repetition: p.repetition,
					client: await planClient(request, p.modelIndex, p.runId, limiters),
					mode: { kind: 'interactive' as const, stages: request.stages }
				}))
			);
		}
		const spend =
			request.spend && isPlanSpendStore(store)
				? { store, planId: request.planId, ...request.spend }
				: undefined;
		const withRounds = (s: SessionSnapshot): SessionSnapshot =>
			batch ? { ...s, runs: s.runs.map((r, i) => ({ ...r, batch: states[i] ?? null })) } : s;
		const body = async (): Promise<PlanEnd> => {
			if (batch) {
				for (const [i, key] of keys.entries()) states[i] = await rounds.readBatchState(key);
			}
			const session = openSession({
				runs,
				limiters,
				spend,
				onSnapshot: (s) => onSnapshot(withRounds(s))
			});
			this.#session = session;
			const result = await session.done;
			const snapshot = withRounds(result.snapshot);
			if (!batch) return { snapshot, error: null };
			const inputs: PlanInputs = [];
			for (const [i, outcome] of result.runs.entries()) {
				inputs[i] = outcome.status === 'waiting' ? inputList(members[i].inputs) : null;
				if (outcome.status !== 'stopped') continue;
				const sender = runs[i].mode.kind === 'batch' ? runs[i].mode.sender : null;
				const cancelled = sender && (await cancelOpenRound(rounds, keys[i], sender));
				if (cancelled) snapshot.runs[i].batch = cancelled;
			}
			return { snapshot, inputs, error: null };
		};
		return batch ? underLocks(store, keys, body) : body();
	}

	pause(): void {
		this.#session?.pause();
	}

	resume(): void {
		this.#session?.resume();
	}

	stop(): void {
		this.#session?.stop();
	}

	/** A new spending cap (null: none), kept with the plan; resumes a plan it no longer holds. */
	setCap(cap: number | null): void {
		this.#session?.setCap(cap);
	}

	/**
	 * Reads output files into every waiting run of the last plan run here in batch mode: all of
	 * them, or nothing (a refusal names file and line). Start the plan again to go on.
	 */
	async importOutputs(files: readonly BatchOutputFile[]): Promise<ImportResult[]> {
		const store = this.#store;
		const members = this.#members;
		if (!store) throw new UsageError([coded('batch_no_plan_here', {})]);
		const got = await underLocks(
			store,
			members.map((m) => m.run),
			() =>
				importPlanBatchOutputs(
					members.map((m) => m.options),
					outputFiles(files)
				)
		);
		for (const m of members) m.inputs.clear();
		return got;
	}

	/** A waiting round's input file of the plan's run `index` (in plan order); null when not kept. */
	input(index: number, name: string): string | null {
		return this.#members[index]?.inputs.get(name)?.text ?? null;
	}
}
