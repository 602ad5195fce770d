/**
 * The progress of a run plan: one row per run (model × repetition), each the run's own
 * `RunSnapshot` (cases done per stage, calls, tokens, retries, failures), and the whole plan's
 * calls, rate and ETA. Sent at most every `intervalMs`, and at once when the plan ends.
 */
import type { EndpointLimit, LimiterPool } from '../model/limiter';
import { SnapshotThrottle, type PacedOptions } from './snapshot-throttle';
import type { RunSnapshot } from './types';

/** Where a run of the plan stands. `waiting`: not opened yet (its checks come first). */
export type PlanRunStatus = 'waiting' | RunSnapshot['status'];

/** One row of the plan's progress: a model × repetition. */
export interface PlanRunRow {
	runId: string;
	/** The evaluated model. */
	model: string;
	/** 1-based repetition, 1 for a run of no repetition. */
	repetition: number;
	status: PlanRunStatus;
	/** The run's own progress, null until it has been opened. */
	run: RunSnapshot | null;
	/** What stopped it (the run's error), when it failed or was stopped. */
	error?: string;
}

/** The whole plan as it stands. */
export interface PlanSnapshot {
	/** `failed` when it ended with a run that did not complete (others may have). */
	status: 'running' | 'paused' | 'done' | 'failed' | 'aborted';
	runs: PlanRunRow[];
	calls: {
		/** Answered calls of every run. */
		done: number;
		/** Their sum of each run's estimate (a run not opened yet counts what it has done: 0). */
		estimatedTotal: number;
		/** Answered calls per second over the last minute, null before two samples. */
		perSecond: number | null;
	};
	/** Milliseconds left at the observed rate; null while unknown or not running. */
	etaMs: number | null;
	/** Each endpoint's limit, calls in flight and waiting, across the plan. */
	endpoints: EndpointLimit[];
	startedAt: number;
	elapsedMs: number;
}

const RATE_WINDOW_MS = 60_000;

export interface PlanTrackerOptions extends PacedOptions<PlanSnapshot> {
	runs: readonly Pick<PlanRunRow, 'runId' | 'model' | 'repetition'>[];
	limiters: LimiterPool;
}

export class PlanTracker {
	readonly #rows: PlanRunRow[];
	readonly #options: PlanTrackerOptions;
	readonly #now: () => number;
	readonly #startedAt: number;
	#status: PlanSnapshot['status'] = 'running';
	/** (time, calls done) samples, oldest first, for the rate. */
	#samples: [number, number][] = [];
	readonly #throttle: SnapshotThrottle<PlanSnapshot>;

	constructor(options: PlanTrackerOptions) {
		this.#options = options;
		this.#now = options.now ?? Date.now;
		this.#startedAt = this.#now();
		this.#throttle = new SnapshotThrottle(options, () => this.snapshot());
		this.#rows = options.runs.map((r) => ({ ...r, status: 'waiting', run: null }));
	}

	/** Run `index` as it stands now. */
	run(index: number, snapshot: RunSnapshot): void {
		const row = this.#rows[index];
		row.run = snapshot;
		row.status = snapshot.status;
		if (snapshot.error !== undefined) row.error = snapshot.error;
		this.#changed();
	}

	/** Run `index` ended without a snapshot of its end (refused before it opened). */
	ended(index: number, status: 'done' | 'failed' | 'aborted', error?: string): void {
		const row = this.#rows[index];
		if (row.status === 'waiting' || row.status === 'running') row.status = status;
		if (error !== undefined && row.error === undefined) row.error = error;
		this.#changed();
	}

	/** Paused or running again; the plan's end (`finish`) overrides both. */
	paused(paused: boolean): void {
		if (this.#status === 'running' || this.#status === 'paused') {
			this.#status = paused ? 'paused' : 'running';
			this.#throttle.now();
		}
	}

	finish(status: 'done' | 'failed' | 'aborted'): void {
		this.#status = status;
		this.#throttle.last();
	}

	snapshot(): PlanSnapshot {
		const now = this.#now();
		let done = 0;
		let estimatedTotal = 0;
		for (const row of this.#rows) {
			done += row.run?.calls.done ?? 0;
			estimatedTotal += row.run?.calls.estimatedTotal ?? 0;
		}
		this.#sample(now, done);
		const [first] = this.#samples;
		const span = (now - first[0]) / 1000;
		const perSecond = this.#samples.length >= 2 && span > 0 ? (done - first[1]) / span : null;
		const live = this.#status === 'running' || this.#status === 'paused';
		return {
			status: this.#status,
			runs: this.#rows.map((r) => ({ ...r })),
			calls: { done, estimatedTotal, perSecond },
			etaMs:
				live && perSecond
					? Math.round((Math.max(0, estimatedTotal - done) / perSecond) * 1000)
					: null,
			endpoints: this.#options.limiters.limits(),
			startedAt: this.#startedAt,
			elapsedMs: now - this.#startedAt
		};
	}

	#sample(now: number, done: number): void {
		const last = this.#samples.at(-1);
		if (!last || last[1] !== done) this.#samples.push([now, done]);
		while (this.#samples.length > 2 && this.#samples[0][0] < now - RATE_WINDOW_MS) {
			this.#samples.shift();
		}
	}

	#changed(): void {
		if (this.#options.onSnapshot) this.#throttle.changed();
	}
}
