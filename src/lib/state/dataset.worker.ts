/**
 * The dataset worker: parses and checks dataset files off the page's thread, and keeps a
 * large dataset's cases for the page. All logic is in `handleRequest`; requests run one after
 * another, in the order they came.
 */
/// <reference lib="webworker" />
import { handleRequest } from './dataset-load-handler';
import type { LoadResponse, WorkerRequest } from './dataset-load-protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
let queue: Promise<void> = Promise.resolve();

scope.onmessage = (event: MessageEvent<WorkerRequest>) => {
	const request = event.data;
	const post = (message: LoadResponse, transfer: Transferable[] = []) =>
		scope.postMessage(message, transfer);
	queue = queue
		.then(() => handleRequest(request, post))
		// A reply that cannot be sent (a clone error) must still end the page's wait.
		.catch((e: unknown) =>
			post({
				type: 'failed',
				id: request.id,
				bytes: null,
				message: e instanceof Error ? e.message : String(e)
			})
		);
};
