/**
 * The dataset loader in this thread (Node, or a browser without workers), speaking the same
 * protocol as the worker. Loaded lazily by `lazyInlineLoader`: it carries the validator.
 */
import type { loadDataset } from '$lib/core/dataset/load';
import {
	handleCasesRequest,
	handleLoadRequest,
	handleQueryRequest,
	handleReleaseRequest,
	type Kept
} from './dataset-load-handler';
import {
	CasesReceiver,
	LoadReceiver,
	ownBuffer,
	type LoadOutcome,
	type LoadRequest,
	type LoadResponse
} from './dataset-load-protocol';
import type { CasesOutcome, DatasetLoader, QueryOutcome } from './dataset-loader-types';

/** Options of {@link createInlineLoader}. */
export interface InlineLoaderOptions {
	/** @default loadDataset from the core */
	load?: typeof loadDataset;
	/**
	 * Pass every message through `structuredClone` with its transfer list, as a worker would,
	 * so tests catch a message that cannot cross threads. @default false
	 */
	clone?: boolean;
	/** @default EAGER_CASES */
	eagerCases?: number;
}

/** A loader in this thread (Node, or a browser without workers), speaking the same protocol. */
export function createInlineLoader(options: InlineLoaderOptions = {}): DatasetLoader {
	let nextId = 1;
	const kept: Kept = { current: null };
	const cloned = <T>(message: T, transfer: Transferable[] = []): T =>
		options.clone ? structuredClone(message, { transfer }) : message;
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
			await handleLoadRequest(cloned(request, transfer), deliver, {
				load: options.load,
				eagerCases: options.eagerCases,
				kept
			});
			return (
				outcome ?? { kind: 'failed', bytes: null, message: 'the dataset loader gave no answer' }
			);
		},
		async cases(handle, total, onProgress) {
			const receiver = new CasesReceiver(total, onProgress);
			let outcome: CasesOutcome | null = null;
			handleCasesRequest(
				cloned({ type: 'cases', id: nextId++, handle }),
				(message) => (outcome ??= receiver.accept(cloned(message))),
				{ kept }
			);
			return outcome ?? { ok: false, message: 'the dataset loader gave no answer' };
		},
		async query(handle, query) {
			let outcome: QueryOutcome | null = null;
			handleQueryRequest(
				cloned({ type: 'query', id: nextId++, handle, query }),
				(sent) => {
					const message = cloned(sent);
					outcome ??=
						message.type === 'query-result'
							? { ok: true, page: message.page }
							: { ok: false, message: message.type === 'failed' ? message.message : 'broken' };
				},
				{ kept }
			);
			return outcome ?? { ok: false, message: 'the dataset loader gave no answer' };
		},
		release(handle) {
			handleReleaseRequest(cloned({ type: 'release', id: nextId++, handle }), { kept });
		}
	};
}
