/**
 * An adaptive concurrency limiter for one endpoint. It lets at most `limit` calls run at once,
 * halves the limit when the provider answers 429 (never below 1), and grows it back by one after
 * a run of successes, up to the configured maximum — the AIMD scheme Inspect and promptfoo use so
 * that a rate-limited provider is not hammered by every waiting case at once.
 */
import { DEFAULT_CONCURRENCY } from '../run-config';
import { onAbort } from './abort-fan-out';

/** Options of {@link AdaptiveLimiter}. */
export interface AdaptiveLimiterOptions {
	/** Most calls in flight at once; also the ceiling the limit grows back to. @default DEFAULT_CONCURRENCY */
	max?: number;
	/** Successes in a row after which the limit grows by one. @default 10 */
	growAfter?: number;
	/** Called whenever the current limit changes, for progress logs. */
	onLimitChange?: (limit: number, reason: 'rate_limited' | 'recovered') => void;
}

/** How a call that held a slot ended; only these two outcomes move the limit. */
export type SlotOutcome = 'success' | 'rate_limited' | 'other';

/** A held slot. Release it exactly once; later calls are ignored. */
export interface Slot {
	release(outcome: SlotOutcome): void;
}

interface Waiter {
	resolve: (slot: Slot) => void;
	reject: (reason: unknown) => void;
	/** Stops listening to the caller's signal once the slot is granted. */
	stopWaiting?: () => void;
}

export class AdaptiveLimiter {
	readonly max: number;
	readonly growAfter: number;
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

	constructor(options: AdaptiveLimiterOptions = {}) {
		const max = options.max ?? DEFAULT_CONCURRENCY;
		const growAfter = options.growAfter ?? 10;
		if (!Number.isInteger(max) || max < 1)
			throw new RangeError(`concurrency must be an integer ≥ 1, got ${max}`);
		if (!Number.isInteger(growAfter) || growAfter < 1)
			throw new RangeError(`growAfter must be an integer ≥ 1, got ${growAfter}`);
		this.max = max;
		this.growAfter = growAfter;
		this.#limit = max;
		this.#onLimitChange = options.onLimitChange;
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

	/** Waits for a free slot. Rejects with the signal's reason if it is aborted while waiting. */
	acquire(signal?: AbortSignal): Promise<Slot> {
		if (signal?.aborted) return Promise.reject(signal.reason);
		if (this.#active < this.#limit && this.#queue.length === 0) {
			return Promise.resolve(this.#grant());
		}
		return new Promise<Slot>((resolve, reject) => {
			const waiter: Waiter = { resolve, reject };
			if (signal) {
				waiter.stopWaiting = onAbort(signal, () => {
					const i = this.#queue.indexOf(waiter);
					if (i >= 0) this.#queue.splice(i, 1);
					reject(signal.reason);
				});
			}
			this.#queue.push(waiter);
		});
	}

	/** Runs `fn` in a slot; a thrown error counts as outcome `other` unless `classify` says otherwise. */
	async run<T>(
		fn: () => Promise<T>,
		options: { signal?: AbortSignal; classify?: (error: unknown) => SlotOutcome } = {}
	): Promise<T> {
		const slot = await this.acquire(options.signal);
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
		let released = false;
		return {
			release: (outcome) => {
				if (released) return;
				released = true;
				this.#active--;
				this.#record(outcome, epoch);
				this.#drain();
			}
		};
	}

	#record(outcome: SlotOutcome, epoch: number) {
		if (outcome === 'rate_limited') {
			this.#streak = 0;
			if (epoch !== this.#epoch) return;
			this.#epoch++;
			const next = Math.max(1, Math.floor(this.#limit / 2));
			if (next !== this.#limit) {
				this.#limit = next;
				this.#onLimitChange?.(next, 'rate_limited');
			}
		} else if (outcome === 'success') {
			this.#streak++;
			if (this.#streak >= this.growAfter && this.#limit < this.max) {
				this.#streak = 0;
				this.#limit++;
				this.#onLimitChange?.(this.#limit, 'recovered');
			}
		}
	}

	#drain() {
		while (this.#active < this.#limit && this.#queue.length > 0) {
			const waiter = this.#queue.shift()!;
			waiter.stopWaiting?.();
			waiter.resolve(this.#grant());
		}
	}
}
