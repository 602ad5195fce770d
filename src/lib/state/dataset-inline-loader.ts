/**
 * The dataset loader in this thread (Node, or a browser without workers), speaking the same
 * protocol as the worker. Loaded lazily by `lazyInlineLoader`: it carries the validator.
 */
import type { loadDataset } from '$lib/core/dataset/load';
import { handleLoadRequest } from './dataset-load-handler';
import {
	LoadReceiver,
	ownBuffer,
	type LoadOutcome,
	type LoadRequest,
	type LoadResponse
} from './dataset-load-protocol';
import type { DatasetLoader } from './dataset-loader';

/** Options of {@link createInlineLoader}. */
export interface InlineLoaderOptions {
	/** @default loadDataset from the core */
	load?: typeof loadDataset;
	/**
	 * Pass every message through `structuredClone` with its transfer list, as a worker would,
	 * so tests catch a message that cannot cross threads. @default false
	 */
	clone?: boolean;
}

/** A loader in this thread (Node, or a browser without workers), speaking the same protocol. */
export function createInlineLoader(options: InlineLoaderOptions = {}): DatasetLoader {
	let nextId = 1;
	return {
		async load(source, loadOptions, onProgress) {
			const id = nextId++;
			const receiver = new LoadReceiver(onProgress);
			let outcome: LoadOutcome | null = null;
			const sent = source instanceof Uint8Array ? ownBuffer(source) : source;
			const transfer = sent instanceof ArrayBuffer ? [sent] : [];
			const deliver = (message: LoadResponse, transfer: Transferable[] = []) => {
				const delivered = options.clone ? structuredClone(message, { transfer }) : message;
				outcome ??= receiver.accept(delivered);
			};
			const request: LoadRequest = { type: 'load', id, source: sent, options: loadOptions };
			await handleLoadRequest(
				options.clone ? structuredClone(request, { transfer }) : request,
				deliver,
				{ load: options.load }
			);
			return (
				outcome ?? { kind: 'failed', bytes: null, message: 'the dataset loader gave no answer' }
			);
		}
	};
}
