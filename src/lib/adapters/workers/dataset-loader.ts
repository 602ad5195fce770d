/**
 * Where the Dataset page's files are parsed and checked: in a dedicated module worker when the
 * browser can start one (so a 100 MB file never blocks the page), else in this thread, by the
 * very same handlers (`dataset-load-handler.ts`), both called through `worker-rpc`. The replies
 * of a request are read by the protocol's receivers (`dataset-load-protocol.ts`).
 */
import type { RpcClient, RpcPort } from '../worker-rpc';
import { messageOf } from '$lib/core/engine/run-errors';
import type { HandlerOptions } from './dataset-load-handler';
import type { CasesOutcome, DatasetLoader, QueryOutcome } from './dataset-loader-types';
import {
	CasesReceiver,
	failureText,
	LoadReceiver,
	ownBuffer,
	type DatasetApi,
	type LoadOutcome,
	type LoadWords
} from './dataset-load-protocol';

export type { CasesOutcome, DatasetLoader, QueryOutcome } from './dataset-loader-types';

/** Makes the client on first use: the page's first load carries no worker code. */
type MakeClient = () => Promise<RpcClient<DatasetApi>>;

/**
 * A loader over the client `make` gives. A worker that dies (out of memory on a huge file, say) fails its
 * pending loads with a message and is replaced on the next load; those loads' bytes are lost
 * with it, which the outcome says (`bytes: null`).
 */
function datasetLoader(make: MakeClient, words: LoadWords): DatasetLoader {
	let nextId = 1;
	let made: RpcClient<DatasetApi> | null = null;
	let making: Promise<RpcClient<DatasetApi>> | null = null;
	const client = () => (making ??= make().then((c) => (made = c)));
	return {
		async load(source, options, onProgress) {
			const id = nextId++;
			const sent = source instanceof Uint8Array ? ownBuffer(source) : source;
			const receiver = new LoadReceiver(words, onProgress);
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
				return { kind: 'failed', bytes: null, message: messageOf(e) };
			}
			return outcome ?? { kind: 'failed', bytes: null, message: words.broken() };
		},
		async cases(handle, total, onProgress) {
			const receiver = new CasesReceiver(total, words, onProgress);
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
				return { ok: false, message: messageOf(e) };
			}
			return outcome ?? { ok: false, message: words.broken() };
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
										? { ok: false, message: failureText(message, words) }
										: { ok: false, message: words.broken() })
					}
				);
			} catch (e) {
				return { ok: false, message: messageOf(e) };
			}
			return outcome ?? { ok: false, message: words.broken() };
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
function clientOf(
	spawn: (() => RpcPort) | null,
	words: LoadWords,
	options: HandlerOptions
): MakeClient {
	return async () => {
		const { RpcClient, inThreadPort } = await import('../worker-rpc');
		const inThread = () =>
			inThreadPort(async () => (await import('./dataset-load-handler')).datasetHandlers(options));
		return new RpcClient<DatasetApi>(spawn, inThread, words);
	};
}

/**
 * A loader in this thread (Node, or a test's options such as a smaller `eagerCases`); its own
 * failures in `words`.
 */
export function inThreadLoader(words: LoadWords, options: HandlerOptions = {}): DatasetLoader {
	return datasetLoader(clientOf(null, words, options), words);
}

/** A loader over the worker `spawn` makes, in this thread when none can run. */
export function workerLoader(
	spawn: () => RpcPort,
	words: LoadWords,
	options: HandlerOptions = {}
): DatasetLoader {
	return datasetLoader(clientOf(spawn, words, options), words);
}

/** The browser's loader: the module worker when `Worker` exists, else this thread. */
export function defaultDatasetLoader(words: LoadWords): DatasetLoader {
	if (typeof Worker === 'undefined') return inThreadLoader(words);
	return workerLoader(
		() =>
			new Worker(new URL('./dataset.worker.ts', import.meta.url), {
				type: 'module',
				name: 'dataset-validation'
			}) as RpcPort,
		words
	);
}
