/**
 * `runPlan`: the runs of a plan (models × repetitions, `plan.ts`) under one scheduler. Each run is
 * an ordinary `runAll` (manifest, lock, checks, call log, seals: `openEngine`) and writes what it
 * would write started alone; what the plan adds is sharing. Every run takes its call slots from
 * one `LimiterPool` (one limit per endpoint across the plan, AIMD as in `runAll`) and its task
 * room from one `PlanScheduler` (fair between runs). A run that fails stops alone; the others go
 * on. Pause and stop act on the whole plan; starting the same plan again resumes every run.
 */
import { UsageError } from '../errors';
import { modelDirName } from '../layout';
import { LimiterPool } from '../model/limiter';
import { runKey } from '../names';
import { DEFAULT_CONCURRENCY } from '../run-defaults';
import { coded } from '../said';
import { PlanScheduler } from './plan-scheduler';
import { PlanTracker, type PlanSnapshot } from './plan-progress';
import { runAll, type RunAllOptions } from './run-all';
import type { RunStagesResult } from './open-engine';
import type { RunTracker } from './run-progress';

/** One run of a plan: `runAll`'s options less what the plan decides for all. */
export interface PlanRunOptions extends Omit<
	RunAllOptions,
	'concurrency' | 'onSnapshot' | 'snapshotIntervalMs' | 'onTracker' | 'limiters' | 'room' | 'signal'
> {
	/** 1-based, for the progress rows. @default 1 */
	repetition?: number;
}

/** Pause and resume of a running plan (stop is the `signal`). */
export class PlanControl {
	#paused = false;
	readonly #listeners = new Set<(paused: boolean) => void>();

	get paused(): boolean {
		return this.#paused;
	}

	/** No new task (a case of a stage) starts in any run; tasks under way finish and are saved. */
	pause(): void {
		this.#set(true);
	}

	resume(): void {
		this.#set(false);
	}

	/** Told of every change; returns the unsubscribe. */
	subscribe(listener: (paused: boolean) => void): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	#set(paused: boolean): void {
		if (paused === this.#paused) return;
		this.#paused = paused;
		for (const listener of this.#listeners) listener(paused);
	}
}

export interface RunPlanOptions {
	/** The plan's runs (`planRuns` gives their ids, models and endpoints), in row order. */
	runs: readonly PlanRunOptions[];
	/**
	 * Calls in flight per endpoint across the plan, or `auto`. Only for clients without their own
	 * `limiters`. @default 4
	 */
	concurrency?: number | 'auto';
	/**
	 * The plan's one pool. Clients with limiters of their own (the OpenAI client) must have been
	 * made with this pool. @default a pool from `concurrency`
	 */
	limiters?: LimiterPool;
	/** Stops every run: calls in flight are aborted, finished cases stay saved. */
	signal?: AbortSignal;
	control?: PlanControl;
	onSnapshot?: (snapshot: PlanSnapshot) => void;
	/** @default 100 */
	snapshotIntervalMs?: number;
	/** Each run's tracker, to feed it the client's retries (`noteRetry`). */
	onTracker?: (index: number, tracker: RunTracker) => void;
}

/** How one run of the plan ended. */
export interface PlanRunOutcome {
	runId: string;
	model: string;
	status: 'done' | 'failed' | 'aborted';
	/** When it completed. */
	result?: RunStagesResult;
	/** What stopped it (a `ModelCallError`, `CheckpointError`, `UsageError`…). */
	error?: unknown;
}

export interface PlanResult {
	/** In the order of `runs`. */
	runs: PlanRunOutcome[];
	/** Every run completed. */
	complete: boolean;
	snapshot: PlanSnapshot;
}

/**
 * Runs every run of the plan together. Resolves when each has ended, saying how; throws only
 * `UsageError` for a plan no scheduler can take (no run, two runs of one run key, a client whose
 * limiters are not the plan's), before any run opens.
 */
export async function runPlan(options: RunPlanOptions): Promise<PlanResult> {
	const { runs, signal } = options;
	if (runs.length === 0) throw new UsageError([coded('plan_no_run', {})]);
	const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
	const limiters =
		options.limiters ??
		(concurrency === 'auto'
			? new LimiterPool({ auto: true })
			: new LimiterPool({ max: concurrency }));
	await checkRuns(runs, limiters);
	const scheduler = new PlanScheduler(limiters);
	const tracker = new PlanTracker({
		runs: runs.map((r) => ({
			runId: r.runId,
			model: r.models.evaluated,
			repetition: r.repetition ?? 1
		})),
		limiters,
		onSnapshot: options.onSnapshot,
		intervalMs: options.snapshotIntervalMs
	});
	const follow = (paused: boolean) => {
		if (paused) scheduler.pause();
		else scheduler.resume();
		tracker.paused(paused);
	};
	const unsubscribe = options.control?.subscribe(follow);
	if (options.control?.paused) follow(true);
	// A stop reaches runs held by a pause too: each sees the abort and ends.
	const wake = () => scheduler.wakeAll();
	signal?.addEventListener('abort', wake, { once: true });
	try {
		const outcomes = await Promise.all(
			runs.map(async (run, index): Promise<PlanRunOutcome> => {
				const base = { runId: run.runId, model: run.models.evaluated };
				try {
					const result = await runAll({
						...run,
						concurrency,
						limiters,
						room: scheduler.lane(Object.values(run.endpoints)),
						signal,
						snapshotIntervalMs: options.snapshotIntervalMs,
						onSnapshot: (snapshot) => tracker.run(index, snapshot),
						onTracker: (t) => options.onTracker?.(index, t)
					});
					tracker.ended(index, 'done');
					return { ...base, status: 'done', result };
				} catch (error) {
					const status = signal?.aborted ? 'aborted' : 'failed';
					tracker.ended(index, status, error instanceof Error ? error.message : String(error));
					return { ...base, status, error };
				}
			})
		);
		const complete = outcomes.every((o) => o.status === 'done');
		tracker.finish(complete ? 'done' : signal?.aborted ? 'aborted' : 'failed');
		return { runs: outcomes, complete, snapshot: tracker.snapshot() };
	} finally {
		unsubscribe?.();
		signal?.removeEventListener('abort', wake);
	}
}

/** Refuses two runs of one run key, and a client that limits itself with another pool. */
async function checkRuns(runs: readonly PlanRunOptions[], limiters: LimiterPool): Promise<void> {
	const keys = new Set<string>();
	for (const run of runs) {
		const key = runKey({ runId: run.runId, modelDir: await modelDirName(run.models.evaluated) });
		if (keys.has(key)) throw new UsageError([coded('plan_run_twice', { run: key })]);
		keys.add(key);
		if (run.client.limiters && run.client.limiters !== limiters) {
			throw new UsageError([coded('plan_foreign_limiters', { run: key })]);
		}
	}
}
