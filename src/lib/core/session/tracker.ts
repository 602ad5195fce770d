/**
 * The progress of a run session: one row per run (model × repetition), each the run's own
 * `RunSnapshot` (cases done per stage, calls, tokens, retries, failures) and, in batch mode, its
 * saved rounds; the whole session's status, calls, rate and ETA, and its spend against the cap.
 * Sent at most every `intervalMs`, and at once when the status changes or the session ends.
 */
import type { BatchState } from '../batch/store';
import type { EndpointLimit, LimiterPool } from '../model/limiter';
import { CallRate } from '../engine/call-rate';
import { SnapshotThrottle, type PacedOptions } from '../engine/snapshot-throttle';
import type { RunSnapshot } from '../engine/types';
import type { SpendView } from './spend';

/**
 * Where a run of the session stands: `queued` before it opens (its checks come first);
 * `waiting` when a batch round in files mode waits for its outputs; `stopped` when a stop ended
 * it (its finished cases are saved; the same session started again resumes it).
 */
export type SessionRunStatus = 'queued' | 'running' | 'waiting' | 'done' | 'failed' | 'stopped';

/**
 * Where the whole session stands. `pausing`: no new task starts, tasks under way finish;
 * `paused` once none is under way (by the user, or by the spending cap: `spend.capped`);
 * `stopping`: calls in flight are being aborted. It ends `done` when every run completed,
 * `waiting` when the runs left wait for batch outputs, `stopped` after a stop, else `failed`.
 */
export type SessionStatus =
	'running' | 'pausing' | 'paused' | 'stopping' | 'waiting' | 'done' | 'failed' | 'stopped';

/** The run modes of a session (`SessionRun.mode.kind`). */
export type RunModeKind = 'interactive' | 'batch' | 'rejudge';

/** One row of the session's progress: a model × repetition. */
export interface SessionRow {
	runId: string;
	/** The evaluated model. */
	model: string;
	/** 1-based repetition, 1 for a run of no repetition. */
	repetition: number;
	mode: RunModeKind;
	status: SessionRunStatus;
	/** The run's own progress (in batch mode: its last pass), null until it has been opened. */
	run: RunSnapshot | null;
	/** Batch mode: the run's saved rounds, null before they are read. */
	batch?: BatchState | null;
	/** What stopped it (the run's error), when it failed or was stopped. */
	error?: string;
}

/** The whole session as it stands. */
export interface SessionSnapshot {
	status: SessionStatus;
	runs: SessionRow[];
	calls: {
		/** Answered calls of every run. */
		done: number;
		/** Their sum of each run's estimate (a run not opened yet counts what it has done: 0). */
		estimatedTotal: number;
		/** Answered calls per second over the last minute, null before two samples. */
		perSecond: number | null;
	};
	/** Milliseconds left at the observed rate; null while unknown, paused or ended. */
	etaMs: number | null;
	/** Tasks (a case of a stage) under way now, across the session: what a pause waits for. */
	underWay: number;
	/** Each endpoint's limit, calls in flight and waiting, across the session. */
	endpoints: EndpointLimit[];
	/** Money so far against the cap; null when the session was given no prices. */
	spend: SpendView | null;
	startedAt: number;
	elapsedMs: number;
}

export interface SessionTrackerOptions extends PacedOptions<SessionSnapshot> {
	runs: readonly Pick<SessionRow, 'runId' | 'model' | 'repetition' | 'mode'>[];
	limiters: LimiterPool;
	/** The spend as it stands now, for each snapshot. */
	spend?: () => SpendView;
	/** Tasks under way now (the scheduler's). @default none */
	underWay?: () => number;
}

export class SessionTracker {
	readonly #rows: SessionRow[];
	readonly #options: SessionTrackerOptions;
	readonly #now: () => number;
	readonly #startedAt: number;
	#status: SessionStatus = 'running';
	readonly #rate = new CallRate();
	readonly #throttle: SnapshotThrottle<SessionSnapshot>;

	constructor(options: SessionTrackerOptions) {
		this.#options = options;
		this.#now = options.now ?? Date.now;
		this.#startedAt = this.#now();
		this.#throttle = new SnapshotThrottle(options, () => this.snapshot());
		this.#rows = options.runs.map((r) => ({ ...r, status: 'queued', run: null }));
	}

	get status(): SessionStatus {
		return this.#status;
	}

	get rows(): readonly SessionRow[] {
		return this.#rows;
	}

	/** Run `index` as it stands now. */
	run(index: number, snapshot: RunSnapshot): void {
		const row = this.#rows[index];
		row.run = snapshot;
		if (row.status === 'queued' || row.status === 'running') row.status = snapshot.status;
		if (snapshot.error !== undefined) row.error = snapshot.error;
		this.#changed();
	}

	/** Batch mode: run `index`'s saved rounds changed. */
	rounds(index: number, state: BatchState | null): void {
		this.#rows[index].batch = state;
		if (this.#rows[index].status === 'queued') this.#rows[index].status = 'running';
		this.#throttle.now();
	}

	/** Run `index` ended. */
	ended(index: number, status: Exclude<SessionRunStatus, 'queued' | 'running'>, error?: string) {
		const row = this.#rows[index];
		row.status = status;
		if (error !== undefined) row.error = error;
		this.#changed();
	}

	/** The session's status changed (pause, resume, stop, end): told at once. */
	setStatus(status: SessionStatus): void {
		// Time paused is no part of the rate.
		if (status === 'running' && this.#status !== 'running') this.#rate.reset();
		this.#status = status;
		if (['done', 'failed', 'stopped', 'waiting'].includes(status)) this.#throttle.last();
		else this.#throttle.now();
	}

	snapshot(): SessionSnapshot {
		const now = this.#now();
		let done = 0;
		let estimatedTotal = 0;
		for (const row of this.#rows) {
			done += row.run?.calls.done ?? 0;
			estimatedTotal += row.run?.calls.estimatedTotal ?? 0;
		}
		this.#rate.note(done, now);
		const perSecond = this.#rate.perSecond(now);
		return {
			status: this.#status,
			runs: this.#rows.map((r) => ({ ...r })),
			calls: { done, estimatedTotal, perSecond },
			etaMs:
				this.#status === 'running' && perSecond
					? Math.round((Math.max(0, estimatedTotal - done) / perSecond) * 1000)
					: null,
			underWay: this.#options.underWay?.() ?? 0,
			endpoints: this.#options.limiters.limits(),
			spend: this.#options.spend?.() ?? null,
			startedAt: this.#startedAt,
			elapsedMs: now - this.#startedAt
		};
	}

	#changed(): void {
		if (this.#options.onSnapshot) this.#throttle.changed();
	}
}
