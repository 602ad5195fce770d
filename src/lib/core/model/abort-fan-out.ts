/**
 * Listening to a long-lived `AbortSignal` (a run's Stop) from many calls at once. Each call that
 * added its own 'abort' listener put dozens on the run's signal while cases ran in parallel and
 * retries waited, and Node warned of a leak (MaxListenersExceededWarning) although each was
 * removed in the end. Here a signal gets ONE listener however many calls wait on it, and loses it
 * when the last one is done.
 */

interface Hub {
	listeners: Set<() => void>;
	dispatch: () => void;
}

const hubs = new WeakMap<AbortSignal, Hub>();

/**
 * Calls `listener` once when `signal` aborts (at once if it has aborted). Returns the function
 * that stops listening; call it when the work that listened is done, however it ended.
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
	if (signal.aborted) {
		listener();
		return () => {};
	}
	let hub = hubs.get(signal);
	if (!hub) {
		const listeners = new Set<() => void>();
		const dispatch = () => {
			hubs.delete(signal);
			const waiting = [...listeners];
			listeners.clear();
			for (const l of waiting) l();
		};
		hub = { listeners, dispatch };
		hubs.set(signal, hub);
		signal.addEventListener('abort', dispatch, { once: true });
	}
	const own = hub;
	// A wrapper per call, so one function passed twice is still two listeners.
	const entry = () => listener();
	own.listeners.add(entry);
	return () => {
		if (!own.listeners.delete(entry) || own.listeners.size > 0) return;
		signal.removeEventListener('abort', own.dispatch);
		if (hubs.get(signal) === own) hubs.delete(signal);
	};
}

/** A signal of one call, aborted with its parent's reason, and how to let go of the parent. */
export interface LinkedSignal {
	signal: AbortSignal;
	/** Stops following the parent. Call once the call is over; calling again does nothing. */
	dispose(): void;
}

/**
 * A signal for one call that aborts when `parent` does. Give it to everything the call waits on
 * (SDK request, backoff sleep, limiter queue): they may add listeners to it freely, since it
 * lives only as long as the call.
 */
export function linkSignal(parent?: AbortSignal): LinkedSignal {
	const controller = new AbortController();
	if (!parent) return { signal: controller.signal, dispose: () => {} };
	const dispose = onAbort(parent, () => controller.abort(parent.reason));
	return { signal: controller.signal, dispose };
}
