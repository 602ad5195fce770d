/**
 * Coalesces bursts of updates into one per animation frame. A run with hundreds of cases emits
 * several progress events per model call; drawing each would make the page stutter, so the
 * latest snapshot is kept and drawn once per frame.
 */

/** Schedules `callback` once and returns a function that cancels it. */
export type Scheduler = (callback: () => void) => () => void;

/**
 * The next animation frame while the page is visible. A hidden tab gets no frames, so a timer
 * stands in there (browsers slow it to about once a second, which is enough for a tab nobody
 * looks at, and the final state is still drawn).
 */
export const nextFrame: Scheduler = (callback) => {
	const visible = typeof document === 'undefined' || document.visibilityState !== 'hidden';
	if (visible && typeof requestAnimationFrame === 'function') {
		const id = requestAnimationFrame(() => callback());
		return () => cancelAnimationFrame(id);
	}
	const id = setTimeout(callback, 100);
	return () => clearTimeout(id);
};

export interface Throttled {
	/** Asks for `run` to be called on the next frame; repeated asks before then are merged. */
	request(): void;
	/** Calls `run` now if a call is pending (e.g. when the run ends). */
	flush(): void;
	/** Drops a pending call. */
	cancel(): void;
}

export function frameThrottle(run: () => void, schedule: Scheduler = nextFrame): Throttled {
	let cancel: (() => void) | null = null;
	const fire = () => {
		cancel = null;
		run();
	};
	return {
		request() {
			if (cancel === null) cancel = schedule(fire);
		},
		flush() {
			if (cancel === null) return;
			cancel();
			fire();
		},
		cancel() {
			cancel?.();
			cancel = null;
		}
	};
}
