/**
 * Where the Run page's run is carried out: in a dedicated module worker (`run.worker.ts`) when
 * the browser can start one, else in this thread with the same `RunController` (a host whose CSP
 * forbids workers, say: the run works, but slows down while its tab is hidden, and the page may
 * stutter at hundreds of cases). Either way the page sees one `RunEngine`.
 */
import type { CheckpointStore } from '$lib/core/store/types';
import type { SessionSnapshot } from '$lib/core/session';
import type { PlanEnd, PlanRequest } from './plan-runner';
import type { RunRequest } from './run-controller';
import { savePlan, updatePlanStatus, type PlanStorage } from './run-plans';
import { idleSnapshot, toRunError, type RunSnapshot } from './run-snapshot';
import { batchAsker, batchReply } from './batch-engine';
import type { BatchOutputFile } from './batch-run';
import { toWire, type BatchReply, type FromWorker, type ToWorker } from './run-worker-protocol';

export interface RunEngine {
	/** The run as last reported. */
	readonly snapshot: RunSnapshot;
	/** Runs the request to its end; never throws: how it ended is in the snapshot. */
	start(request: RunRequest): Promise<RunSnapshot>;
	pause(): void;
	resume(): void;
	stop(): void;
	/**
	 * Runs a plan to its end (pause, resume, stop and `setCap` then act on it), telling
	 * `onSnapshot` its progress; never throws: resolves with its last snapshot, or why it could
	 * not start.
	 */
	startPlan(
		request: PlanRequest,
		onSnapshot: (snapshot: SessionSnapshot) => void
	): Promise<PlanEnd>;
	/** The running plan's new spending cap (null: none); a plan it no longer holds resumes. */
	setCap(cap: number | null): void;
	/**
	 * Batch mode, files: imports output files for the waiting round of the run `request`, or (null)
	 * of every waiting run of the last plan (start the run or plan again to go on).
	 */
	importBatch(request: RunRequest | null, files: BatchOutputFile[]): Promise<BatchReply>;
	/** Batch mode, files: the text of one of the waiting input files (of the plan's run `index`). */
	batchInput(name: string, index?: number): Promise<BatchReply>;
}

export type { PlanEnd } from './plan-runner';

/** The part of a `Worker` the engine uses, so tests can hand in a stand-in. */
export interface RunWorkerLike {
	postMessage(message: ToWorker): void;
	onmessage: ((event: MessageEvent<FromWorker>) => void) | null;
	onerror: ((event: ErrorEvent | Event) => void) | null;
	terminate(): void;
}

export interface RunEngineOptions {
	/** Where the page keeps plans (`localStorage`), asked at each write. */
	plans: () => PlanStorage;
	/** Told on every snapshot; throttle before drawing. */
	onChange: (snapshot: RunSnapshot) => void;
	/** The store for the in-thread fallback. */
	store: () => Promise<CheckpointStore>;
}

/** The in-thread engine, loaded on first use: it carries the whole engine. */
async function inThread(options: RunEngineOptions): Promise<RunEngine> {
	const [{ RunController }, { PlanRunner }] = await Promise.all([
		import('./run-controller'),
		import('./plan-runner')
	]);
	const store = await options.store();
	const controller = new RunController({
		store,
		plans: options.plans(),
		onChange: options.onChange
	});
	const plan = new PlanRunner();
	const act = (type: 'pause' | 'resume' | 'stop') =>
		plan.active ? plan[type]() : controller[type]();
	return {
		get snapshot() {
			return controller.snapshot;
		},
		start: (request) => controller.start(request),
		pause: () => act('pause'),
		resume: () => act('resume'),
		stop: () => act('stop'),
		startPlan: (request, onSnapshot) => plan.run(request, store, onSnapshot),
		setCap: (cap) => plan.setCap(cap),
		importBatch: (request, files) =>
			refused(
				batchReply(controller, plan, {
					...{ type: 'batch-import', id: 0, files },
					request: request && toWire(request)
				})
			),
		batchInput: (name, index) =>
			refused(batchReply(controller, plan, { type: 'batch-input', id: 0, index, name }))
	};
}

/** A batch reply, a refusal (bad output file, storage) as its error rather than a rejection. */
function refused(reply: Promise<BatchReply>): Promise<BatchReply> {
	return reply.catch((e: unknown) => ({ ok: false, error: toRunError(e) }));
}

/**
 * An engine over a worker made by `spawn` on first start. A worker that cannot start (it fails
 * before its first message) hands the run to the in-thread engine; one that dies during a run
 * ends it as failed, with what is saved still saved, and is replaced at the next start.
 */
export function workerRunEngine(
	spawn: (() => RunWorkerLike) | null,
	options: RunEngineOptions
): RunEngine {
	let worker: RunWorkerLike | null = null;
	/** The worker has sent something: it runs. */
	let alive = false;
	let fallback: Promise<RunEngine> | null = null;
	let usingFallback = false;
	let snapshot = idleSnapshot();
	/** Resolves the run under way: its last snapshot, or null when the worker could not start. */
	let ended: ((snapshot: RunSnapshot | null) => void) | null = null;
	/** The plan under way in the worker: where its snapshots and its end go. */
	let plan: { onSnapshot: (s: SessionSnapshot) => void; end: (e: PlanEnd) => void } | null = null;

	const asker = batchAsker((message) => worker?.postMessage(message));
	const show = (next: RunSnapshot) => {
		snapshot = next;
		options.onChange(next);
	};
	const finish = (last: RunSnapshot) => {
		show(last);
		const resolve = ended;
		ended = null;
		resolve?.(last);
	};
	/** The in-thread engine, made on first use. */
	const local = () => (fallback ??= inThread({ ...options, onChange: show }));
	const viaFallback = async (request: RunRequest): Promise<RunSnapshot> => {
		usingFallback = true;
		return (await local()).start(request);
	};
	/** A batch message: to the worker running, else to the in-thread engine (`here`). */
	const batch = async (
		message: Parameters<typeof asker.ask>[0],
		here: (engine: RunEngine) => Promise<BatchReply>
	): Promise<BatchReply> =>
		!spawn || usingFallback || !worker ? here(await local()) : asker.ask(message);
	/** A control: to the in-thread engine when it runs the work, else to the worker. */
	const control = (type: 'pause' | 'resume' | 'stop') =>
		usingFallback ? void fallback?.then((e) => e[type]()) : worker?.postMessage({ type });

	const start = (): RunWorkerLike => {
		const w = spawn!();
		w.onmessage = (event) => {
			alive = true;
			const message = event.data;
			if (message.type === 'snapshot') show(message.snapshot);
			else if (message.type === 'ended') finish(message.snapshot);
			else if (message.type === 'plan-save') savePlan(options.plans(), message.plan);
			else if (message.type === 'batch-reply') asker.settle(message.id, message.reply);
			else if (message.type === 'plan-snapshot') plan?.onSnapshot(message.snapshot);
			else if (message.type === 'plan-ended') {
				const p = plan;
				plan = null;
				const { snapshot, inputs, error } = message;
				p?.end({ snapshot, error, ...(inputs ? { inputs } : {}) });
			} else {
				const { run, status, error, errorSaid, at } = message;
				updatePlanStatus(options.plans(), run, status, error, new Date(at), errorSaid);
			}
		};
		w.onerror = (event) => {
			event.preventDefault?.();
			const detail = 'message' in event && event.message ? `: ${event.message}` : '';
			w.terminate();
			worker = null;
			const p = plan;
			plan = null;
			p?.end({ snapshot: null, error: `The run's worker stopped${detail}.` });
			asker.failAll({
				ok: false,
				error: { kind: 'other', message: `The run's worker stopped${detail}.` }
			});
			if (!ended) return;
			if (!alive) {
				// It never ran (a CSP without worker-src, say): the page runs the request instead.
				const resolve = ended;
				ended = null;
				return resolve(null);
			}
			finish({
				...snapshot,
				status: 'failed',
				error: {
					kind: 'other',
					message: `The run's worker stopped${detail}. Cases already saved stay saved; start the run again to resume it.`
				}
			});
		};
		return w;
	};

	return {
		get snapshot() {
			return snapshot;
		},
		async start(request) {
			if (ended) throw new Error('a run is already active in this page');
			if (!spawn || usingFallback) return viaFallback(request);
			let message: ToWorker;
			try {
				worker ??= start();
				message = { type: 'start', request: toWire(request) };
			} catch {
				return viaFallback(request);
			}
			const done = new Promise<RunSnapshot | null>((resolve) => (ended = resolve));
			try {
				worker.postMessage(message);
			} catch (e) {
				finish({ ...idleSnapshot(), status: 'failed', error: toRunError(e) });
			}
			return (await done) ?? viaFallback(request);
		},
		async startPlan(request, onSnapshot) {
			if (ended || plan) throw new Error('a run is already active in this page');
			if (!spawn || usingFallback) return (await local()).startPlan(request, onSnapshot);
			const done = new Promise<PlanEnd>((end) => (plan = { onSnapshot, end }));
			try {
				worker ??= start();
				worker.postMessage({ type: 'start-plan', request: JSON.parse(JSON.stringify(request)) });
			} catch (e) {
				plan = null;
				return { snapshot: null, error: e instanceof Error ? e.message : String(e) };
			}
			return done;
		},
		importBatch: (request, files) =>
			batch({ type: 'batch-import', request: request && toWire(request), files }, (e) =>
				e.importBatch(request, files)
			),
		batchInput: (name, index) =>
			batch({ type: 'batch-input', index, name }, (e) => e.batchInput(name, index)),
		setCap: (cap) =>
			usingFallback
				? void fallback?.then((e) => e.setCap(cap))
				: worker?.postMessage({ type: 'set-cap', cap }),
		pause: () => control('pause'),
		resume: () => control('resume'),
		stop: () => control('stop')
	};
}

/** The browser's engine: the run's module worker when `Worker` exists, else this thread. */
export function browserRunEngine(options: RunEngineOptions): RunEngine {
	const spawn =
		typeof Worker === 'undefined'
			? null
			: () =>
					new Worker(new URL('./run.worker.ts', import.meta.url), {
						type: 'module',
						name: 'run'
					}) as unknown as RunWorkerLike;
	return workerRunEngine(spawn, options);
}
