/**
 * The engine's one progress model. For a whole `runAll`: every stage's cases, the calls answered
 * and an estimate of those left, the call rate and ETA, and the concurrency each endpoint is at.
 * Snapshots go to the listener at most every `intervalMs` (a run answers hundreds of calls a
 * second at high concurrency; a terminal or a page redraws far less often), with a trailing one
 * so the last change is never lost, and at once when the run ends. Stages run one after another
 * (`runStages`) are tracked by the same tracker over every stage of the run, and each change of
 * a stage is also handed on as its `StageProgress`, at once. The model client reports retries
 * through `noteRetry`, since only it sees them; the engine reports the rest.
 */
import type { LimiterPool } from '../model/limiter';
import { CallRate } from './call-rate';
import { SnapshotThrottle, type PacedOptions } from './snapshot-throttle';
import { priorCalls } from '../protocol';
import { perRole, type Role } from '../record-names';
import type { CallCounter } from './context';
import type { RunSnapshot, RunStageCounts, StageName, StageProgress, TokenCounts } from './types';

interface StageState extends RunStageCounts {
	/** Cases generated (not resumed) that finished. */
	generated: number;
	/** When the stage's progress began (its checkpoint read). */
	startedAt: number;
	status: StageProgress['status'];
	error?: string;
}

const noTokens = (): TokenCounts => ({ prompt: 0, completion: 0 });
const copyTokens = (tokens: Record<Role, TokenCounts>) => perRole((r) => ({ ...tokens[r] }));

export interface RunTrackerOptions extends PacedOptions<RunSnapshot> {
	cases: number;
	stages: readonly StageName[];
	/** The run's limiters, for the snapshot's concurrency. @default none: no limits to show */
	limiters?: LimiterPool;
	/** Told at once about every change of a stage, as that stage's progress. */
	onStage?: (progress: StageProgress) => void;
}

export class RunTracker {
	readonly #stages = new Map<StageName, StageState>();
	readonly #options: RunTrackerOptions;
	readonly #now: () => number;
	readonly #startedAt: number;
	/** The stage under way when stages run one after another: a retry naming none counts for it. */
	#current: StageName | undefined;
	#status: RunSnapshot['status'] = 'running';
	#error: string | undefined;
	#casesDone = 0;
	#calls = 0;
	#retries = 0;
	#failures = 0;
	readonly #byRole = perRole(() => 0);
	readonly #tokens = perRole(noTokens);
	readonly #rate = new CallRate();
	readonly #throttle: SnapshotThrottle<RunSnapshot>;

	constructor(options: RunTrackerOptions) {
		this.#options = options;
		this.#now = options.now ?? Date.now;
		this.#startedAt = this.#now();
		this.#throttle = new SnapshotThrottle(options, () => this.snapshot());
		for (const stage of options.stages) {
			this.#stages.set(stage, {
				stage,
				total: options.cases,
				done: 0,
				resumed: 0,
				inFlight: 0,
				calls: 0,
				byRole: perRole(() => 0),
				tokens: perRole(noTokens),
				retries: 0,
				failures: 0,
				doneAt: null,
				generated: 0,
				startedAt: this.#startedAt,
				status: 'running'
			});
		}
	}

	/** A stage of a run whose stages go one after another starts now: its time counts from here. */
	startStage(stage: StageName): void {
		this.#current = stage;
		this.#stages.get(stage)!.startedAt = this.#now();
	}

	/** A stage's saved cases, known once its checkpoint is read. */
	resumed(stage: StageName, cases: number): void {
		const state = this.#stages.get(stage)!;
		state.resumed = cases;
		state.done = cases;
		if (cases >= state.total) state.doneAt = this.#now();
		this.#changed(state);
	}

	/** What the contexts of `stage` report their calls to. */
	counter(stage: StageName): CallCounter {
		const state = this.#stages.get(stage)!;
		return {
			call: (role, usage) => {
				state.calls++;
				state.byRole[role]++;
				state.tokens[role].prompt += usage?.promptTokens ?? 0;
				state.tokens[role].completion += usage?.completionTokens ?? 0;
				this.#calls++;
				this.#byRole[role]++;
				this.#tokens[role].prompt += usage?.promptTokens ?? 0;
				this.#tokens[role].completion += usage?.completionTokens ?? 0;
				this.#rate.note(this.#calls, this.#now());
				this.#changed(state);
			},
			noteRetry: () => this.noteRetry(stage)
		};
	}

	/**
	 * A retry the model client saw; counted for `stage` too when the client's event names one
	 * of this run's stages (the request's `stage`), else for the stage under way, if any.
	 */
	noteRetry(stage: string | undefined = this.#current): void {
		this.#retries++;
		const state = stage === undefined ? undefined : this.#stages.get(stage as StageName);
		if (state) state.retries++;
		this.#changed(state);
	}

	/** Tasks under way now, every stage: read live, where a snapshot may be one interval old. */
	get inFlight(): number {
		let n = 0;
		for (const s of this.#stages.values()) n += s.inFlight;
		return n;
	}

	/** Cases already done for every stage when the run starts. */
	casesDone(count: number): void {
		this.#casesDone += count;
		this.#changed();
	}

	taskStarted(stage: StageName): void {
		const state = this.#stages.get(stage)!;
		state.inFlight++;
		this.#changed(state);
	}

	/** `caseDone`: every stage of the case is now done. */
	taskFinished(stage: StageName, outcome: 'done' | 'failed' | 'stopped', caseDone: boolean): void {
		const state = this.#stages.get(stage)!;
		state.inFlight--;
		if (outcome === 'done') {
			state.done++;
			state.generated++;
			if (state.done >= state.total) state.doneAt ??= this.#now();
			if (caseDone) this.#casesDone++;
		}
		if (outcome === 'failed') {
			this.#failures++;
			state.failures++;
		}
		this.#changed(state);
	}

	/** One stage has ended (stages run one after another); the run goes on. */
	finishStage(stage: StageName, status: 'done' | 'failed' | 'stopped', error?: string): void {
		const state = this.#stages.get(stage)!;
		state.status = status;
		if (error !== undefined) state.error = error;
		this.#changed(state);
	}

	/** A stage's progress as it stands. */
	stageProgress(stage: StageName): StageProgress {
		const s = this.#stages.get(stage)!;
		return {
			stage: s.stage,
			status: s.status,
			total: s.total,
			done: s.done,
			resumed: s.resumed,
			inFlight: s.inFlight,
			retries: s.retries,
			failures: s.failures,
			calls: { ...s.byRole },
			tokens: copyTokens(s.tokens),
			startedAt: s.startedAt,
			elapsedMs: this.#now() - s.startedAt,
			...(s.error !== undefined ? { error: s.error } : {})
		};
	}

	finish(status: 'done' | 'failed' | 'stopped', error?: string): void {
		this.#status = status;
		this.#error = error;
		this.#throttle.last();
	}

	/** The run as it stands. */
	snapshot(): RunSnapshot {
		const now = this.#now();
		const stages = [...this.#stages.values()];
		let estimatedTotal = this.#calls;
		for (const s of stages) {
			// Cases in flight have made some of their calls already: count them half done.
			const started = s.generated + s.inFlight / 2;
			const perCase = s.generated >= 3 ? s.calls / started : priorCalls(s.stage);
			estimatedTotal += Math.max(0, s.total - s.done - s.inFlight / 2) * perCase;
		}
		estimatedTotal = Math.max(this.#calls, Math.round(estimatedTotal));
		const perSecond = this.#rate.perSecond(now);
		const left = estimatedTotal - this.#calls;
		return {
			status: this.#status,
			stages: stages.map((s) => ({
				stage: s.stage,
				total: s.total,
				done: s.done,
				resumed: s.resumed,
				inFlight: s.inFlight,
				calls: s.calls,
				byRole: { ...s.byRole },
				tokens: copyTokens(s.tokens),
				retries: s.retries,
				failures: s.failures,
				doneAt: s.doneAt
			})),
			cases: { total: this.#options.cases, done: this.#casesDone },
			calls: {
				done: this.#calls,
				estimatedTotal,
				perSecond,
				byRole: { ...this.#byRole }
			},
			tokens: copyTokens(this.#tokens),
			etaMs: this.#status === 'running' && perSecond ? Math.round((left / perSecond) * 1000) : null,
			retries: this.#retries,
			failures: this.#failures,
			concurrency: {
				max: this.#options.limiters?.max ?? 0,
				auto: this.#options.limiters?.auto ?? false,
				endpoints: this.#options.limiters?.limits() ?? []
			},
			startedAt: this.#startedAt,
			elapsedMs: now - this.#startedAt,
			...(this.#error !== undefined ? { error: this.#error } : {})
		};
	}

	#changed(stage?: StageState): void {
		if (stage) this.#options.onStage?.(this.stageProgress(stage.stage));
		if (this.#options.onSnapshot && this.#status === 'running') this.#throttle.changed();
	}
}
