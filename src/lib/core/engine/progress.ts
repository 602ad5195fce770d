/**
 * Progress of a run whose stages go one after another (`runStages`), for the UI and the CLI. The
 * counting is the run's one progress model: ONE `RunTracker` over every stage of the run, so the
 * session gets the same `RunSnapshot` as from stages run together; each change of the running
 * stage is also handed on as that stage's `StageProgress`. The model client reports retries
 * through `noteRetry`, since only it sees them; the engine reports the rest.
 */
import type { Role } from '../record-names';
import type { CallCounter } from './context';
import { RunTracker, type RunTrackerOptions } from './run-progress';
import type { RunSnapshot, StageName, StageProgress } from './types';

export class RunProgress implements CallCounter {
	#tracker: RunTracker | null = null;
	#stage: StageName | null = null;
	readonly #listener: (progress: StageProgress) => void;
	readonly #now: () => number;

	constructor(
		listener: (progress: StageProgress) => void = () => {},
		now: () => number = Date.now
	) {
		this.#listener = listener;
		this.#now = now;
	}

	/** The running (or last) stage's snapshot. */
	get current(): StageProgress | null {
		return this.#stage && this.#tracker ? this.#tracker.stageProgress(this.#stage) : null;
	}

	/** The whole run as it stands; null before the first stage. */
	snapshot(): RunSnapshot | null {
		return this.#tracker?.snapshot() ?? null;
	}

	/** Sets up the run's tracker over every stage it will run (before the first `start`). */
	track(options: Omit<RunTrackerOptions, 'now' | 'onStage'>): RunTracker {
		this.#tracker = new RunTracker({ ...options, now: this.#now, onStage: this.#listener });
		return this.#tracker;
	}

	start(stage: StageName, total: number, resumed: number): void {
		this.#tracker ??= this.track({ cases: total, stages: [stage] });
		this.#stage = stage;
		this.#tracker.startStage(stage);
		this.#tracker.resumed(stage, resumed);
	}

	caseStarted(): void {
		if (this.#stage) this.#tracker!.taskStarted(this.#stage);
	}

	/** `stopped`: cut short by a stop request, so neither done nor a failure. */
	caseFinished(outcome: 'done' | 'failed' | 'stopped'): void {
		if (this.#stage) this.#tracker!.taskFinished(this.#stage, outcome, false);
	}

	/** One answered model call of `role`, with the usage the provider reported. */
	call(role: Role, usage: { promptTokens: number; completionTokens: number } | null): void {
		if (this.#stage) this.#tracker!.counter(this.#stage).call(role, usage);
	}

	/** A retried call or a re-asked judge. Ignored before the first stage. */
	noteRetry(): void {
		if (this.#stage) this.#tracker!.noteRetry(this.#stage);
	}

	/** The running stage has ended. */
	finish(status: 'done' | 'failed' | 'stopped', error?: string): void {
		if (this.#stage) this.#tracker!.finishStage(this.#stage, status, error);
	}

	/** The whole run has ended. */
	end(status: 'done' | 'failed' | 'stopped', error?: string): void {
		this.#tracker?.finish(status, error);
	}
}
