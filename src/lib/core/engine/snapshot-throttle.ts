/**
 * How a tracker (a run's, a plan's) sends its snapshots: at most one per interval while things
 * change, so a thousand calls a second do not redraw a page a thousand times, and one at once
 * for what must be seen at once (a pause, the end).
 */
export class SnapshotThrottle {
	readonly #send: () => void;
	readonly #intervalMs: number;
	readonly #now: () => number;
	#last = -Infinity;
	#timer: ReturnType<typeof setTimeout> | null = null;

	/** `send` makes and hands over one snapshot. */
	constructor(send: () => void, intervalMs: number, now: () => number) {
		this.#send = send;
		this.#intervalMs = intervalMs;
		this.#now = now;
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
