/** Waiting that ends as soon as a signal aborts. */
import { onAbort } from './abort-fan-out';

/** Resolves or rejects with `promise`, or rejects with the signal's reason as soon as it aborts. */
export function raceAbort<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
	if (!signal) return promise;
	// The losing promise may still reject later; it must not become an unhandled rejection.
	promise.catch(() => {});
	if (signal.aborted) return Promise.reject(signal.reason);
	return new Promise<T>((resolve, reject) => {
		const stop = onAbort(signal, () => reject(signal.reason));
		promise.then(resolve, reject).finally(stop);
	});
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) return reject(signal.reason);
		const timer = setTimeout(() => {
			stop();
			resolve();
		}, ms);
		const stop = signal
			? onAbort(signal, () => {
					clearTimeout(timer);
					reject(signal.reason);
				})
			: () => {};
	});
}
