/**
 * What the Run page is shown of a run: its snapshot (status, the run session's own snapshot as it
 * is, the error that ended it). Plain data, so it crosses from the run's worker to the page by
 * `postMessage`; this module carries no engine, so the page can import it at once.
 */
import type {
	RunSnapshot as EngineRun,
	RunStageCounts,
	StageName,
	StageProgress
} from '../engine/types';
import { ModelCallError, RunLockedError, saidOf } from '../errors';
import type { RunKey } from '../layout';
import type { CoreText } from '../said';
import type { Role } from '../records';
import type { BatchCard } from './batch-view';
import type { SessionSnapshot, SessionStatus } from '../session/tracker';
import type { EarlierCalls } from './earlier-calls';

/** Before the session opens (`idle`, `starting`), then the session's own status. */
export type RunStatus = 'idle' | 'starting' | SessionStatus;

/** The error that ended a run, with what the page needs to explain it. */
export interface RunError {
	message: string;
	/** `locked`: another tab holds the run; `storage_full`: browser storage refused a record. */
	kind:
		| NonNullable<ModelCallError['details']['kind']>
		| 'locked'
		| 'storage_full'
		| 'checkpoint'
		| 'usage'
		| 'other';
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
	/** The run's session as it last stood (its one row is the run); null until it opens. */
	session: SessionSnapshot | null;
	error: RunError | null;
	warnings: string[];
	/** {@link warnings} coded, one for one, when the engine coded them (else each is its English). */
	warningsSaid?: readonly CoreText[];
	/** Whether this start created the run (false: it resumed a saved one); null until known. */
	created: boolean | null;
	/** The last retries, newest last. */
	retries: RetryNote[];
	/** When the run stood paused, oldest first: elapsed time leaves these out. */
	pauses: PauseSpan[];
	/** The run's calls before this start (a resume), from its call log; null when none. */
	earlier: EarlierCalls | null;
	/** Batch mode: the rounds and how the last stands; null for an interactive run. */
	batch: BatchCard | null;
}

/** The run's own progress (the session's one row), null until the run has opened. */
export function runOf(snap: RunSnapshot): EngineRun | null {
	return snap.session?.runs[0]?.run ?? null;
}

/**
 * A stage's row of the run's progress (`RunSnapshot.stages`), with its status from the run's:
 * done once every case is and none is under way; failed with a failed case; while the run goes on
 * (or a batch pass waits for its round) running; else stopped. Null: not started (no case done,
 * under way or called yet).
 */
export function stageProgressRow(
	run: EngineRun,
	c: RunStageCounts,
	status: RunStatus
): (RunStageCounts & Pick<StageProgress, 'status' | 'startedAt' | 'elapsedMs'>) | null {
	if (c.done === 0 && c.inFlight === 0 && c.calls === 0 && c.failures === 0) return null;
	const going = !['done', 'failed', 'stopped'].includes(status);
	const end = c.doneAt ?? run.startedAt + run.elapsedMs;
	return {
		...c,
		status:
			c.done >= c.total && c.inFlight === 0
				? 'done'
				: c.failures > 0
					? 'failed'
					: going
						? 'running'
						: 'stopped',
		startedAt: run.startedAt,
		elapsedMs: Math.max(0, end - run.startedAt)
	};
}

/** The snapshot before any run. */
export function idleSnapshot(): RunSnapshot {
	return {
		status: 'idle',
		run: null,
		stages: [],
		session: null,
		error: null,
		warnings: [],
		created: null,
		retries: [],
		pauses: [],
		earlier: null,
		batch: null
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
	if (said?.some((text) => text.code === 'storage_full_record')) {
		return { message, kind: 'storage_full', ...coded };
	}
	if (name === 'CheckpointError') return { message, kind: 'checkpoint', ...coded };
	if (name === 'UsageError') return { message, kind: 'usage', ...coded };
	return { message, kind: 'other' };
}
