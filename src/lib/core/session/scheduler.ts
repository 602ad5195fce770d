/**
 * The one scheduler of a run session (`openSession`): how many tasks (a case of a stage) each run
 * of the session may have going. Calls are limited per endpoint by the plan's one `LimiterPool`; tasks are
 * admitted here, so that every slot has a call waiting and no run starves. Runs that use the same
 * endpoints share one window (what one of them would have alone: `2 + 2 × Σ limits`), taken in
 * turn: a run past its fair share waits while another run of its window wants room, and room
 * that frees is offered to the waiting runs round-robin. Runs on other endpoints have a window of
 * their own. Pausing admits no new task; tasks under way finish, and `onIdle` is told when the
 * last of them has.
 *
 * Ordered (a session with a spending cap): runs finish in order instead. Room goes to the first
 * run of the window (by `rank`: repetition 1 of every model, then repetition 2 …) that wants it,
 * and a later run gets only what the earlier ones cannot use, so the endpoint stays busy while a
 * cap that pauses the plan halfway leaves about half the runs complete, not every run half done.
 */
import { endpointKey } from '../names';
import type { LimiterPool } from '../model/limiter';

/** Room for the tasks of one run, as `runAll`'s scheduler asks for it. */
export interface TaskRoom {
	/** Takes room for one more task, or says there is none now (`wake` is called when there is). */
	take(): boolean;
	/** Gives back the room of a finished task. */
	give(): void;
	/** The run needs no more room (it ended). */
	close(): void;
	/** Set by the run: asked to try again once room frees. */
	wake: () => void;
}

interface Lane extends TaskRoom {
	/** Where the run comes when the scheduler is ordered: lower first. */
	rank: number;
	inFlight: number;
	wants: boolean;
	closed: boolean;
}

interface Window {
	endpoints: readonly string[];
	lanes: Lane[];
	inFlight: number;
	/** Round-robin: where the next offer of freed room starts. */
	next: number;
}

export class SessionScheduler {
	readonly #limiters: LimiterPool;
	readonly #windows = new Map<string, Window>();
	#paused = false;
	/**
	 * Runs finish in order of their rank rather than share room fairly (set while a spending cap
	 * holds the session). @default false
	 */
	ordered = false;
	readonly #onIdle: () => void;

	/** `onIdle`: told when a task ends and none is under way in any run. */
	constructor(limiters: LimiterPool, onIdle: () => void = () => {}) {
		this.#limiters = limiters;
		this.#onIdle = onIdle;
	}

	/** Tasks under way in every run. */
	get inFlight(): number {
		let n = 0;
		for (const window of this.#windows.values()) n += window.inFlight;
		return n;
	}

	get paused(): boolean {
		return this.#paused;
	}

	/** No new task starts in any run; tasks under way finish. */
	pause(): void {
		this.#paused = true;
	}

	/** Admits tasks again, waking every run that waits. */
	resume(): void {
		this.#paused = false;
		for (const window of this.#windows.values()) this.#offer(window);
	}

	/** Wakes every run (an abort: each run's scheduler sees it and ends). */
	wakeAll(): void {
		for (const window of this.#windows.values()) for (const lane of window.lanes) lane.wake();
	}

	/**
	 * The room of a run whose roles call `endpoints` (base URLs); `rank` orders it among the runs
	 * of its window when the scheduler is `ordered` (lower first). @default the order of the calls
	 */
	lane(endpoints: readonly string[], rank?: number): TaskRoom {
		const keys = [...new Set(endpoints.map((e) => endpointKey(e)))].sort();
		const id = JSON.stringify(keys);
		let window = this.#windows.get(id);
		if (!window) {
			window = { endpoints: keys, lanes: [], inFlight: 0, next: 0 };
			this.#windows.set(id, window);
		}
		const w = window;
		const lane: Lane = {
			rank: rank ?? w.lanes.length,
			inFlight: 0,
			// Ordered, a run wants room from the start: a later run that opens first does not take
			// the window before it (its `close` gives the room up when it has nothing to do).
			wants: this.ordered,
			closed: false,
			wake: () => {},
			take: () => {
				const yields = this.ordered ? this.#earlierWants(w, lane) : this.#pastShare(w, lane);
				if (this.#paused || w.inFlight >= this.#size(w) || yields) {
					lane.wants = true;
					return false;
				}
				lane.wants = false;
				lane.inFlight++;
				w.inFlight++;
				return true;
			},
			give: () => {
				lane.inFlight--;
				w.inFlight--;
				// Ordered: the run that gave the room takes it again first, when it wants it (it asks
				// right after giving), before a later run is offered it.
				if (this.ordered) queueMicrotask(() => this.#offer(w));
				else this.#offer(w);
				if (this.inFlight === 0) this.#onIdle();
			},
			close: () => {
				lane.closed = true;
				lane.wants = false;
				// Its share goes to the others.
				this.#offer(w);
			}
		};
		w.lanes.push(lane);
		return lane;
	}

	/** Tasks a window keeps going: enough that every slot has a call while some tasks save. */
	#size(window: Window): number {
		return 2 + 2 * window.endpoints.reduce((sum, e) => sum + this.#limiters.get(e).limit, 0);
	}

	/** Whether `lane` has its fair share while another run of its window waits for room. */
	#pastShare(window: Window, lane: Lane): boolean {
		const open = window.lanes.filter((l) => !l.closed);
		const share = Math.ceil(this.#size(window) / Math.max(1, open.length));
		return lane.inFlight >= share && open.some((l) => l !== lane && l.wants);
	}

	/** Ordered: whether a run of the window that comes before `lane` waits for room. */
	#earlierWants(window: Window, lane: Lane): boolean {
		return window.lanes.some((l) => l.rank < lane.rank && l.wants && !l.closed);
	}

	/**
	 * Offers freed room to the runs that wait: one after another from where the last offer ended,
	 * or, ordered, from the first run by rank.
	 */
	#offer(window: Window): void {
		const lanes = this.ordered ? [...window.lanes].sort((a, b) => a.rank - b.rank) : window.lanes;
		const start = this.ordered ? 0 : window.next;
		for (let i = 0; i < lanes.length; i++) {
			if (this.#paused || window.inFlight >= this.#size(window)) return;
			const at = (start + i) % lanes.length;
			const lane = lanes[at];
			if (!lane.wants || lane.closed) continue;
			if (!this.ordered) window.next = (at + 1) % lanes.length;
			lane.wants = false;
			lane.wake();
		}
	}
}

/**
 * Room as a queue, for a pool of workers that each wait for room before their next task (a stage
 * run case by case, `runStages`): `take` resolves once `room` lets one more task start, or with
 * false once `signal` aborts.
 */
export function queuedRoom(room: TaskRoom, signal?: AbortSignal) {
	const waiting: ((taken: boolean) => void)[] = [];
	const drain = () => {
		while (waiting.length > 0) {
			if (signal?.aborted) waiting.shift()!(false);
			else if (room.take()) waiting.shift()!(true);
			else return;
		}
	};
	room.wake = drain;
	signal?.addEventListener('abort', drain, { once: true });
	return {
		take(): Promise<boolean> {
			if (signal?.aborted) return Promise.resolve(false);
			if (waiting.length === 0 && room.take()) return Promise.resolve(true);
			return new Promise<boolean>((resolve) => waiting.push(resolve));
		},
		give: () => room.give(),
		close: () => room.close()
	};
}
