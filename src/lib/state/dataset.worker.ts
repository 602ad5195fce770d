/**
 * The dataset worker: parses and checks dataset files off the page's thread. All logic is in
 * `handleLoadRequest`; requests run one after another, in the order they came.
 */
/// <reference lib="webworker" />
import { handleLoadRequest } from './dataset-load-handler';
import type { LoadRequest, LoadResponse } from './dataset-load-protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
let queue: Promise<void> = Promise.resolve();

scope.onmessage = (event: MessageEvent<LoadRequest>) => {
	const request = event.data;
	const post = (message: LoadResponse, transfer: Transferable[] = []) =>
		scope.postMessage(message, transfer);
	queue = queue
		.then(() => handleLoadRequest(request, post))
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
