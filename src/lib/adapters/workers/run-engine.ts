/**
 * Where the Run page's run is carried out: the run's calls (`run-worker-protocol.ts`) go through
 * `worker-rpc` to a dedicated module worker (`run.worker.ts`) when the browser can start one, else
 * to the same handlers in this thread (a host whose CSP forbids workers, say: the run works, but
 * slows down while its tab is hidden, and the page may stutter at hundreds of cases). Either way
 * the page sees one `RunEngine`.
 */
import type { RpcClient, RpcPort, RpcWords } from '../worker-rpc';
import type { CheckpointStore } from '$lib/core/store/types';
import type { SessionSnapshot } from '$lib/core/session';
import type { PlanEnd, PlanRequest } from './plan-runner';
import type { RunRequest } from './run-controller';
import { planBook, type PlanStorage } from '$lib/core/control/run-plans';
import { idleSnapshot, toRunError, type RunSnapshot } from '$lib/core/control/run-snapshot';
import type { BatchOutputFile } from './batch-run';
import type { BatchReply, RunApi, RunEvent, WireRequest } from './run-worker-protocol';

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

export interface RunEngineOptions {
	/** Where the page keeps plans (`localStorage`), asked at each write. */
	plans: () => PlanStorage;
	/** Told on every snapshot; throttle before drawing. */
	onChange: (snapshot: RunSnapshot) => void;
	/** The store of the handlers when they run in this thread. */
	store: () => Promise<CheckpointStore>;
	/** The worker client's own failures, in the page's language. */
	words: RpcWords;
}

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
 * An engine over the worker `spawn` makes (null: none can run), started at the first call. A
 * worker that cannot start (it fails before its first reply) hands its calls to the same handlers
 * in this thread; one that dies during a run ends it as failed, with what is saved still saved,
 * and is replaced at the next call.
 */
export function workerRunEngine(
	spawn: (() => RpcPort) | null,
	options: RunEngineOptions
): RunEngine {
	let snapshot = idleSnapshot();
	let running = false;
	let planning = false;
	/** The client, made on first use: the page's first load carries no worker code. */
	let client: Promise<RpcClient<RunApi>> | null = null;
	const rpc = () =>
		(client ??= import('../worker-rpc').then(
			({ RpcClient, inThreadPort }) =>
				new RpcClient<RunApi>(
					spawn,
					// The handlers carry the whole engine, which the worker has: loaded here only when needed.
					() =>
						inThreadPort(async () =>
							(await import('./run-worker-protocol')).runHandlers(options.store)
						),
					options.words
				)
		));
	const show = (next: RunSnapshot) => {
		snapshot = next;
		options.onChange(next);
	};
	const onEvent = (event: RunEvent) => {
		if ('snapshot' in event) return show(event.snapshot);
		const book = planBook(options.plans());
		if ('save' in event) book.save(event.save);
		else book.setStatus(...event.status);
	};
	/** A control, to the worker (or fallback) already made: none made holds nothing to act on. */
	const control = <K extends 'pause' | 'resume' | 'stop' | 'set-cap'>(
		kind: K,
		call: RunApi[K]['call']
	) =>
		void client?.then((c) => {
			if (!c.started) return;
			c.call(kind, call).then(
				(told) => (Array.isArray(told) ? (told as RunEvent[]) : []).forEach(onEvent),
				() => undefined
			);
		});
	/** A batch call; a worker that stopped is its error. */
	const batch = async <K extends 'batch-import' | 'batch-input'>(
		kind: K,
		call: () => RunApi[K]['call']
	): Promise<BatchReply> => {
		try {
			return await (await rpc()).call(kind, call());
		} catch (e) {
			return { ok: false, error: toRunError(e) };
		}
	};

	return {
		get snapshot() {
			return snapshot;
		},
		async start(request) {
			if (running) throw new Error('a run is already active in this page');
			running = true;
			const before = snapshot;
			try {
				const wire = toWire(request);
				show(await (await rpc()).call('start', wire, { onEvent }));
			} catch (e) {
				// What this run showed (a worker that died during it), else nothing of an earlier run.
				const base = snapshot === before ? idleSnapshot() : snapshot;
				show({ ...base, status: 'failed', error: toRunError(e) });
			} finally {
				running = false;
			}
			return snapshot;
		},
		async startPlan(request, onSnapshot) {
			if (running || planning) throw new Error('a run is already active in this page');
			planning = true;
			try {
				return await (await rpc()).call('start-plan', plain(request), { onEvent: onSnapshot });
			} catch (e) {
				return { snapshot: null, error: e instanceof Error ? e.message : String(e) };
			} finally {
				planning = false;
			}
		},
		importBatch: (request, files) =>
			batch('batch-import', () => ({ request: request && toWire(request), files })),
		batchInput: (name, index) => batch('batch-input', () => ({ name, index })),
		setCap: (cap) => control('set-cap', cap),
		pause: () => control('pause', null),
		resume: () => control('resume', null),
		stop: () => control('stop', null)
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
					}) as RpcPort;
	return workerRunEngine(spawn, options);
}
