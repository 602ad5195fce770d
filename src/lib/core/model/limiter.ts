/**
 * An adaptive concurrency limiter for one endpoint. It lets at most `limit` calls run at once,
 * halves the limit when the provider answers 429 (never below 1), and grows it back by one after
 * a run of successes, up to the configured maximum — the AIMD scheme Inspect and promptfoo use so
 * that a rate-limited provider is not hammered by every waiting case at once.
 *
 * With `auto` the limit starts at `initial` and probes upwards while the provider keeps up:
 * after each round of `limit` answered calls during which calls had to wait for a slot, it
 * doubles (then, once a 429 or a latency rise was seen, grows by one), as long as the round saw
 * no 429 and its mean latency is at most 1.5× the lowest round mean seen so far. A provider that
 * slows down under load is therefore not pushed further; one that answers 429 is halved as in the
 * fixed mode.
 *
 * Waiting calls are served by `priority` (lower first), then in arrival order: the engine gives
 * a case's calls the number of the task they belong to, so a case that started earlier finishes
 * earlier and its records are saved, instead of every case advancing a step at a time.
 */
import { DEFAULT_CONCURRENCY } from '../run-defaults';
import { onAbort } from './abort-fan-out';
import { endpointKey } from '../names';
import { publicBaseUrl } from './base-url';

/** Options of {@link AdaptiveLimiter}. */
export interface AdaptiveLimiterOptions {
	/** Most calls in flight at once; also the ceiling the limit grows back to. @default DEFAULT_CONCURRENCY */
	max?: number;
	/** Successes in a row after which a rate-limited limit grows by one (fixed mode). @default 10 */
	growAfter?: number;
	/** Probe upwards from `initial` to `max` while latency holds (see the module comment). @default false */
	auto?: boolean;
	/** The starting limit in `auto` mode. @default min(4, max) */
	initial?: number;
	/** A round's mean latency above this multiple of the best round stops growth. @default 1.5 */
	latencyTolerance?: number;
	/** Called whenever the current limit changes, for progress logs. */
	onLimitChange?: (limit: number, reason: LimitChangeReason) => void;
	/** Injectable clock for tests. @default performance.now or Date.now */
	now?: () => number;
}

/** Why a limit changed: a 429, regained ground after one, or (auto) a round that kept up. */
export type LimitChangeReason = 'rate_limited' | 'recovered' | 'probing';

/** How a call that held a slot ended; only these two outcomes move the limit. */
export type SlotOutcome = 'success' | 'rate_limited' | 'other';

/** A held slot. Release it exactly once; later calls are ignored. */
export interface Slot {
	release(outcome: SlotOutcome): void;
}

interface Waiter {
	priority: number;
	resolve: (slot: Slot) => void;
	reject: (reason: unknown) => void;
	/** Stops listening to the caller's signal once the slot is granted. */
	stopWaiting?: () => void;
}

const defaultNow = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

export class AdaptiveLimiter {
	readonly max: number;
	readonly growAfter: number;
	readonly auto: boolean;
	#limit: number;
	#active = 0;
	#streak = 0;
	/**
	 * Bumped on every decrease. A 429 from a call that started before the last decrease belongs
	 * to the burst that already halved the limit, so it does not halve it again: without this a
	 * wave of four parallel 429s would drop 4 → 2 → 1 at once.
	 */
	#epoch = 0;
	#queue: Waiter[] = [];
	#onLimitChange?: AdaptiveLimiterOptions['onLimitChange'];
	readonly #now: () => number;
	readonly #tolerance: number;
	/** Auto mode: doubling until the first 429 or latency rise. */
	#slowStart = true;
	/** Auto mode: the current round's answered calls, their summed latency, and whether any waited. */
	#round = { calls: 0, latencyMs: 0, demand: false, rateLimited: false };
	/** Auto mode: the lowest mean latency of a round so far. */
	#bestMeanMs = Infinity;

	constructor(options: AdaptiveLimiterOptions = {}) {
		const max = options.max ?? DEFAULT_CONCURRENCY;
		const growAfter = options.growAfter ?? 10;
		if (!Number.isInteger(max) || max < 1)
			throw new RangeError(`concurrency must be an integer ≥ 1, got ${max}`);
		if (!Number.isInteger(growAfter) || growAfter < 1)
			throw new RangeError(`growAfter must be an integer ≥ 1, got ${growAfter}`);
		const initial = options.auto ? (options.initial ?? Math.min(4, max)) : max;
		if (!Number.isInteger(initial) || initial < 1 || initial > max)
			throw new RangeError(`initial must be an integer from 1 to ${max}, got ${initial}`);
		this.max = max;
		this.growAfter = growAfter;
		this.auto = options.auto ?? false;
		this.#limit = initial;
		this.#onLimitChange = options.onLimitChange;
		this.#now = options.now ?? defaultNow;
		this.#tolerance = options.latencyTolerance ?? 1.5;
	}

	/** The current limit (between 1 and `max`). */
	get limit(): number {
		return this.#limit;
	}

	/** Calls holding a slot right now. */
	get active(): number {
		return this.#active;
	}

	/** Calls waiting for a slot. */
	get waiting(): number {
		return this.#queue.length;
	}

	/**
	 * Waits for a free slot; `priority` orders the waiting calls (lower first, ties in arrival
	 * order). Rejects with the signal's reason if it is aborted while waiting.
	 */
	acquire(signal?: AbortSignal, priority = Number.POSITIVE_INFINITY): Promise<Slot> {
		if (signal?.aborted) return Promise.reject(signal.reason);
		if (this.#active < this.#limit && this.#queue.length === 0) {
			return Promise.resolve(this.#grant());
		}
		this.#round.demand = true;
		return new Promise<Slot>((resolve, reject) => {
			const waiter: Waiter = { priority, resolve, reject };
			if (signal) {
				waiter.stopWaiting = onAbort(signal, () => {
					const i = this.#queue.indexOf(waiter);
					if (i >= 0) this.#queue.splice(i, 1);
					reject(signal.reason);
				});
			}
			// The queue is short (bounded by the engine's window of cases), so a sorted insert is enough.
			let at = this.#queue.length;
			while (at > 0 && this.#queue[at - 1].priority > priority) at--;
			this.#queue.splice(at, 0, waiter);
		});
	}

	/** Runs `fn` in a slot; a thrown error counts as outcome `other` unless `classify` says otherwise. */
	async run<T>(
		fn: () => Promise<T>,
		options: {
			signal?: AbortSignal;
			priority?: number;
			classify?: (error: unknown) => SlotOutcome;
		} = {}
	): Promise<T> {
		const slot = await this.acquire(options.signal, options.priority);
		try {
			const value = await fn();
			slot.release('success');
			return value;
		} catch (e) {
			slot.release(options.classify?.(e) ?? 'other');
			throw e;
		}
	}

	#grant(): Slot {
		this.#active++;
		const epoch = this.#epoch;
		const started = this.#now();
		let released = false;
		return {
			release: (outcome) => {
				if (released) return;
				released = true;
				this.#active--;
				this.#record(outcome, epoch, this.#now() - started);
				this.#drain();
			}
		};
	}

	#setLimit(limit: number, reason: LimitChangeReason) {
		if (limit === this.#limit) return;
		this.#limit = limit;
		this.#onLimitChange?.(limit, reason);
	}

	#record(outcome: SlotOutcome, epoch: number, latencyMs: number) {
		if (outcome === 'rate_limited') {
			this.#streak = 0;
			this.#slowStart = false;
			this.#round.rateLimited = true;
			if (epoch !== this.#epoch) return;
			this.#epoch++;
			this.#setLimit(Math.max(1, Math.floor(this.#limit / 2)), 'rate_limited');
			this.#newRound();
		} else if (outcome === 'success') {
			if (this.auto) return this.#probe(latencyMs);
			this.#streak++;
			if (this.#streak >= this.growAfter && this.#limit < this.max) {
				this.#streak = 0;
				this.#setLimit(this.#limit + 1, 'recovered');
			}
		}
	}

	/** Auto mode: one answered call of the current round; at the round's end, maybe grow. */
	#probe(latencyMs: number) {
		const round = this.#round;
		round.calls++;
		round.latencyMs += latencyMs;
		if (round.calls < this.#limit) return;
		const mean = round.latencyMs / round.calls;
		const keptUp = !round.rateLimited && mean <= this.#bestMeanMs * this.#tolerance;
		this.#bestMeanMs = Math.min(this.#bestMeanMs, mean);
		if (!keptUp) this.#slowStart = false;
		// Growing while no call waited would only raise a number nobody uses.
		if (keptUp && round.demand && this.#limit < this.max) {
			const next = this.#slowStart ? this.#limit * 2 : this.#limit + 1;
			this.#setLimit(Math.min(this.max, next), 'probing');
		}
		this.#newRound();
	}

	#newRound() {
		this.#round = { calls: 0, latencyMs: 0, demand: this.#queue.length > 0, rateLimited: false };
	}

	#drain() {
		while (this.#active < this.#limit && this.#queue.length > 0) {
			const waiter = this.#queue.shift()!;
			waiter.stopWaiting?.();
			waiter.resolve(this.#grant());
		}
	}
}

/** What a {@link LimiterPool} makes for each endpoint. */
export interface LimiterPoolOptions {
	/** The ceiling per endpoint (`--concurrency N`, or 64 with `auto`). @default DEFAULT_CONCURRENCY */
	max?: number;
	/** Probe from `initial` up to `max` (`--concurrency auto`). @default false */
	auto?: boolean;
	/** Starting limit in `auto` mode. @default 4 */
	initial?: number;
	/** @see AdaptiveLimiterOptions.growAfter */
	growAfter?: number;
	/** Told when an endpoint's limit changes; `endpoint` is public (no query value). */
	onLimitChange?: (endpoint: string, limit: number, reason: LimitChangeReason) => void;
	now?: () => number;
}

/** The limit of one endpoint right now. */
export interface EndpointLimit {
	endpoint: string;
	limit: number;
	active: number;
	waiting: number;
}

/** `--concurrency auto`: starts here and grows while the provider keeps up… */
export const AUTO_INITIAL_CONCURRENCY = 4;
/** …up to here. */
export const AUTO_MAX_CONCURRENCY = 64;

/**
 * One limiter per endpoint, shared by the model client that acquires slots and the engine that
 * decides how many cases to keep going and shows the limits in its progress. An endpoint is its
 * base URL as a manifest records it (`publicBaseUrl`: query values hidden, a trailing `/`
 * aside), so the engine finds the client's limiters under the endpoints it was given, and what
 * `limits()` and `onLimitChange` name can be shown or logged as it is. Two base URLs that differ
 * only in a query value (`?token=…`) reach the same server and share one limit.
 */
export class LimiterPool {
	readonly #limiters = new Map<string, AdaptiveLimiter>();
	/** The key of each base URL asked for. */
	readonly #keys = new Map<string, string>();
	readonly #options: LimiterPoolOptions;

	constructor(options: LimiterPoolOptions = {}) {
		this.#options = options;
	}

	/** The ceiling per endpoint. */
	get max(): number {
		return this.#options.max ?? (this.#options.auto ? AUTO_MAX_CONCURRENCY : DEFAULT_CONCURRENCY);
	}

	get auto(): boolean {
		return this.#options.auto ?? false;
	}

	/** The limiter of an endpoint (a base URL, raw or public), made on first use. */
	get(baseURL: string): AdaptiveLimiter {
		const key = this.#keyOf(baseURL);
		let limiter = this.#limiters.get(key);
		if (!limiter) {
			const { onLimitChange, auto, initial, growAfter, now } = this.#options;
			limiter = new AdaptiveLimiter({
				max: this.max,
				auto,
				initial: auto ? Math.min(initial ?? AUTO_INITIAL_CONCURRENCY, this.max) : undefined,
				growAfter,
				now,
				onLimitChange: onLimitChange && ((limit, reason) => onLimitChange(key, limit, reason))
			});
			this.#limiters.set(key, limiter);
		}
		return limiter;
	}

	#keyOf(baseURL: string): string {
		let key = this.#keys.get(baseURL);
		if (key === undefined) {
			// Asked for on every call and every scheduling step: parse each URL once.
			key = endpointKey(publicBaseUrl(baseURL.trim()));
			this.#keys.set(baseURL, key);
		}
		return key;
	}

	/** Every endpoint's limiter used so far. */
	limits(): EndpointLimit[] {
		return [...this.#limiters].map(([endpoint, l]) => ({
			endpoint,
			limit: l.limit,
			active: l.active,
			waiting: l.waiting
		}));
	}
}
