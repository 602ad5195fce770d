/** The words of the engine: stages, the dataset it runs, and what it reports. */
import type { Case, CategoryMap, HistoryFields } from '../dataset/types';
import type { StageName } from '../protocol';
import type { Role } from '../record-names';

/** The stages are the protocol's (`../protocol/stages.ts`); `run-all.ts` and the plan specs read them here. */
export { RUN_ALL_STAGES, STAGE_NAMES, type StageName } from '../protocol';

/**
 * What the engine needs of a loaded dataset. The loader's `Dataset` fits it; so does any
 * object a test builds by hand.
 */
export interface RunDataset {
	/** Every case in file order; the run takes the first `limit`. */
	cases: Case[];
	/** SHA-256 of the file's bytes. */
	sha256: string;
	historyFields: HistoryFields;
	/** cause → class, recorded in the manifest. */
	categories: CategoryMap;
}

export type TokenCounts = { prompt: number; completion: number };

/** Where a stage's cases stand: the counts a stage snapshot and a `runAll` share both carry. */
export interface StageCaseCounts {
	stage: StageName;
	/** Selected cases. */
	total: number;
	/** Cases finished for this stage, resumed ones included. */
	done: number;
	/** Of `done`, cases whose records were already saved (no model call). */
	resumed: number;
	/** Cases of this stage being worked on now. */
	inFlight: number;
}

/**
 * How a run or a stage stands: the one status vocabulary of the engine and the session
 * (`stopped`: ended by a stop request; its finished cases are saved and a start resumes it).
 */
export type RunStatus = 'running' | 'done' | 'failed' | 'stopped';

/** A snapshot of one stage, sent on every change. */
export interface StageProgress extends StageCaseCounts {
	status: RunStatus;
	/** Retried calls (network, rate limit, rejected output) and re-asked judges. */
	retries: number;
	/** Cases that failed; the stage stops at the first. */
	failures: number;
	/** Model calls answered, by role. */
	calls: Record<Role, number>;
	/** Tokens as reported by the provider (or estimated by the simulated one), by role. */
	tokens: Record<Role, TokenCounts>;
	/** `Date.now()` when the stage started. */
	startedAt: number;
	/** Milliseconds since `startedAt`. */
	elapsedMs: number;
	/** The error that stopped the stage. */
	error?: string;
}

/** One stage's share of a `runAll` snapshot. */
export interface RunStageCounts extends StageCaseCounts {
	/** Model calls answered for this stage. */
	calls: number;
	/** Of `calls`, by role. */
	byRole: Record<Role, number>;
	/** Tokens of this stage's calls, by role. */
	tokens: Record<Role, TokenCounts>;
	/** Retries of this stage's calls and re-asked judges (those a client reports with a stage). */
	retries: number;
	/** Cases of this stage that failed. */
	failures: number;
	/** `Date.now()` when every case of the stage was done; null until then. */
	doneAt: number | null;
}

/** The concurrency in force for one endpoint. */
export interface EndpointConcurrency {
	endpoint: string;
	/** Calls allowed in flight now (lower after 429s; growing with `auto`). */
	limit: number;
	/** Calls holding a slot now. */
	active: number;
	/** Calls waiting for a slot. */
	waiting: number;
}

/** A snapshot of a whole `runAll` (every stage), sent as it changes (at most every 100 ms or so). */
export interface RunSnapshot {
	status: RunStatus;
	stages: RunStageCounts[];
	/** Selected cases; one is done when every stage of the run is done for it. */
	cases: { total: number; done: number };
	calls: {
		/** Answered model calls (re-asked judge outputs included). */
		done: number;
		/**
		 * Estimated calls of the whole run: those answered plus, per stage, the cases left times
		 * the calls a case took so far (a prior before three cases are done).
		 */
		estimatedTotal: number;
		/** Answered calls per second over the last minute, null before two calls. */
		perSecond: number | null;
		byRole: Record<Role, number>;
	};
	tokens: Record<Role, TokenCounts>;
	/** Milliseconds left at the observed call rate; null while unknown. */
	etaMs: number | null;
	/** Retried calls and re-asked judges. */
	retries: number;
	/** Cases that failed; the run stops at the first. */
	failures: number;
	concurrency: {
		/** The ceiling per endpoint (`--concurrency N`, or 64 with `auto`). */
		max: number;
		auto: boolean;
		endpoints: EndpointConcurrency[];
	};
	startedAt: number;
	elapsedMs: number;
	error?: string;
}
