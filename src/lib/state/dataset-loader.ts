/**
 * Where the Dataset page's files are parsed and checked: in a dedicated module worker when the
 * browser can start one (so a 100 MB file never blocks the page), else in this thread, by the
 * very same handlers (`dataset-load-handler.ts`), both called through `worker-rpc`. The replies
 * of a request are read by the protocol's receivers (`dataset-load-protocol.ts`).
 */
import type { RpcClient, RpcPort } from '$lib/adapters/worker-rpc';
import { m } from '$lib/paraglide/messages';
import { errorMessage } from './category-file.svelte';
import type { HandlerOptions } from './dataset-load-handler';
import type { CasesOutcome, DatasetLoader, QueryOutcome } from './dataset-loader-types';
import {
	CasesReceiver,
	failureText,
	LoadReceiver,
	ownBuffer,
	type DatasetApi,
	type LoadOutcome
} from './dataset-load-protocol';

export type { CasesOutcome, DatasetLoader, QueryOutcome } from './dataset-loader-types';

const WORDS = {
	stopped: (detail: string) =>
		detail ? m.dataset_worker_stopped_detail({ detail }) : m.dataset_worker_stopped(),
	unreadable: () => m.dataset_worker_unreadable(),
	terminated: () => m.dataset_worker_stopped()
};

/** Makes the client on first use: the page's first load carries no worker code. */
type MakeClient = () => Promise<RpcClient<DatasetApi>>;

/**
 * A loader over the client `make` gives. A worker that dies (out of memory on a huge file, say) fails its
 * pending loads with a message and is replaced on the next load; those loads' bytes are lost
 * with it, which the outcome says (`bytes: null`).
 */
function datasetLoader(make: MakeClient): DatasetLoader {
	let nextId = 1;
	let made: RpcClient<DatasetApi> | null = null;
	let making: Promise<RpcClient<DatasetApi>> | null = null;
	const client = () => (making ??= make().then((c) => (made = c)));
	return {
		async load(source, options, onProgress) {
			const id = nextId++;
			const sent = source instanceof Uint8Array ? ownBuffer(source) : source;
			const receiver = new LoadReceiver(onProgress);
			let outcome: LoadOutcome | null = null;
			try {
				await (
					await client()
				).call(
					'load',
					{ type: 'load', id, source: sent, options },
					{
						transfer: sent instanceof ArrayBuffer ? [sent] : [],
						onEvent: (message) => void (outcome ??= receiver.accept(message))
					}
				);
			} catch (e) {
				return { kind: 'failed', bytes: null, message: errorMessage(e) };
			}
			return outcome ?? { kind: 'failed', bytes: null, message: m.dataset_worker_broken() };
		},
		async cases(handle, total, onProgress) {
			const receiver = new CasesReceiver(total, onProgress);
			let outcome: CasesOutcome | null = null;
			try {
				await (
					await client()
				).call(
					'cases',
					{ type: 'cases', id: nextId++, handle },
					{ onEvent: (message) => void (outcome ??= receiver.accept(message)) }
				);
			} catch (e) {
				return { ok: false, message: errorMessage(e) };
			}
			return outcome ?? { ok: false, message: m.dataset_worker_broken() };
		},
		async query(handle, query) {
			let outcome: QueryOutcome | null = null;
			try {
				await (
					await client()
				).call(
					'query',
					{ type: 'query', id: nextId++, handle, query },
					{
						onEvent: (message) =>
							void (outcome ??=
								message.type === 'query-result'
									? { ok: true, page: message.page }
									: message.type === 'failed'
										? { ok: false, message: failureText(message) }
										: { ok: false, message: m.dataset_worker_broken() })
					}
				);
			} catch (e) {
				return { ok: false, message: errorMessage(e) };
			}
			return outcome ?? { ok: false, message: m.dataset_worker_broken() };
		},
		release(handle) {
			// No worker, nothing kept: a new one is not started for this.
			if (!made?.started) return;
			made.call('release', { type: 'release', id: nextId++, handle }).catch(() => undefined);
		}
	};
}

/**
 * A client over the worker `spawn` makes (null: none can run), with the handlers in this thread,
 * loaded on first use, as its fallback: they carry the whole validator, which the worker has and
 * the page needs only when no worker can run (or in Node tests).
 */
function clientOf(spawn: (() => RpcPort) | null, options: HandlerOptions): MakeClient {
	return async () => {
		const { RpcClient, inThreadPort } = await import('$lib/adapters/worker-rpc');
		const inThread = () =>
			inThreadPort(async () => (await import('./dataset-load-handler')).datasetHandlers(options));
		return new RpcClient<DatasetApi>(spawn, inThread, WORDS);
	};
}

/** A loader in this thread (Node, or a test's options such as a smaller `eagerCases`). */
export function inThreadLoader(options: HandlerOptions = {}): DatasetLoader {
	return datasetLoader(clientOf(null, options));
}

/** A loader over the worker `spawn` makes, in this thread when none can run. */
export function workerLoader(spawn: () => RpcPort, options: HandlerOptions = {}): DatasetLoader {
	return datasetLoader(clientOf(spawn, options));
}

/** The browser's loader: the module worker when `Worker` exists, else this thread. */
export function defaultDatasetLoader(): DatasetLoader {
	if (typeof Worker === 'undefined') return inThreadLoader();
	return workerLoader(
		() =>
			new Worker(new URL('./dataset.worker.ts', import.meta.url), {
				type: 'module',
				name: 'dataset-validation'
			}) as RpcPort
	);
}
