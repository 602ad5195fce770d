import { describe, expect, it } from 'vitest';
import { LimiterPool } from '../model/limiter';
import { SessionScheduler, type TaskRoom } from './scheduler';

/** A run as `runAll` drives its room: take while it can, count what it holds. */
function lane(scheduler: SessionScheduler, endpoints: string[], tasks = Infinity, rank?: number) {
	const room: TaskRoom = scheduler.lane(endpoints, rank);
	const state = { room, held: 0, started: 0 };
	room.wake = () => {
		while (state.started < tasks && room.take()) {
			state.held++;
			state.started++;
		}
	};
	return {
		state,
		pump: () => room.wake(),
		finishOne: () => {
			state.held--;
			room.give();
			room.wake();
		}
	};
}

// Limit 1 on one endpoint: a window of 2 + 2 × 1 = 4 tasks.
const pool = () => new LimiterPool({ max: 1 });

describe('SessionScheduler', () => {
	it('runs on the same endpoints share one window', () => {
		const scheduler = new SessionScheduler(pool());
		const a = lane(scheduler, ['http://one.test/v1', 'http://one.test/v1/']);
		const b = lane(scheduler, ['http://one.test/v1']);
		a.pump();
		b.pump();
		expect(a.state.held + b.state.held).toBe(4);
	});

	it('runs on other endpoints have a window each', () => {
		const scheduler = new SessionScheduler(pool());
		const a = lane(scheduler, ['http://a.test/v1']);
		const b = lane(scheduler, ['http://b.test/v1']);
		a.pump();
		b.pump();
		expect([a.state.held, b.state.held]).toEqual([4, 4]);
	});

	it('a window sums the limits of its endpoints', () => {
		const scheduler = new SessionScheduler(new LimiterPool({ max: 3 }));
		const a = lane(scheduler, ['http://a.test/v1', 'http://judge.test/v1']);
		a.pump();
		expect(a.state.held).toBe(2 + 2 * (3 + 3));
	});

	it('offers freed room round-robin to the runs that wait, up to a fair share each', () => {
		const scheduler = new SessionScheduler(pool());
		const runs = [0, 1, 2].map(() => lane(scheduler, ['http://one.test/v1']));
		runs[0].pump(); // alone first: takes the whole window
		runs[1].pump();
		runs[2].pump();
		expect(runs.map((r) => r.state.held)).toEqual([4, 0, 0]);
		runs[0].finishOne();
		expect(runs.map((r) => r.state.held)).toEqual([3, 1, 0]);
		runs[0].finishOne();
		expect(runs.map((r) => r.state.held)).toEqual([2, 1, 1]);
		// From now on no run holds more than its share (⌈4 / 3⌉ = 2) while the others wait, and
		// each gets room again as fast as the others, whoever frees it.
		for (let i = 0; i < 30; i++) {
			runs[i % 3].finishOne();
			expect(Math.max(...runs.map((r) => r.state.held))).toBeLessThanOrEqual(2);
			expect(runs.reduce((sum, r) => sum + r.state.held, 0)).toBe(4);
		}
		for (const run of runs) expect(run.state.started).toBeGreaterThanOrEqual(10);
	});

	it('a run that ends hands its share to the others', () => {
		const scheduler = new SessionScheduler(pool());
		const a = lane(scheduler, ['http://one.test/v1'], 2);
		const b = lane(scheduler, ['http://one.test/v1']);
		a.pump();
		b.pump();
		expect([a.state.held, b.state.held]).toEqual([2, 2]);
		a.finishOne();
		a.finishOne();
		a.state.room.close();
		expect(b.state.held).toBe(4);
	});

	it('ordered (a spending cap): room goes to the first run by rank; a later one takes what it cannot use', async () => {
		const scheduler = new SessionScheduler(pool());
		scheduler.ordered = true;
		const later = lane(scheduler, ['http://one.test/v1'], Infinity, 2);
		const first = lane(scheduler, ['http://one.test/v1'], 5, 1);
		// The first run wants room from the start: the later one, ready first, waits for it.
		later.pump();
		expect([first.state.held, later.state.held]).toEqual([0, 0]);
		first.pump();
		expect([first.state.held, later.state.held]).toEqual([4, 0]);
		// Freed room goes to the earlier run, not round-robin.
		first.finishOne();
		await Promise.resolve();
		expect([first.state.held, later.state.held]).toEqual([4, 0]);
		// The first run has started all its tasks: the later one takes the room it cannot use, and
		// keeps the endpoint busy.
		first.finishOne();
		await Promise.resolve();
		expect([first.state.held, later.state.held]).toEqual([3, 1]);
		first.finishOne();
		first.finishOne();
		await Promise.resolve();
		expect([first.state.held, later.state.held]).toEqual([1, 3]);
	});

	it('ordered: room a later run frees goes to an earlier one that waits', async () => {
		const scheduler = new SessionScheduler(pool());
		const later = lane(scheduler, ['http://one.test/v1'], Infinity, 2);
		later.pump(); // not ordered yet (no cap): the later run alone takes the window
		scheduler.ordered = true;
		const first = lane(scheduler, ['http://one.test/v1'], Infinity, 1);
		first.pump();
		expect([first.state.held, later.state.held]).toEqual([0, 4]);
		for (const held of [1, 2, 3, 4]) {
			later.finishOne();
			await Promise.resolve();
			expect([first.state.held, later.state.held]).toEqual([held, 4 - held]);
		}
	});

	it('pause admits nothing new; resume wakes the runs that wait', () => {
		const scheduler = new SessionScheduler(pool());
		const a = lane(scheduler, ['http://one.test/v1']);
		scheduler.pause();
		a.pump();
		expect(a.state.held).toBe(0);
		scheduler.resume();
		expect(a.state.held).toBe(4);
	});
});
