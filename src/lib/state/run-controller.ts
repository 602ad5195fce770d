/**
 * Runs one run of the engine for the Run page: start, pause, resume, stop, and a snapshot of
 * every stage's progress and of the whole run for the screen. Framework-free, so it is tested in
 * Node with the memory store and the simulated provider.
 *
 * Several stages run together, as the CLI's `run` command runs them: `runAll`, one scheduler, so
 * per case gen, dcg, Direct and Gold overlap and Interaction starts once that case's gen is saved;
 * the concurrency set counts model calls in flight per endpoint. One stage alone (and the CLI-only
 * pair gen + lca, which `runAll` refuses) runs through `runStages`, as a stage command does: its
 * cases are worked on `concurrency` at a time, and each endpoint takes that many calls at once.
 * Both write the same records (run-controller.spec.ts compares them byte for byte).
 *
 * In the browser it runs in a dedicated module worker (`run.worker.ts`, driven by the page
 * through `run-engine.ts`): a hidden tab's timers are throttled by the browser (the simulated
 * provider's delays, retry backoff), and the engine's bursts of work (reading a resumed run,
 * ordering the files at the end of a stage) were main-thread tasks of several hundred ms at
 * 432 cases. The worker owns the store, the run's Web Lock, the model client and its keys; the
 * page gets throttled snapshots and writes the plans into `localStorage`, which a worker has not.
 *
 * Start, pause, resume and stop share one run's lifecycle here; its parts live beside it: what
 * it is given (`run-controller-types.ts`), the whole run's figures (`run-figures.ts`), the stage
 * rows of stages run together (`run-stage-rows.ts`), pauses (`run-pauses.ts`) and the endpoint
 * slots (`run-limiters.ts`).
 */
// eslint-disable-next-line no-restricted-imports -- the Run page's single run moves onto the session next (issue 31 §3); plans already run on it
import { runAll } from '$lib/core/engine/run-all';
// eslint-disable-next-line no-restricted-imports -- as above
import { runStages } from '$lib/core/engine/run-stages';
import { RunProgress, type RunTracker } from '$lib/core/engine';
import type {
	RunSnapshot as EngineSnapshot,
	StageName,
	StageProgress
} from '$lib/core/engine/types';
import { modelDirName, type RunKey } from '$lib/core/layout';
import type { CoreText } from '$lib/core/said';
import { withHeldLock } from '$lib/core/store/held-lock';
import type { BatchRunOptions } from '$lib/core/batch/rounds';
import { BatchRunner, batchOptions } from './batch-run';
import { earlierCalls } from './earlier-calls';
import { PauseGate } from './pause-gate';
import type { RunControllerOptions, RunRequest } from './run-controller-types';
import { RunFigures } from './run-figures';
import { withLimiters } from './run-limiters';
import { endPause, pausePatch } from './run-pauses';
import { planBook, type PlanBook, type PlanStatus } from './run-plans';
import { idleSnapshot, toRunError, type RetryNote, type RunSnapshot } from './run-snapshot';
import { stageRows } from './run-stage-rows';

export * from './run-controller-types';
export * from './run-snapshot';

const MAX_RETRY_NOTES = 20;

export class RunController {
	#snap: RunSnapshot = idleSnapshot();
	#gate: PauseGate | null = null;
	#abort: AbortController | null = null;
	/** Saves the plan at the first progress (see `start`). */
	#announce: (() => void) | null = null;
	/** Whether this start has written its plan: until then the run's saved plan is not ours. */
	#planned = false;
	#current: StageName | null = null;
	/** The whole run's tracker while stages run together (`runAll`); null otherwise. */
	#tracker: RunTracker | null = null;
	/** The whole run's figures, for the run under way. */
	readonly #figures = new RunFigures();
	/** Batch mode's rounds, and a files round's inputs kept for download. */
	readonly #batch = new BatchRunner();
	/** The run under way is in batch mode. */
	#inBatch = false;
	readonly #options: RunControllerOptions;
	readonly #plans: PlanBook;

	constructor(options: RunControllerOptions) {
		this.#options = options;
		const plans = options.plans;
		this.#plans = plans && 'save' in plans ? plans : planBook(plans);
	}

	get snapshot(): RunSnapshot {
		return this.#snap;
	}

	/** True from start until the run has ended. */
	get active(): boolean {
		return ['starting', 'running', 'pausing', 'paused', 'stopping'].includes(this.#snap.status);
	}

	/**
	 * Runs the request to its end. Never throws: how it ended is in the snapshot. A run that
	 * another tab holds is refused before anything is written.
	 */
	async start(request: RunRequest): Promise<RunSnapshot> {
		if (this.active) throw new Error('a run is already active in this page');
		const stages = [...request.stages];
		this.#current = null;
		this.#tracker = null;
		this.#inBatch = request.batch !== undefined;
		this.#figures.begin(
			Math.min(request.limit ?? Infinity, request.dataset.cases.length),
			request.saved ?? {},
			request.concurrency
		);
		this.#set({ ...idleSnapshot(), status: 'starting', stages });
		let run: RunKey;
		let release: () => Promise<void>;
		try {
			run = { runId: request.runId, modelDir: await modelDirName(request.models.evaluated) };
			this.#set({ run });
			// Taken here, before anything is written, so a second tab is refused with nothing changed.
			release = await this.#options.store.lock(run);
			// Before the engine writes: the calls of the run's earlier starts, for its totals.
			this.#set({ earlier: await earlierCalls(this.#options.store, run) });
		} catch (e) {
			return this.#set({ status: 'failed', error: toRunError(e) });
		}
		const plans = this.#plans;
		this.#planned = false;
		const abort = new AbortController();
		const gate = new PauseGate(() => this.#checkPaused());
		this.#abort = abort;
		this.#gate = gate;
		// The first progress comes once the engine accepted the saved manifest and records (or wrote
		// a new manifest). Only then is the plan written: a start the engine refuses (a run id of
		// other inputs) leaves the run's own plan, its status and its error as they were. The write
		// fires a `storage` event in the other tabs, whose Run pages list this run as busy.
		this.#announce = () => {
			plans.save({
				runId: run.runId,
				modelDir: run.modelDir,
				stages,
				concurrency: request.concurrency,
				datasetName: request.datasetName,
				status: this.#snap.status === 'running' ? 'running' : 'paused',
				error: null,
				updatedAt: this.#now().toISOString(),
				...(request.batch ? { batch: request.batch } : {})
			});
			this.#planned = true;
		};
		// Several stages run together (`runAll`); one alone, and gen with lca, stage by stage.
		const together = stages.length > 1 && !(stages.includes('gen') && stages.includes('lca'));
		const progress = new RunProgress((p) => this.#onProgress(p));
		try {
			const client = await request.makeClient({
				onEvent: (event) => {
					if (event.type !== 'retry') return;
					if (together) this.#tracker?.noteRetry(event.stage);
					else progress.noteRetry();
					const note: RetryNote = {
						caseNumber: event.caseNumber,
						role: event.role,
						reason: event.reason,
						attempt: event.attempt,
						maxAttempts: event.maxAttempts,
						at: this.#now().getTime()
					};
					this.#set({ retries: [...this.#snap.retries, note].slice(-MAX_RETRY_NOTES) });
				}
			});
			this.#figures.useLimiters(client.limiters ?? null);
			this.#set({ status: 'running' });
			const common = {
				dataset: request.dataset,
				limit: request.limit ?? undefined,
				store: withHeldLock(this.#options.store, run),
				runId: run.runId,
				models: request.models,
				endpoints: request.endpoints,
				settings: request.settings,
				pack: request.pack,
				signal: abort.signal,
				keys: request.keys,
				tool: request.tool
			};
			const result = request.batch
				? await this.#runBatch(request, run, {
						signal: abort.signal,
						snapshotIntervalMs: 50,
						onTracker: (tracker) => (this.#tracker = tracker),
						onSnapshot: (snapshot) => this.#onRunSnapshot(snapshot)
					})
				: together
					? await runAll({
							...common,
							stages,
							// The gate before the slot: a call held while paused holds no slot.
							client: gate.wrap(withLimiters(client, request.endpoints, request.concurrency)),
							concurrency: request.concurrency,
							// As often as the worker posts; pausing reads the tasks under way live (#underWay).
							snapshotIntervalMs: 50,
							onTracker: (tracker) => (this.#tracker = tracker),
							onSnapshot: (snapshot) => this.#onRunSnapshot(snapshot)
						})
					: await runStages({
							...common,
							stages,
							client: gate.wrap(client),
							concurrency: request.concurrency,
							progress
						});
			if (result === null) {
				// Files mode: the round waits for its outputs; uploading them goes on (`importBatch`).
				this.#writeStatus('paused');
				return this.#set({ status: 'waiting', pauses: this.#endPause() });
			}
			this.#writeStatus('done');
			return this.#set({
				status: 'done',
				warnings: result.warnings,
				warningsSaid: result.warningsSaid,
				created: result.created,
				pauses: this.#endPause()
			});
		} catch (e) {
			const stopped = abort.signal.aborted;
			const error = toRunError(e);
			this.#writeStatus(stopped ? 'stopped' : 'failed', error.message, error.said);
			return this.#set({
				status: stopped ? 'stopped' : 'failed',
				error: stopped ? null : error,
				pauses: this.#endPause()
			});
		} finally {
			this.#gate = null;
			this.#abort = null;
			this.#announce = null;
			this.#tracker = null;
			await release();
		}
	}

	/** Batch mode: rounds until done (the pass's result) or, files mode, a round waiting (null). */
	async #runBatch(request: RunRequest, run: RunKey, pass: Partial<BatchRunOptions>) {
		const options = batchOptions(request, this.#options.store, run, pass);
		const endpoints = request.clientSpec?.endpoints;
		if (!request.batch || !endpoints) throw new Error('a batch run needs its client spec');
		const got = await this.#batch.run(request.batch, options, endpoints, (batch) =>
			this.#set({ batch })
		);
		return got.done ? got.result : null;
	}

	/**
	 * Files mode: reads the waiting round's output files (all checked before anything is saved;
	 * a refusal names file and line) under the run's lock. Start the request again to go on.
	 */
	async importBatch(
		request: Omit<RunRequest, 'makeClient'>,
		files: { name: string; text: string }[]
	) {
		if (this.active) throw new Error('a run is already active in this page');
		const run = { runId: request.runId, modelDir: await modelDirName(request.models.evaluated) };
		const release = await this.#options.store.lock(run);
		try {
			return await this.#batch.importOutputs(
				batchOptions(request, this.#options.store, run),
				files
			);
		} finally {
			await release();
		}
	}

	/** A files round's input file, by name, as offered for download; null when not kept. */
	batchInput(name: string): string | null {
		return this.#batch.inputs.get(name)?.text ?? null;
	}

	/** No new case starts; cases under way finish and are saved. */
	pause(): void {
		// Batch mode has nothing to pause: a round out is answered whole or cancelled by Stop.
		if (this.#inBatch || !this.#gate || !['running', 'pausing'].includes(this.#snap.status)) {
			return;
		}
		this.#gate.pause();
		this.#figures.resetRate();
		this.#writeStatus('paused');
		this.#set({ status: 'pausing' });
		this.#checkPaused();
	}

	resume(): void {
		if (!this.#gate || !['pausing', 'paused'].includes(this.#snap.status)) return;
		this.#writeStatus('running');
		this.#figures.resetRate();
		this.#set({ status: 'running', pauses: this.#endPause() });
		this.#gate.resume();
	}

	/** Aborts calls in flight; finished cases stay saved, unfinished ones are redone on resume. */
	stop(): void {
		if (!this.#abort || this.#abort.signal.aborted) return;
		this.#set({ status: 'stopping' });
		this.#abort.abort();
	}

	#onProgress(p: StageProgress): void {
		this.#announce?.();
		this.#announce = null;
		if (p.stage !== this.#current) {
			this.#current = p.stage;
			this.#gate?.newStage();
		}
		const progress = { ...this.#snap.progress, [p.stage]: p };
		this.#set({ progress, overall: this.#overall(progress) });
		this.#checkPaused();
	}

	/** A snapshot of stages running together (`runAll`): every stage's row and the whole run. */
	#onRunSnapshot(snap: EngineSnapshot): void {
		// A failing or refused start ends with a snapshot too: only a running one saves the plan.
		if (snap.status === 'running') {
			this.#announce?.();
			this.#announce = null;
		}
		const progress = stageRows(snap, this.#inBatch);
		const overall = this.#overall(progress, snap);
		this.#set({ progress, overall, waitingBy: this.#gate?.waitingByStage() ?? {} });
		this.#checkPaused();
	}

	/** The whole run's figures for `progress` (and the tracker's `engine` snapshot, if any). */
	#overall(progress: RunSnapshot['progress'], engine?: EngineSnapshot): RunSnapshot['overall'] {
		const status = this.#snap.status;
		return this.#figures.overall({
			stages: this.#snap.stages,
			progress,
			paused: status === 'pausing' || status === 'paused',
			underWay: this.#underWay(),
			now: this.#now().getTime(),
			engine
		});
	}

	/** Tasks (a case of a stage) under way now, less those held at the pause gate. */
	#underWay(): number {
		const waiting = this.#gate?.waitingCases ?? 0;
		if (this.#tracker) return this.#tracker.inFlight - waiting;
		const stage = this.#current ? this.#snap.progress[this.#current] : undefined;
		return (stage?.status === 'running' ? stage.inFlight : 0) - waiting;
	}

	/** Pausing becomes paused once no task is under way except those held at the gate. */
	#checkPaused(): void {
		if (!this.#gate) return;
		const patch = pausePatch(this.#snap, this.#gate, this.#underWay(), this.#now().getTime());
		if (patch) this.#set(patch);
	}

	/** The pauses with the one under way (if any) ended now. */
	#endPause() {
		return endPause(this.#snap.pauses, this.#now().getTime());
	}

	/** Writes how the run stands into its plan, once this start owns the plan. */
	#writeStatus(status: PlanStatus, error: string | null = null, errorSaid?: CoreText[]): void {
		if (this.#planned && this.#snap.run) {
			this.#plans.setStatus(this.#snap.run, status, error, this.#now(), errorSaid);
		}
	}

	#set(patch: Partial<RunSnapshot>): RunSnapshot {
		this.#snap = { ...this.#snap, ...patch };
		this.#options.onChange?.(this.#snap);
		return this.#snap;
	}

	#now(): Date {
		return this.#options.now?.() ?? new Date();
	}
}
