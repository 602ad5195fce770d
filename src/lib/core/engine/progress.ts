/**
 * Progress of the stage that is running, for the UI and the CLI, when stages run one after
 * another (`runStages`). The counting is the run's one progress model (`RunTracker`), one tracker
 * per stage; this hands each change on as the stage's `StageProgress`. The model client reports
 * retries through `noteRetry`, since only it sees them; the engine reports the rest.
 */
import type { Role } from '../record-names';
import type { CallCounter } from './context';
import { RunTracker } from './run-progress';
import type { StageName, StageProgress } from './types';

export class RunProgress implements CallCounter {
	#stage: { name: StageName; tracker: RunTracker } | null = null;
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
		return this.#stage ? this.#stage.tracker.stageProgress(this.#stage.name) : null;
	}

	start(stage: StageName, total: number, resumed: number): void {
		const tracker = new RunTracker({
			cases: total,
			stages: [stage],
			now: this.#now,
			onStage: this.#listener
		});
		this.#stage = { name: stage, tracker };
		tracker.resumed(stage, resumed);
	}

	caseStarted(): void {
		if (this.#stage) this.#stage.tracker.taskStarted(this.#stage.name);
	}

	/** `stopped`: cut short by a stop request, so neither done nor a failure. */
	caseFinished(outcome: 'done' | 'failed' | 'stopped'): void {
		if (this.#stage) this.#stage.tracker.taskFinished(this.#stage.name, outcome, false);
	}

	/** One answered model call of `role`, with the usage the provider reported. */
	call(role: Role, usage: { promptTokens: number; completionTokens: number } | null): void {
		if (this.#stage) this.#stage.tracker.counter(this.#stage.name).call(role, usage);
	}

	/** A retried call or a re-asked judge. Ignored before the first stage. */
	noteRetry(): void {
		if (this.#stage) this.#stage.tracker.noteRetry(this.#stage.name);
	}

	finish(status: 'done' | 'failed' | 'aborted', error?: string): void {
		if (this.#stage) this.#stage.tracker.finishStage(this.#stage.name, status, error);
	}
}
