/**
 * The one way to start work (DESIGN: the run session). A session runs a plan of N ≥ 1 runs
 * (model × repetition), each in one mode — interactive (every stage together, or stage after
 * stage as the stage commands run them), batch (rounds through a provider's Batch API or request
 * files) or re-judge (a finished run's responses judged again) — under one scheduler:
 * - one `LimiterPool` (calls in flight per endpoint across every run) and one
 *   `SessionScheduler` (task room, fair between runs; with a spending cap, runs finish in order:
 *   repetition 1 of every model, then repetition 2 …);
 * - pause, resume and stop: a paused session starts no new task (a case of a stage), tasks under
 *   way finish and are saved; stop aborts calls in flight, finished cases stay saved, and the same
 *   session started again resumes every run;
 * - the spending cap and the spend so far, kept with the plan (`spend.ts`): passing the cap
 *   pauses the session, a session opened again past its cap starts paused, and raising the cap
 *   (`setCap`) resumes it;
 * - one snapshot (`SessionSnapshot`) with one status vocabulary, the runs' own progress and
 *   one rate/ETA.
 * The CLI's `run`, stage commands, plans, `batch` and `rejudge`, and the Run page, each open one.
 */
import type { BatchRound } from '../batch/store';
import { runBatch, type RoundSender } from '../batch/rounds';
import type { BatchStore, BatchState } from '../batch/store';
import { UsageError } from '../errors';
import { modelDirName, type RunKey } from '../layout';
import { LimiterPool } from '../model/limiter';
import type { ModelClient } from '../model/types';
import { runKey } from '../names';
import type { Settings } from '../records';
import { DEFAULT_CONCURRENCY } from '../run-defaults';
import { coded } from '../said';
import type { CheckpointStore } from '../store/types';
import type { EngineOptions, RunStagesResult } from '../engine/open-engine';
import { rejudgeRun } from '../engine/rejudge/rejudge';
import { runAll } from '../engine/run-all';
import type { RunTracker } from '../engine/run-progress';
import { messageOf } from '../engine/run-errors';
import { runStages } from '../engine/run-stages';
import { RUN_ALL_STAGES, type StageName, type StageProgress } from '../engine/types';
import { SessionScheduler, type TaskRoom } from './scheduler';
import { SpendMeter, type SpendOptions } from './spend';
import {
	SessionTracker,
	type RunModeKind,
	type SessionRunStatus,
	type SessionSnapshot
} from './tracker';

/** How one run of a session runs. */
export type RunMode =
	| {
			kind: 'interactive';
			/** @default every stage that writes new records (`RUN_ALL_STAGES`) */
			stages?: readonly StageName[];
			/**
			 * Stage after stage, each `concurrency` cases at a time, as the stage commands run
			 * (and as `gen` with `lca` must). @default false: every stage together
			 */
			inTurn?: boolean;
			/** In turn: told about every change of the running stage. */
			onStage?: (progress: StageProgress) => void;
	  }
	| {
			kind: 'batch';
			stages?: readonly StageName[];
			/** Sends a round and collects its answers (a provider's Batch API, or files). */
			sender: RoundSender;
			/** Told the run's saved rounds after every change. */
			onRound?: (state: BatchState) => void;
	  }
	| {
			kind: 'rejudge';
			/** The finished run to re-judge, in the same store; the session's run is the new one. */
			source: RunKey;
			/** The new run's judge: its model id and base URL (never a key). */
			judge: { model: string; endpoint: string };
			/** Operational settings and the judge's temperature; the rest are the source's. */
			settings?: Partial<Pick<Settings, 'timeout_s' | 'retries' | 'judge_temperature'>>;
			/** Told about every change of the stage being re-judged (they go one after another). */
			onStage?: (progress: StageProgress) => void;
	  };

/** One run of a session: what the engine needs of a run, and its mode. */
export interface SessionRun extends Omit<
	EngineOptions,
	'signal' | 'batch' | 'rejudgedFrom' | 'client'
> {
	/** Answers every role; unused in batch mode (its client answers from the rounds). */
	client?: ModelClient;
	/** 1-based, for the progress rows. @default 1 */
	repetition?: number;
	mode: RunMode;
}

export interface SessionOptions {
	runs: readonly SessionRun[];
	/**
	 * Calls in flight per endpoint across the session, or `auto`. Only for clients without their
	 * own `limiters`; run in turn, the cases of a stage at once. @default 4
	 */
	concurrency?: number | 'auto';
	/**
	 * The session's one pool. Clients with limiters of their own (the OpenAI client) must have
	 * been made with this pool. @default a pool from `concurrency`
	 */
	limiters?: LimiterPool;
	/** Stops the session (as `stop()`). */
	signal?: AbortSignal;
	/** The spending cap and spend so far, kept with the plan; none: money is not counted. */
	spend?: SpendOptions;
	onSnapshot?: (snapshot: SessionSnapshot) => void;
	/** @default 100 */
	snapshotIntervalMs?: number;
	/** Each run's tracker, to feed it the client's retries (`noteRetry`). */
	onTracker?: (index: number, tracker: Pick<RunTracker, 'noteRetry'>) => void;
}

/** How one run of the session ended. */
export interface RunOutcome {
	runId: string;
	model: string;
	status: Exclude<SessionRunStatus, 'queued' | 'running'>;
	/** When it completed. */
	result?: RunStagesResult;
	/** Batch mode: the rounds answered, and the longest chain of calls of a case. */
	rounds?: number;
	longestChain?: number;
	/** Batch files mode: the round whose outputs it waits for. */
	waiting?: BatchRound;
	/** What stopped it (a `ModelCallError`, `CheckpointError`, `UsageError`…). */
	error?: unknown;
}

export interface SessionResult {
	/** In the order of `runs`. */
	runs: RunOutcome[];
	/** Every run completed. */
	complete: boolean;
	snapshot: SessionSnapshot;
}

/** A session under way: its snapshot, its controls, and how it ends. */
export interface Session {
	readonly snapshot: SessionSnapshot;
	/** Resolves when every run has ended; rejects only with `UsageError` before any run opens. */
	readonly done: Promise<SessionResult>;
	/** No new task starts in any run; tasks under way finish and are saved. */
	pause(): void;
	/** Tasks start again (not while the spending cap holds the session: raise it with `setCap`). */
	resume(): void;
	/** Aborts calls in flight in every run; finished cases stay saved. */
	stop(): void;
	/** A new spending cap (null: none), kept with the plan; resumes a session it no longer holds. */
	setCap(cap: number | null): void;
}

/** Opens a session over `options.runs` and starts it. */
export function openSession(options: SessionOptions): Session {
	return new RunSession(options);
}

class RunSession implements Session {
	readonly done: Promise<SessionResult>;
	readonly #options: SessionOptions;
	readonly #limiters: LimiterPool;
	readonly #scheduler: SessionScheduler;
	readonly #tracker: SessionTracker;
	readonly #abort = new AbortController();
	readonly #meter: SpendMeter | null;
	/** Whether the user paused (a pause by the cap is the meter's). */
	#paused = false;
	#ended = false;

	constructor(options: SessionOptions) {
		this.#options = options;
		const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
		this.#limiters =
			options.limiters ??
			new LimiterPool(concurrency === 'auto' ? { auto: true } : { max: concurrency });
		this.#scheduler = new SessionScheduler(this.#limiters, () => this.#settle());
		this.#meter = options.spend ? new SpendMeter(options.spend, () => this.#hold()) : null;
		const runs = options.runs;
		this.#tracker = new SessionTracker({
			runs: runs.map((r) => ({
				runId: r.runId,
				model: r.models.evaluated,
				repetition: r.repetition ?? 1,
				mode: r.mode.kind
			})),
			limiters: this.#limiters,
			intervalMs: options.snapshotIntervalMs,
			onSnapshot: options.onSnapshot,
			spend: this.#meter === null ? undefined : () => this.#meter!.view(),
			underWay: () => this.#scheduler.inFlight
		});
		const outer = options.signal;
		const stop = () => this.stop();
		if (outer?.aborted) this.#abort.abort();
		else outer?.addEventListener('abort', stop, { once: true });
		// The caller's signal may outlive the session: its listener goes with the session's end.
		this.done = this.#run().finally(() => outer?.removeEventListener('abort', stop));
	}

	get snapshot(): SessionSnapshot {
		return this.#tracker.snapshot();
	}

	pause(): void {
		this.#paused = true;
		this.#hold();
	}

	resume(): void {
		this.#paused = false;
		if (this.#meter?.capped) return;
		this.#release();
	}

	stop(): void {
		if (this.#ended || this.#abort.signal.aborted) return;
		// Aborted before the snapshot that says so: a listener that stops again returns at once.
		this.#abort.abort();
		this.#tracker.setStatus('stopping');
		// Runs held by a pause see the abort too.
		this.#scheduler.wakeAll();
	}

	setCap(cap: number | null): void {
		if (!this.#meter) return;
		const held = this.#meter.setCap(cap);
		this.#scheduler.ordered = cap !== null;
		if (held) this.#hold();
		else if (!this.#paused) this.#release();
		else this.#tracker.setStatus(this.#tracker.status);
	}

	/** Every run, each to its end; then how the session ended. */
	async #run(): Promise<SessionResult> {
		const { runs } = this.#options;
		if (runs.length === 0) throw new UsageError([coded('plan_no_run', {})]);
		await checkRuns(runs, this.#limiters);
		if (this.#meter && (await this.#meter.open())) this.#hold();
		this.#scheduler.ordered = (this.#meter?.cap ?? null) !== null;
		const outcomes = await Promise.all(runs.map((run, i) => this.#runOne(run, i)));
		this.#ended = true;
		const complete = outcomes.every((o) => o.status === 'done');
		const left = outcomes.filter((o) => o.status !== 'done');
		this.#tracker.setStatus(
			complete
				? 'done'
				: this.#abort.signal.aborted
					? 'stopped'
					: left.every((o) => o.status === 'waiting')
						? 'waiting'
						: 'failed'
		);
		await this.#meter?.save();
		return { runs: outcomes, complete, snapshot: this.#tracker.snapshot() };
	}

	async #runOne(run: SessionRun, index: number): Promise<RunOutcome> {
		const base = { runId: run.runId, model: run.models.evaluated };
		const signal = this.#abort.signal;
		let room: TaskRoom | null = null;
		const common = {
			...run,
			signal,
			snapshotIntervalMs: this.#options.snapshotIntervalMs,
			onSnapshot: (s: Parameters<SessionTracker['run']>[1]) => this.#tracker.run(index, s)
		};
		try {
			const mode = run.mode;
			if (mode.kind === 'batch') {
				const got = await runBatch(
					{ ...common, store: run.store as CheckpointStore & BatchStore, stages: mode.stages },
					mode.sender,
					{
						onRound: (state) => {
							this.#tracker.rounds(index, state);
							mode.onRound?.(state);
						}
					}
				);
				if (!got.done) {
					this.#tracker.ended(index, 'waiting');
					return { ...base, status: 'waiting', waiting: got.waiting, rounds: got.rounds };
				}
				this.#tracker.ended(index, 'done');
				const { result, rounds, longestChain } = got;
				return { ...base, status: 'done', result, rounds, longestChain };
			}
			// Every mode but batch is given its client (`SessionRun.client`); its calls are priced.
			const given = run.client as ModelClient;
			const client = this.#meter ? this.#meter.meter(given, run.models) : given;
			// Repetition 1 of every model first, then repetition 2 …: the order runs finish in
			// while a spending cap holds the session (the scheduler is ordered then).
			const rank = (run.repetition ?? 1) * this.#options.runs.length + index;
			room = this.#scheduler.lane(Object.values(run.endpoints), rank);
			const limiters = this.#limiters;
			const onTracker = (t: RunTracker) => this.#options.onTracker?.(index, t);
			const interactive = { ...common, client, limiters, room, onTracker };
			let result: RunStagesResult;
			if (mode.kind === 'rejudge' || mode.inTurn) {
				// Stage after stage (a re-judge too), each stage's cases a pool of the session's width.
				const inTurn = {
					...interactive,
					concurrency: limiters.max,
					onProgress: mode.onStage
				};
				result =
					mode.kind === 'rejudge'
						? await rejudgeRun({
								...inTurn,
								source: mode.source,
								judge: mode.judge,
								settings: mode.settings
							})
						: await runStages({ ...inTurn, stages: mode.stages ?? RUN_ALL_STAGES });
			} else {
				// Ordered, its calls also wait behind those of the runs before it.
				const callRank = () => (this.#scheduler.ordered ? rank : 0);
				result = await runAll({ ...interactive, stages: mode.stages, rank: callRank });
			}
			this.#tracker.ended(index, 'done');
			return { ...base, status: 'done', result };
		} catch (error) {
			const status = signal.aborted ? 'stopped' : 'failed';
			this.#tracker.ended(index, status, messageOf(error));
			return { ...base, status, error };
		} finally {
			// A run that ended before it scheduled a task (refused on open) gives up its room too.
			room?.close();
		}
	}

	/** Pauses the scheduler: pausing until the tasks under way have ended, then paused. */
	#hold(): void {
		if (this.#ended || this.#abort.signal.aborted) return;
		const interactive = this.#options.runs.some((r) => r.mode.kind !== 'batch');
		// Batch mode has nothing to pause: a round out is answered whole or cancelled by a stop.
		if (!interactive) return;
		this.#scheduler.pause();
		this.#tracker.setStatus(this.#scheduler.inFlight === 0 ? 'paused' : 'pausing');
	}

	#release(): void {
		if (this.#ended || this.#abort.signal.aborted) return;
		const status = this.#tracker.status;
		if (status !== 'pausing' && status !== 'paused') return;
		this.#tracker.setStatus('running');
		this.#scheduler.resume();
	}

	/** The last task under way ended: a pausing session is now paused. */
	#settle(): void {
		if (this.#tracker.status === 'pausing') this.#tracker.setStatus('paused');
	}
}

/** Refuses two runs of one run key, and a client that limits itself with another pool. */
async function checkRuns(runs: readonly SessionRun[], limiters: LimiterPool): Promise<void> {
	const keys = new Set<string>();
	for (const run of runs) {
		const key = runKey({ runId: run.runId, modelDir: await modelDirName(run.models.evaluated) });
		if (keys.has(key)) throw new UsageError([coded('plan_run_twice', { run: key })]);
		keys.add(key);
		if (run.client?.limiters && run.client.limiters !== limiters) {
			throw new UsageError([coded('plan_foreign_limiters', { run: key })]);
		}
	}
}

export type { SessionSnapshot, SessionRow, SessionStatus, SessionRunStatus } from './tracker';
export type { RunModeKind };
