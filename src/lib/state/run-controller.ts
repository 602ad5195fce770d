/**
 * Runs one run of the engine for the Run page: start, pause, resume, stop, and a snapshot of
 * every stage's progress for the screen. Framework-free, so it is tested in Node with the memory
 * store and the simulated provider.
 *
 * Main thread, not a Web Worker: the engine spends its time awaiting the network and IndexedDB,
 * and the CPU work between calls (filling prompts, hashing with WebCrypto, validating a record)
 * is a few milliseconds per case. What would make the page stutter is redrawing on every
 * progress event, so the page draws at most once per animation frame (`frame-throttle.ts`).
 * Staying on the main thread also keeps the Web Lock, the keys and the abort signal in one
 * place, and a worker would need its own copy of the dataset and the prompt pack.
 */
import { runStages, RunProgress } from '$lib/core/engine';
import type { ToolInfo } from '$lib/core/engine/manifest';
import type { RunDataset, StageName, StageProgress } from '$lib/core/engine/types';
import { ModelCallError, RunLockedError, saidOf } from '$lib/core/errors';
import type { CoreText } from '$lib/core/said';
import { modelDirName, type RunKey } from '$lib/core/layout';
import type { ModelEvent } from '$lib/core/model/events';
import type { ModelClient } from '$lib/core/model/types';
import type { PromptPack } from '$lib/core/prompts/pack';
import type { Role, Settings } from '$lib/core/records';
import type { CheckpointStore } from '$lib/core/store/types';
import { PauseGate } from './pause-gate';
import { savePlan, updatePlanStatus, type PlanStatus, type PlanStorage } from './run-plans';

/** Hooks the model client reports to, so retries count in the progress. */
export interface ClientHooks {
	onEvent(event: ModelEvent): void;
}

/** Everything one run needs. Holds keys only inside `makeClient`'s closure. */
export interface RunRequest {
	dataset: RunDataset;
	/** File name of the dataset, remembered for "Resume". */
	datasetName: string;
	runId: string;
	/** First `limit` cases; null for all. */
	limit: number | null;
	stages: readonly StageName[];
	models: Record<Role, string>;
	/** Base URLs only. */
	endpoints: Record<Role, string>;
	settings: Settings;
	concurrency: number;
	pack: PromptPack;
	/** Keys in use, so the engine can check no record holds one. */
	keys: readonly string[];
	/** Builds the model client, wired to the hooks. */
	makeClient(hooks: ClientHooks): ModelClient | Promise<ModelClient>;
	tool?: ToolInfo;
}

export type RunStatus =
	| 'idle'
	| 'starting'
	| 'running'
	| 'pausing'
	| 'paused'
	| 'stopping'
	| 'done'
	| 'failed'
	| 'stopped';

/** The error that ended a run, with what the page needs to explain it. */
export interface RunError {
	message: string;
	/** `locked`: another tab holds the run. */
	kind:
		NonNullable<ModelCallError['details']['kind']> | 'locked' | 'checkpoint' | 'usage' | 'other';
	caseNumber?: string;
	role?: string;
	task?: string;
	status?: number;
	/** The output that could not be used (a judge's invalid JSON, an empty or cut-off text). */
	rawOutput?: string;
	/** `message` as coded pieces, for the interface language (`$lib/view/core-text`). */
	said?: CoreText[];
}

/** A time the run was paused (nothing under way), in `Date.now()` ms; `to` null while it lasts. */
export interface PauseSpan {
	from: number;
	to: number | null;
}

/** A retry the client made, for the page's log. */
export interface RetryNote {
	caseNumber: string;
	role: Role;
	reason: string;
	attempt: number;
	maxAttempts: number;
	at: number;
}

export interface RunSnapshot {
	status: RunStatus;
	run: RunKey | null;
	/** Stages of this run in order. */
	stages: readonly StageName[];
	/** The latest progress of each stage that has started. */
	progress: Partial<Record<StageName, StageProgress>>;
	/** Cases held at the pause gate. */
	waiting: number;
	error: RunError | null;
	warnings: string[];
	/** Whether this start created the run (false: it resumed a saved one); null until known. */
	created: boolean | null;
	/** The last retries, newest last. */
	retries: RetryNote[];
	/** When the run stood paused, oldest first: elapsed time leaves these out. */
	pauses: PauseSpan[];
}

const MAX_RETRY_NOTES = 20;

export interface RunControllerOptions {
	store: CheckpointStore;
	/** Where plans are remembered for "Resume". */
	plans: PlanStorage;
	/** Told on every change; throttle before drawing. */
	onChange?: (snapshot: RunSnapshot) => void;
	/** @default () => new Date() */
	now?: () => Date;
}

/** The snapshot before any run. */
export function idleSnapshot(): RunSnapshot {
	return {
		status: 'idle',
		run: null,
		stages: [],
		progress: {},
		waiting: 0,
		error: null,
		warnings: [],
		created: null,
		retries: [],
		pauses: []
	};
}

export class RunController {
	#snap: RunSnapshot = idleSnapshot();
	#gate: PauseGate | null = null;
	#abort: AbortController | null = null;
	/** Saves the plan at the first progress (see `start`). */
	#announce: (() => void) | null = null;
	/** Whether this start has written its plan: until then the run's saved plan is not ours. */
	#planned = false;
	#current: StageName | null = null;
	readonly #options: RunControllerOptions;

	constructor(options: RunControllerOptions) {
		this.#options = options;
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
		this.#set({ ...idleSnapshot(), status: 'starting', stages });
		let run: RunKey;
		let release: () => Promise<void>;
		try {
			run = { runId: request.runId, modelDir: await modelDirName(request.models.evaluated) };
			this.#set({ run });
			// Taken here, before anything is written, so a second tab is refused with nothing changed.
			release = await this.#options.store.lock(run);
		} catch (e) {
			return this.#set({ status: 'failed', error: toRunError(e) });
		}
		const storage = this.#options.plans;
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
			savePlan(storage, {
				runId: run.runId,
				modelDir: run.modelDir,
				stages,
				concurrency: request.concurrency,
				datasetName: request.datasetName,
				status: this.#snap.status === 'running' ? 'running' : 'paused',
				error: null,
				updatedAt: this.#now().toISOString()
			});
			this.#planned = true;
		};
		const progress = new RunProgress((p) => this.#onProgress(p));
		try {
			const client = await request.makeClient({
				onEvent: (event) => {
					if (event.type !== 'retry') return;
					progress.noteRetry();
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
			this.#set({ status: 'running' });
			const result = await runStages({
				dataset: request.dataset,
				limit: request.limit ?? undefined,
				stages,
				client: gate.wrap(client),
				store: alreadyLocked(this.#options.store),
				runId: run.runId,
				models: request.models,
				endpoints: request.endpoints,
				settings: request.settings,
				pack: request.pack,
				concurrency: request.concurrency,
				signal: abort.signal,
				progress,
				keys: request.keys,
				tool: request.tool
			});
			this.#writeStatus('done');
			return this.#set({
				status: 'done',
				warnings: result.warnings,
				created: result.created,
				pauses: this.#endPause()
			});
		} catch (e) {
			const stopped = abort.signal.aborted;
			const error = toRunError(e);
			this.#writeStatus(stopped ? 'stopped' : 'failed', error.message);
			return this.#set({
				status: stopped ? 'stopped' : 'failed',
				error: stopped ? null : error,
				pauses: this.#endPause()
			});
		} finally {
			this.#gate = null;
			this.#abort = null;
			this.#announce = null;
			await release();
		}
	}

	/** No new case starts; cases under way finish and are saved. */
	pause(): void {
		if (!this.#gate || !['running', 'pausing'].includes(this.#snap.status)) return;
		this.#gate.pause();
		this.#writeStatus('paused');
		this.#set({ status: 'pausing' });
		this.#checkPaused();
	}

	resume(): void {
		if (!this.#gate || !['pausing', 'paused'].includes(this.#snap.status)) return;
		this.#writeStatus('running');
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
		this.#set({ progress: { ...this.#snap.progress, [p.stage]: p } });
		this.#checkPaused();
	}

	/** Pausing becomes paused once no case is under way except those held at the gate. */
	#checkPaused(): void {
		const gate = this.#gate;
		if (!gate) return;
		const waiting = gate.waitingCases;
		const stage = this.#current ? this.#snap.progress[this.#current] : undefined;
		const underWay = (stage?.status === 'running' ? stage.inFlight : 0) - waiting;
		const patch: Partial<RunSnapshot> = {};
		if (waiting !== this.#snap.waiting) patch.waiting = waiting;
		if (this.#snap.status === 'pausing' && underWay <= 0) {
			patch.status = 'paused';
			patch.pauses = [...this.#snap.pauses, { from: this.#now().getTime(), to: null }];
		}
		if (Object.keys(patch).length > 0) this.#set(patch);
	}

	/** The pauses with the one under way (if any) ended now. */
	#endPause(): PauseSpan[] {
		const last = this.#snap.pauses.at(-1);
		if (!last || last.to !== null) return this.#snap.pauses;
		return [...this.#snap.pauses.slice(0, -1), { ...last, to: this.#now().getTime() }];
	}

	/** Writes how the run stands into its plan, once this start owns the plan. */
	#writeStatus(status: PlanStatus, error: string | null = null): void {
		if (this.#planned && this.#snap.run) {
			updatePlanStatus(this.#options.plans, this.#snap.run, status, error, this.#now());
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

/** The store with its lock already taken by the controller (Web Locks are not re-entrant). */
function alreadyLocked(store: CheckpointStore): CheckpointStore {
	return {
		lock: async () => async () => {},
		readManifest: (run) => store.readManifest(run),
		createManifest: (manifest) => store.createManifest(manifest),
		recordOperational: (run, entry) => store.recordOperational(run, entry),
		readRecords: (run, file) => store.readRecords(run, file),
		appendRecord: (run, file, record) => store.appendRecord(run, file, record),
		listRuns: () => store.listRuns(),
		deleteRun: (run) => store.deleteRun(run),
		finalizeStageFile: store.finalizeStageFile
			? (run, file, order) => store.finalizeStageFile!(run, file, order)
			: undefined
	};
}

export function toRunError(e: unknown): RunError {
	const message = e instanceof Error ? e.message : String(e);
	const said = saidOf(e);
	const coded = said ? { said } : {};
	if (e instanceof RunLockedError) return { message, kind: 'locked', ...coded };
	if (e instanceof ModelCallError) {
		const d = e.details;
		return {
			message,
			kind: d.kind ?? 'other',
			caseNumber: d.caseNumber,
			role: d.role,
			task: d.task,
			status: d.status,
			rawOutput: d.rawOutput,
			...coded
		};
	}
	const name = (e as { name?: string } | null)?.name;
	if (name === 'CheckpointError') return { message, kind: 'checkpoint', ...coded };
	if (name === 'UsageError') return { message, kind: 'usage', ...coded };
	return { message, kind: 'other' };
}
