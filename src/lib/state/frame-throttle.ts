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

/** Calls `callback` after `ms`; returns a function that cancels it. */
export type Timer = (callback: () => void, ms: number) => () => void;

const timeout: Timer = (callback, ms) => {
	const id = setTimeout(callback, ms);
	return () => clearTimeout(id);
};

/**
 * A `frame` at least `gapMs` after the last one this scheduler fired: a page that redraws a
 * whole table for a change every 50 ms spends a core on style, layout and paint, which a run's
 * worker on a 2-core machine needs; a few draws a second are all a reader can follow.
 */
export function spacedFrames(
	gapMs: number,
	frame: Scheduler = nextFrame,
	timer: Timer = timeout,
	clock: () => number = Date.now
): Scheduler {
	let last = -Infinity;
	return (callback) => {
		const fire = () => {
			last = clock();
			callback();
		};
		const wait = last + gapMs - clock();
		if (wait <= 0) return frame(fire);
		let cancel = timer(() => (cancel = frame(fire)), wait);
		return () => cancel();
	};
}

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
