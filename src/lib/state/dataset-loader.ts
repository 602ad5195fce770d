/**
 * Where the Dataset page's files are parsed and checked: in a dedicated module worker when
 * the browser has one (so a 100 MB file never blocks the page), else in this thread through
 * the very same protocol (`dataset-load-protocol.ts`).
 */
import { m } from '$lib/paraglide/messages';
import type { InlineLoaderOptions } from './dataset-inline-loader';
import type { CasesOutcome, DatasetLoader, QueryOutcome } from './dataset-loader-types';
import {
	CasesReceiver,
	LoadReceiver,
	ownBuffer,
	type LoadOutcome,
	type LoadResponse,
	type WorkerRequest
} from './dataset-load-protocol';

export type { CasesOutcome, DatasetLoader, QueryOutcome } from './dataset-loader-types';

/** The part of a `Worker` the loader uses, so tests can hand in a stand-in. */
export interface WorkerLike {
	postMessage(message: WorkerRequest, transfer: Transferable[]): void;
	onmessage: ((event: MessageEvent<LoadResponse>) => void) | null;
	onerror: ((event: ErrorEvent | Event) => void) | null;
	onmessageerror?: ((event: MessageEvent) => void) | null;
	terminate(): void;
}

/** A request waiting for its replies: `accept` is true once the last has come. */
interface Pending {
	accept(message: LoadResponse): boolean;
	fail(message: string): void;
}

/**
 * A loader over a worker made by `spawn` on first use. A worker that dies (out of memory on a
 * huge file, say) fails its pending loads with a message and is replaced on the next load;
 * those loads' bytes are lost with it, which the outcome says (`bytes: null`).
 */
export function createWorkerLoader(
	spawn: () => WorkerLike,
	/** Used when no worker can be started (a host's CSP without worker-src, say). */
	fallback: DatasetLoader | null = null
): DatasetLoader {
	let worker: WorkerLike | null = null;
	let nextId = 1;
	const pending = new Map<number, Pending>();
	/** The fallback, once no worker could be started. */
	let inline: DatasetLoader | null = null;

	const failAll = (message: string) => {
		worker?.terminate();
		worker = null;
		for (const [id, p] of pending) {
			pending.delete(id);
			p.fail(message);
		}
	};

	const start = (): WorkerLike => {
		const w = spawn();
		w.onmessage = (event) => {
			const message = event.data;
			const p = pending.get(message.id);
			if (!p) return;
			if (p.accept(message)) pending.delete(message.id);
		};
		w.onerror = (event) => {
			const detail = 'message' in event && event.message ? event.message : '';
			failAll(detail ? m.dataset_worker_stopped_detail({ detail }) : m.dataset_worker_stopped());
		};
		w.onmessageerror = () => failAll(m.dataset_worker_unreadable());
		return w;
	};

	/** Sends a request, starting the worker if needed; false when none can be started. */
	const send = (request: WorkerRequest, p: Pending, transfer: Transferable[] = []): boolean => {
		try {
			worker ??= start();
		} catch {
			return false;
		}
		pending.set(request.id, p);
		worker.postMessage(request, transfer);
		return true;
	};
	const noWorker = (e: unknown) =>
		m.dataset_worker_none({ detail: e instanceof Error ? e.message : String(e) });

	return {
		load(source, options, onProgress) {
			if (inline) return inline.load(source, options, onProgress);
			try {
				worker ??= start();
			} catch (e) {
				// The kept cases of a load live where it ran: later requests follow it there.
				inline = fallback;
				if (inline) return inline.load(source, options, onProgress);
				return Promise.resolve({ kind: 'failed', bytes: null, message: noWorker(e) });
			}
			const id = nextId++;
			const sent = source instanceof Uint8Array ? ownBuffer(source) : source;
			return new Promise<LoadOutcome>((resolve) => {
				const receiver = new LoadReceiver(onProgress);
				send(
					{ type: 'load', id, source: sent, options },
					{
						accept(message) {
							const outcome = receiver.accept(message);
							if (outcome) resolve(outcome);
							return outcome !== null;
						},
						fail: (message) => resolve({ kind: 'failed', bytes: null, message })
					},
					sent instanceof ArrayBuffer ? [sent] : []
				);
			});
		},
		cases(handle, total, onProgress) {
			if (inline) return inline.cases(handle, total, onProgress);
			return new Promise<CasesOutcome>((resolve) => {
				const receiver = new CasesReceiver(total, onProgress);
				const sent = send(
					{ type: 'cases', id: nextId++, handle },
					{
						accept(message) {
							const outcome = receiver.accept(message);
							if (outcome) resolve(outcome);
							return outcome !== null;
						},
						fail: (message) => resolve({ ok: false, message })
					}
				);
				if (!sent) resolve({ ok: false, message: noWorker('gone') });
			});
		},
		query(handle, query) {
			if (inline) return inline.query(handle, query);
			return new Promise<QueryOutcome>((resolve) => {
				const sent = send(
					{ type: 'query', id: nextId++, handle, query },
					{
						accept(message) {
							if (message.type === 'query-result') resolve({ ok: true, page: message.page });
							else if (message.type === 'failed') resolve({ ok: false, message: message.message });
							else resolve({ ok: false, message: "the dataset worker's reply was broken" });
							return true;
						},
						fail: (message) => resolve({ ok: false, message })
					}
				);
				if (!sent) resolve({ ok: false, message: noWorker('gone') });
			});
		},
		release(handle) {
			if (inline) return inline.release(handle);
			// No worker, nothing kept: a new one is not started for this.
			worker?.postMessage({ type: 'release', id: nextId++, handle }, []);
		}
	};
}

/**
 * The in-thread loader, fetched on first use: it carries the whole validator, which the
 * worker has and the page needs only when no worker can run (or in Node tests).
 */
export function lazyInlineLoader(options: InlineLoaderOptions = {}): DatasetLoader {
	let loader: Promise<DatasetLoader> | null = null;
	const get = () =>
		(loader ??= import('./dataset-inline-loader').then((loaded) =>
			loaded.createInlineLoader(options)
		));
	return {
		async load(source, loadOptions, onProgress) {
			return (await get()).load(source, loadOptions, onProgress);
		},
		async cases(handle, total, onProgress) {
			return (await get()).cases(handle, total, onProgress);
		},
		async query(handle, query) {
			return (await get()).query(handle, query);
		},
		release(handle) {
			// Never loaded, nothing kept.
			void loader?.then((l) => l.release(handle));
		}
	};
}

/** The browser's loader: the module worker when `Worker` exists, else inline. */
export function defaultDatasetLoader(): DatasetLoader {
	const inline = lazyInlineLoader();
	if (typeof Worker === 'undefined') return inline;
	// In this thread as a last resort: slow for a large file, but the page still works.
	return createWorkerLoader(
		() =>
			new Worker(new URL('./dataset.worker.ts', import.meta.url), {
				type: 'module',
				name: 'dataset-validation'
			}) as unknown as WorkerLike,
		inline
	);
}
