/**
 * The run's worker: owns the engine (`RunController` over `runStages`), the IndexedDB store and
 * the run's Web Lock, and the model client with its keys, which arrive in the start message and
 * live only in this worker's memory. The page sends start, pause, resume and stop; the worker
 * sends throttled snapshots, the plan writes (the page keeps them in `localStorage`) and the
 * last snapshot when the run ends. Its timers are not throttled when the tab is hidden.
 */
/// <reference lib="webworker" />
import { openIdbStore } from '$lib/adapters/idb-store';
import { browserClientFactory } from './browser-client';
import { PlanRunner } from './plan-runner';
import { RunController } from './run-controller';
import { batchReply } from './batch-engine';
import { idleSnapshot, toRunError } from './run-snapshot';
import { snapshotPoster, type FromWorker, type ToWorker } from './run-worker-protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (message: FromWorker) => scope.postMessage(message);
const throttle = snapshotPoster((snapshot) => post({ type: 'snapshot', snapshot }));

let controller: Promise<RunController> | null = null;
const planRunner = new PlanRunner();

function open(): Promise<RunController> {
	controller ??= openIdbStore().then(
		(store) =>
			new RunController({
				store,
				plans: {
					save: (plan) => post({ type: 'plan-save', plan }),
					setStatus: (run, status, error, now, errorSaid) =>
						post({ type: 'plan-status', run, status, error, errorSaid, at: now.toISOString() })
				},
				onChange: (snapshot) => throttle.changed(snapshot)
			})
	);
	// Storage that would not open is tried again at the next start.
	controller.catch(() => (controller = null));
	return controller;
}

scope.onmessage = (event: MessageEvent<ToWorker>) => {
	const message = event.data;
	if (message.type === 'start') {
		const { request } = message;
		void open()
			.then((c) => c.start({ ...request, makeClient: browserClientFactory(request.clientSpec) }))
			.catch((e: unknown) => ({
				...idleSnapshot(),
				status: 'failed' as const,
				error: toRunError(e)
			}))
			.then((snapshot) => {
				throttle.flush();
				post({ type: 'ended', snapshot });
			});
		return;
	}
	if (message.type === 'start-plan') {
		void openIdbStore()
			.then((store) =>
				planRunner.run(message.request, store, (snapshot) =>
					post({ type: 'plan-snapshot', snapshot })
				)
			)
			.catch((e: unknown) => ({
				snapshot: null,
				error: e instanceof Error ? e.message : String(e)
			}))
			.then((end) => post({ type: 'plan-ended', ...end }));
		return;
	}
	if (message.type === 'batch-import' || message.type === 'batch-input') {
		const { id } = message;
		void open()
			.then((c) => batchReply(c, planRunner, message))
			.catch((e: unknown) => ({ ok: false as const, error: toRunError(e) }))
			.then((reply) => post({ type: 'batch-reply', id, reply }));
		return;
	}
	if (message.type === 'set-cap') return planRunner.setCap(message.cap);
	if (planRunner.active) return planRunner[message.type]();
	void controller?.then((c) => c[message.type]());
};
