/**
 * The run's worker's calls (`run.worker.ts`, through `worker-rpc`) and the handlers that answer
 * them, in the worker or, where none can start, in the page's thread (`inThreadPort`): one code
 * either way. The handlers own the engine (`RunController`, `PlanRunner`), the store and the
 * run's Web Lock, and the model client with its keys, which arrive in the start call and live only
 * where the handlers run. A run's snapshots and its plan writes (the page keeps plans in
 * `localStorage`, which a worker has not) are events of its start call. The page imports the
 * types only: the engine loads with the worker, or with the fallback on first use.
 */
import type { RpcContext, RpcHandlers } from '$lib/adapters/worker-rpc';
import type { ImportResult } from '$lib/core/batch/import';
import { SnapshotThrottle } from '$lib/core/engine/snapshot-throttle';
import type { RunDataset } from '$lib/core/engine/types';
import type { SessionSnapshot } from '$lib/core/session';
import type { CheckpointStore } from '$lib/core/store/types';
import { browserClientFactory } from './browser-client';
import type { BatchOutputFile } from './batch-run';
import { PlanRunner, type PlanEnd, type PlanRequest } from './plan-runner';
import { RunController, type RunRequest } from './run-controller';
import type { PlanBook, RunPlan } from '$lib/core/control/run-plans';
import type { ClientFactory, ClientSpec } from './run-controller-types';
import {
	idleSnapshot,
	toRunError,
	type RunError,
	type RunSnapshot
} from '$lib/core/control/run-snapshot';

/** A `RunRequest` without its client: the handlers build the client again from `clientSpec`. */
export type WireRequest = Omit<RunRequest, 'makeClient' | 'clientSpec' | 'dataset'> & {
	dataset: RunDataset;
	clientSpec: ClientSpec;
};

/** What a run tells the page on the way: its snapshot, or a write to its plan. */
export type RunEvent =
	{ snapshot: RunSnapshot } | { save: RunPlan } | { status: Parameters<PlanBook['setStatus']> };

/** The answer to a batch call; a refusal (bad output file, storage) is its error. */
export type BatchReply =
	| {
			ok: true;
			imported?: ImportResult;
			/** A plan's import: per run that took answers. */
			planImported?: ImportResult[];
			text?: string | null;
	  }
	| { ok: false; error: RunError };

/**
 * A control's answer: what the run said at once when no start call was open to carry it (Stop
 * of a files round waiting for its outputs, whose run has ended: its status and new snapshot).
 */
type Control = { call: null; result: RunEvent[] };

export type RunApi = {
	/** Runs one run to its end (never fails: how it ended is its last snapshot). */
	start: { call: WireRequest; event: RunEvent; result: RunSnapshot };
	/** Runs a plan (models × repetitions) to its end; pause, resume, stop and set-cap act on it. */
	'start-plan': { call: PlanRequest; event: SessionSnapshot; result: PlanEnd };
	/**
	 * Batch mode, files: output files for the waiting round of the run `request`, or (null) of
	 * every waiting run of the last plan.
	 */
	'batch-import': {
		call: { request: WireRequest | null; files: BatchOutputFile[] };
		result: BatchReply;
	};
	/** Batch mode, files: one of the waiting input files (of the last plan's run `index`). */
	'batch-input': { call: { name: string; index?: number }; result: BatchReply };
	pause: Control;
	resume: Control;
	stop: Control;
	/** The plan's new spending cap (null: none); a plan it no longer holds resumes. */
	'set-cap': { call: number | null; result: void };
};

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

/**
 * The handlers over the store `openStore` gives (the worker's IndexedDB, or the page's), one run
 * or one plan at a time, with model clients made by `clients` from the request's spec.
 */
export function runHandlers(
	openStore: () => Promise<CheckpointStore>,
	clients: ClientFactory = browserClientFactory
): RpcHandlers<RunApi> {
	/** The run under way's events go to its start call. */
	let emit: RpcContext<RunEvent>['emit'] = () => {};
	const throttle = snapshotPoster((snapshot) => emit({ snapshot }));
	let controller: Promise<RunController> | null = null;
	const plan = new PlanRunner();
	const open = (): Promise<RunController> => {
		controller ??= openStore().then(
			(store) =>
				new RunController({
					store,
					plans: {
						save: (save) => emit({ save }),
						setStatus: (...status) => emit({ status })
					},
					onChange: (snapshot) => throttle.changed(snapshot)
				})
		);
		// Storage that would not open is tried again at the next start.
		controller.catch(() => (controller = null));
		return controller;
	};
	/**
	 * Pause, resume and stop act on the plan under way, else on the run. A run that has ended
	 * (waiting for a files round) has no start call open: what it says at once is the answer.
	 */
	const act = async (type: 'pause' | 'resume' | 'stop'): Promise<RunEvent[]> => {
		if (plan.active) return (plan[type](), []);
		const c = await controller;
		if (!c || c.active) return (c?.[type](), []);
		const told: RunEvent[] = [];
		const open = emit;
		emit = (event) => told.push(event);
		try {
			c[type]();
		} finally {
			emit = open;
		}
		return told;
	};
	/** A batch call's answer; a refusal is its error. */
	const batch = (answer: (c: RunController) => Promise<BatchReply>): Promise<BatchReply> =>
		open()
			.then(answer)
			.catch((e: unknown) => ({ ok: false, error: toRunError(e) }));
	return {
		async start(request, context) {
			emit = context.emit;
			const snapshot = await open()
				.then((c) => c.start({ ...request, makeClient: clients(request.clientSpec) }))
				.catch((e: unknown) => ({
					...idleSnapshot(),
					status: 'failed' as const,
					error: toRunError(e)
				}));
			throttle.flush();
			return snapshot;
		},
		'start-plan': (request, { emit }) =>
			openStore()
				.then((store) => plan.run(request, store, emit))
				.catch((e: unknown) => ({
					snapshot: null,
					error: e instanceof Error ? e.message : String(e)
				})),
		'batch-import': ({ request, files }) =>
			batch(async (c) =>
				request
					? { ok: true, imported: await c.importBatch(request, files) }
					: { ok: true, planImported: await plan.importOutputs(files) }
			),
		'batch-input': ({ name, index }) =>
			batch(async (c) => ({
				ok: true,
				text: index === undefined ? c.batchInput(name) : plan.input(index, name)
			})),
		pause: () => act('pause'),
		resume: () => act('resume'),
		stop: () => act('stop'),
		'set-cap': (cap) => plan.setCap(cap)
	};
}
