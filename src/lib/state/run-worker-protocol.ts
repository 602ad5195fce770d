/**
 * The messages between the Run page and the run's worker (`run.worker.ts`), and the pure parts of
 * each side: the request as it crosses (plain data: the dataset's cases, the pack, the client's
 * spec with its keys, never a function), and the worker's throttle of snapshots.
 */
import { SnapshotThrottle } from '$lib/core/engine/snapshot-throttle';
import type { RunDataset } from '$lib/core/engine/types';
import type { CoreText } from '$lib/core/said';
import type { RunKey } from '$lib/core/layout';
import type { SessionSnapshot } from '$lib/core/session';
import type { ImportResult } from '$lib/core/batch/import';
import type { BatchOutputFile } from './batch-run';
import type { PlanEnd, PlanRequest } from './plan-runner';
import type { RunRequest } from './run-controller';
import type { PlanStatus, RunPlan } from './run-plans';
import type { ClientSpec } from './run-request';
import type { RunError, RunSnapshot } from './run-snapshot';

/** A `RunRequest` without its client: the worker builds the client again from `clientSpec`. */
export type WireRequest = Omit<RunRequest, 'makeClient' | 'clientSpec' | 'dataset'> & {
	dataset: RunDataset;
	clientSpec: ClientSpec;
};

export type ToWorker =
	| { type: 'start'; request: WireRequest }
	/** A run plan (models × repetitions); pause, resume, stop and a new cap then act on it. */
	| { type: 'start-plan'; request: PlanRequest }
	| { type: 'pause' }
	| { type: 'resume' }
	| { type: 'stop' }
	/** The plan's new spending cap (null: none); a plan it no longer holds resumes. */
	| { type: 'set-cap'; cap: number | null }
	/**
	 * Batch mode, files: output files for the waiting round of the run `request`, or (null) of
	 * every waiting run of the last plan (`batch-reply` answers, same `id`).
	 */
	| { type: 'batch-import'; id: number; request: WireRequest | null; files: BatchOutputFile[] }
	/** Batch mode, files: one of the waiting input files (of the last plan's run `index`). */
	| { type: 'batch-input'; id: number; index?: number; name: string };

/** The worker's answer to a `batch-*` message. */
export type BatchReply =
	| {
			ok: true;
			imported?: ImportResult;
			/** A plan's import: per run that took answers. */
			planImported?: ImportResult[];
			text?: string | null;
	  }
	| { ok: false; error: RunError };

export type FromWorker =
	| { type: 'snapshot'; snapshot: RunSnapshot }
	/** The run has ended (or never started): its last snapshot. */
	| { type: 'ended'; snapshot: RunSnapshot }
	| { type: 'plan-save'; plan: RunPlan }
	| { type: 'batch-reply'; id: number; reply: BatchReply }
	| { type: 'plan-snapshot'; snapshot: SessionSnapshot }
	/** The run plan has ended: its last snapshot, or why it could not start. */
	| ({ type: 'plan-ended' } & PlanEnd)
	| {
			type: 'plan-status';
			run: RunKey;
			status: PlanStatus;
			error: string | null;
			errorSaid?: CoreText[];
			at: string;
	  };

/** Plain copies: the pages' state may hold proxies, which `postMessage` cannot clone. */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The request as it is posted. Throws when it was not built with its client's spec. */
export function toWire(request: RunRequest): WireRequest {
	if (!request.clientSpec) throw new Error('the run request carries no client spec');
	const { dataset } = request;
	return {
		// Only what the engine reads; the cases are plain data from the loader.
		dataset: {
			cases: dataset.cases,
			sha256: dataset.sha256,
			historyFields: plain(dataset.historyFields),
			categories: plain(dataset.categories)
		},
		datasetName: request.datasetName,
		runId: request.runId,
		limit: request.limit,
		stages: [...request.stages],
		models: plain(request.models),
		endpoints: plain(request.endpoints),
		settings: plain(request.settings),
		concurrency: request.concurrency,
		pack: plain(request.pack),
		keys: [...request.keys],
		clientSpec: plain(request.clientSpec),
		...(request.tool ? { tool: plain(request.tool) } : {}),
		...(request.batch ? { batch: request.batch } : {})
	};
}

/**
 * Posts the controller's snapshots at the core's pace (at most one every `intervalMs`), the last
 * one always: a run answers hundreds of calls a second at high concurrency, and the page draws
 * once a frame at most. A change of status, run or error goes at once, so Pause, Stop and the
 * error panel never lag.
 */
export function snapshotPoster(post: (snapshot: RunSnapshot) => void, intervalMs = 50) {
	let latest: RunSnapshot | null = null;
	let posted: RunSnapshot | null = null;
	const pace = new SnapshotThrottle<RunSnapshot | null>(
		{
			intervalMs,
			onSnapshot: (snapshot) => {
				if (snapshot && snapshot !== posted) post((posted = snapshot));
			}
		},
		() => latest
	);
	return {
		changed(snapshot: RunSnapshot): void {
			const was = posted;
			latest = snapshot;
			const urgent =
				!was ||
				was.status !== snapshot.status ||
				was.run !== snapshot.run ||
				was.error !== snapshot.error;
			if (urgent) pace.now();
			else pace.changed();
		},
		/** Posts the latest snapshot now, if it was not posted yet. */
		flush: () => pace.last()
	};
}
