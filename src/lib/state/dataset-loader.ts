/**
 * Where the Dataset page's files are parsed and checked: in a dedicated module worker when
 * the browser has one (so a 100 MB file never blocks the page), else in this thread through
 * the very same protocol (`dataset-load-protocol.ts`).
 */
import type { LoadOptions } from '$lib/core/dataset/load';
import type { InlineLoaderOptions } from './dataset-inline-loader';
import {
	LoadReceiver,
	ownBuffer,
	type LoadOutcome,
	type LoadRequest,
	type LoadResponse,
	type Progress
} from './dataset-load-protocol';

/**
 * Loads one file. A Blob (a File) is only a handle and stays usable; bytes are lent: read
 * them back from the outcome, not the argument.
 */
export interface DatasetLoader {
	load(
		source: Uint8Array | Blob,
		options: Omit<LoadOptions, 'onProgress'>,
		onProgress?: (progress: Progress) => void
	): Promise<LoadOutcome>;
}

/** The part of a `Worker` the loader uses, so tests can hand in a stand-in. */
export interface WorkerLike {
	postMessage(message: LoadRequest, transfer: Transferable[]): void;
	onmessage: ((event: MessageEvent<LoadResponse>) => void) | null;
	onerror: ((event: ErrorEvent | Event) => void) | null;
	onmessageerror?: ((event: MessageEvent) => void) | null;
	terminate(): void;
}

interface Pending {
	receiver: LoadReceiver;
	resolve: (outcome: LoadOutcome) => void;
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

	const failAll = (message: string) => {
		worker?.terminate();
		worker = null;
		for (const [id, p] of pending) {
			pending.delete(id);
			p.resolve({ kind: 'failed', bytes: null, message });
		}
	};

	const start = (): WorkerLike => {
		const w = spawn();
		w.onmessage = (event) => {
			const message = event.data;
			const p = pending.get(message.id);
			if (!p) return;
			const outcome = p.receiver.accept(message);
			if (outcome) {
				pending.delete(message.id);
				p.resolve(outcome);
			}
		};
		w.onerror = (event) => {
			const detail = 'message' in event && event.message ? `: ${event.message}` : '';
			failAll(
				`the validation worker stopped${detail} (the browser may have run out of memory). ` +
					'Open the file again, or validate it with the CLI.'
			);
		};
		w.onmessageerror = () => failAll('the validation worker sent a reply that could not be read');
		return w;
	};

	return {
		load(source, options, onProgress) {
			try {
				worker ??= start();
			} catch (e) {
				if (fallback) return fallback.load(source, options, onProgress);
				const message = `no validation worker could be started: ${e instanceof Error ? e.message : String(e)}`;
				return Promise.resolve({ kind: 'failed', bytes: null, message });
			}
			const id = nextId++;
			const sent = source instanceof Uint8Array ? ownBuffer(source) : source;
			return new Promise<LoadOutcome>((resolve) => {
				pending.set(id, { receiver: new LoadReceiver(onProgress), resolve });
				worker!.postMessage(
					{ type: 'load', id, source: sent, options },
					sent instanceof ArrayBuffer ? [sent] : []
				);
			});
		}
	};
}

/**
 * The in-thread loader, fetched on first use: it carries the whole validator, which the
 * worker has and the page needs only when no worker can run (or in Node tests).
 */
export function lazyInlineLoader(options: InlineLoaderOptions = {}): DatasetLoader {
	let loader: Promise<DatasetLoader> | null = null;
	return {
		async load(source, loadOptions, onProgress) {
			loader ??= import('./dataset-inline-loader').then((m) => m.createInlineLoader(options));
			return (await loader).load(source, loadOptions, onProgress);
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
