import { describe, expect, it } from 'vitest';
import { AdaptiveLimiter, LimiterPool, type Slot } from './limiter';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('AdaptiveLimiter', () => {
	it('never runs more calls at once than the limit', async () => {
		const limiter = new AdaptiveLimiter({ max: 3 });
		let inFlight = 0;
		let peak = 0;
		const job = async (ms: number) => {
			inFlight++;
			peak = Math.max(peak, inFlight);
			await new Promise((r) => setTimeout(r, ms));
			inFlight--;
			return ms;
		};
		const results = await Promise.all(
			Array.from({ length: 20 }, (_, i) => limiter.run(() => job(1 + (i % 4))))
		);
		expect(peak).toBe(3);
		expect(results).toHaveLength(20);
		expect(limiter.active).toBe(0);
	});

	it('hands slots out in arrival order', async () => {
		const limiter = new AdaptiveLimiter({ max: 1 });
		const first = await limiter.acquire();
		const order: number[] = [];
		const waiting = [1, 2, 3].map((n) => limiter.acquire().then((s) => (order.push(n), s)));
		first.release('success');
		for (const p of waiting) (await p).release('success');
		expect(order).toEqual([1, 2, 3]);
	});

	it.each([
		{ max: 8, expected: 4 },
		{ max: 5, expected: 2 },
		{ max: 1, expected: 1 }
	])('halves the limit on a 429 (max $max → $expected)', async ({ max, expected }) => {
		const limiter = new AdaptiveLimiter({ max });
		(await limiter.acquire()).release('rate_limited');
		expect(limiter.limit).toBe(expected);
	});

	it('halves once for a burst of 429s from calls started together, again for later ones', async () => {
		const limiter = new AdaptiveLimiter({ max: 8 });
		const burst = await Promise.all(Array.from({ length: 4 }, () => limiter.acquire()));
		for (const slot of burst) slot.release('rate_limited');
		expect(limiter.limit).toBe(4);
		(await limiter.acquire()).release('rate_limited');
		expect(limiter.limit).toBe(2);
		(await limiter.acquire()).release('rate_limited');
		(await limiter.acquire()).release('rate_limited');
		expect(limiter.limit).toBe(1);
	});

	it('grows back by one after each run of successes, up to the maximum', async () => {
		const changes: Array<[number, string]> = [];
		const limiter = new AdaptiveLimiter({
			max: 4,
			growAfter: 3,
			onLimitChange: (l, r) => changes.push([l, r])
		});
		(await limiter.acquire()).release('rate_limited');
		(await limiter.acquire()).release('rate_limited');
		expect(limiter.limit).toBe(1);
		for (let i = 0; i < 2; i++) (await limiter.acquire()).release('success');
		expect(limiter.limit).toBe(1);
		(await limiter.acquire()).release('success');
		expect(limiter.limit).toBe(2);
		for (let i = 0; i < 20; i++) (await limiter.acquire()).release('success');
		expect(limiter.limit).toBe(4);
		expect(changes).toEqual([
			[2, 'rate_limited'],
			[1, 'rate_limited'],
			[2, 'recovered'],
			[3, 'recovered'],
			[4, 'recovered']
		]);
	});

	it('a 429 breaks the success streak', async () => {
		const limiter = new AdaptiveLimiter({ max: 4, growAfter: 2 });
		(await limiter.acquire()).release('rate_limited');
		(await limiter.acquire()).release('success');
		(await limiter.acquire()).release('rate_limited');
		expect(limiter.limit).toBe(1);
		(await limiter.acquire()).release('success');
		expect(limiter.limit).toBe(1);
	});

	it('admits queued calls when the limit grows', async () => {
		const limiter = new AdaptiveLimiter({ max: 2, growAfter: 1 });
		(await limiter.acquire()).release('rate_limited');
		const held = await limiter.acquire();
		const queued: Slot[] = [];
		void limiter.acquire().then((s) => queued.push(s));
		void limiter.acquire().then((s) => queued.push(s));
		await tick();
		expect(queued).toHaveLength(0);
		held.release('success');
		await tick();
		expect(limiter.limit).toBe(2);
		expect(queued).toHaveLength(2);
	});

	it('an aborted waiter leaves the queue and rejects with the abort reason', async () => {
		const limiter = new AdaptiveLimiter({ max: 1 });
		const held = await limiter.acquire();
		const ctl = new AbortController();
		const waiting = limiter.acquire(ctl.signal);
		ctl.abort(new Error('stopped by user'));
		await expect(waiting).rejects.toThrow('stopped by user');
		expect(limiter.waiting).toBe(0);
		held.release('success');
		expect(limiter.active).toBe(0);
	});

	it('ignores a second release of the same slot', async () => {
		const limiter = new AdaptiveLimiter({ max: 2 });
		const slot = await limiter.acquire();
		await limiter.acquire();
		slot.release('success');
		slot.release('success');
		expect(limiter.active).toBe(1);
	});

	it('rejects a nonsensical configuration', () => {
		expect(() => new AdaptiveLimiter({ max: 0 })).toThrow(RangeError);
		expect(() => new AdaptiveLimiter({ max: 2, growAfter: 0 })).toThrow(RangeError);
	});

	it('serves waiting calls by priority, then in arrival order', async () => {
		const limiter = new AdaptiveLimiter({ max: 1 });
		const first = await limiter.acquire();
		const order: string[] = [];
		const waiting = (
			[
				['late', 5],
				['early', 1],
				['none', undefined],
				['early-2', 1]
			] as const
		).map(([name, priority]) =>
			limiter.acquire(undefined, priority).then((slot) => {
				order.push(name);
				slot.release('success');
			})
		);
		first.release('success');
		await Promise.all(waiting);
		expect(order).toEqual(['early', 'early-2', 'late', 'none']);
	});
});

describe('AdaptiveLimiter, auto mode', () => {
	/** Runs `rounds` rounds of calls, each call taking `latency(round)` ms of a fake clock. */
	async function drive(
		limiter: AdaptiveLimiter,
		clock: { t: number },
		latency: (round: number) => number,
		rounds: number
	) {
		const limits: number[] = [];
		for (let round = 0; round < rounds; round++) {
			const n = limiter.limit;
			// One more call than the limit, so a call waits: the limit is what holds the work back.
			const slots = await Promise.all(Array.from({ length: n }, () => limiter.acquire()));
			const extra = limiter.acquire();
			clock.t += latency(round);
			for (const slot of slots) slot.release('success');
			(await extra).release('other');
			limits.push(limiter.limit);
		}
		return limits;
	}

	it('starts at 4, doubles while latency holds, up to the ceiling', async () => {
		const clock = { t: 0 };
		const limiter = new AdaptiveLimiter({ max: 64, auto: true, now: () => clock.t });
		expect(limiter.limit).toBe(4);
		expect(await drive(limiter, clock, () => 100, 6)).toEqual([8, 16, 32, 64, 64, 64]);
	});

	it('stops growing when latency rises by more than half', async () => {
		const clock = { t: 0 };
		const limiter = new AdaptiveLimiter({ max: 64, auto: true, now: () => clock.t });
		const limits = await drive(limiter, clock, (round) => (round < 2 ? 100 : 160), 4);
		expect(limits).toEqual([8, 16, 16, 16]);
	});

	it('does not grow when no call had to wait', async () => {
		const clock = { t: 0 };
		const limiter = new AdaptiveLimiter({ max: 64, auto: true, now: () => clock.t });
		for (let i = 0; i < 12; i++) {
			const slot = await limiter.acquire();
			clock.t += 100;
			slot.release('success');
		}
		expect(limiter.limit).toBe(4);
	});

	it('halves on a 429 and then grows by one per round', async () => {
		const clock = { t: 0 };
		const limiter = new AdaptiveLimiter({ max: 64, auto: true, now: () => clock.t });
		await drive(limiter, clock, () => 100, 2);
		expect(limiter.limit).toBe(16);
		(await limiter.acquire()).release('rate_limited');
		expect(limiter.limit).toBe(8);
		expect(await drive(limiter, clock, () => 100, 2)).toEqual([9, 10]);
	});
});

describe('LimiterPool', () => {
	it('keeps one limiter per endpoint, a trailing slash aside, and reports their limits', async () => {
		const changes: string[] = [];
		const pool = new LimiterPool({ max: 2, onLimitChange: (e, l) => changes.push(`${e} ${l}`) });
		expect(pool.get('http://a/v1/')).toBe(pool.get('http://a/v1'));
		const slot = await pool.get('http://b/v1').acquire();
		slot.release('rate_limited');
		expect(pool.limits()).toEqual([
			{ endpoint: 'http://a/v1', limit: 2, active: 0, waiting: 0 },
			{ endpoint: 'http://b/v1', limit: 1, active: 0, waiting: 0 }
		]);
		expect(changes).toEqual(['http://b/v1 1']);
		expect(new LimiterPool({ auto: true }).get('x').limit).toBe(4);
		expect(new LimiterPool({ auto: true }).max).toBe(64);
	});
});
