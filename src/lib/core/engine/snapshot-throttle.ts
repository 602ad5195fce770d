/**
 * How a tracker (a run's, a plan's) sends its snapshots: at most one per interval while things
 * change, so a thousand calls a second do not redraw a page a thousand times, and one at once
 * for what must be seen at once (a pause, the end).
 */
/** What a tracker is given about its snapshots. */
export interface PacedOptions<S> {
	/** Gets the snapshots. */
	onSnapshot?: (snapshot: S) => void;
	/** Least time between two snapshots while things change. @default 100 */
	intervalMs?: number;
	/** The clock. @default Date.now */
	now?: () => number;
}

export class SnapshotThrottle<S> {
	readonly #send: () => void;
	readonly #intervalMs: number;
	readonly #now: () => number;
	#last = -Infinity;
	#timer: ReturnType<typeof setTimeout> | null = null;

	/** Sends `snapshot()` to `options.onSnapshot`, if any, at its pace. */
	constructor(options: PacedOptions<S>, snapshot: () => S) {
		this.#send = () => options.onSnapshot?.(snapshot());
		this.#intervalMs = options.intervalMs ?? 100;
		this.#now = options.now ?? Date.now;
	}

	/** Something changed: sent now when the last send is an interval old, else at its end. */
	changed(): void {
		const wait = this.#last + this.#intervalMs - this.#now();
		if (wait <= 0) return this.now();
		this.#timer ??= setTimeout(() => {
			this.#timer = null;
			this.now();
		}, wait);
	}

	/** Sent at once; a send still due follows at its time. */
	now(): void {
		this.#last = this.#now();
		this.#send();
	}

	/** The last send: at once, and none due after it. */
	last(): void {
		if (this.#timer) clearTimeout(this.#timer);
		this.#timer = null;
		this.now();
	}
}
