import { describe, expect, it } from 'vitest';
import { frameThrottle, spacedFrames, type Scheduler, type Timer } from './frame-throttle';

/** A scheduler the test advances by hand, one "frame" at a time. */
function manualFrames() {
	let pending: Array<() => void> = [];
	const schedule: Scheduler = (cb) => {
		pending.push(cb);
		return () => (pending = pending.filter((p) => p !== cb));
	};
	return {
		schedule,
		frame() {
			const now = pending;
			pending = [];
			now.forEach((cb) => cb());
		},
		get pending() {
			return pending.length;
		}
	};
}

/** A throttle over `schedule` that counts its draws. */
function counted(schedule: Scheduler) {
	let draws = 0;
	const t = frameThrottle(() => draws++, schedule);
	return { t, draws: () => draws };
}

describe('frameThrottle', () => {
	it('draws once per frame however many updates arrive', () => {
		const frames = manualFrames();
		const { t, draws } = counted(frames.schedule);
		for (let i = 0; i < 500; i++) t.request();
		expect(draws()).toBe(0);
		frames.frame();
		expect(draws()).toBe(1);
		t.request();
		frames.frame();
		frames.frame();
		expect(draws()).toBe(2);
	});

	it('flush draws a pending update at once and only once', () => {
		const frames = manualFrames();
		const { t, draws } = counted(frames.schedule);
		t.flush();
		expect(draws()).toBe(0);
		t.request();
		t.flush();
		expect(draws()).toBe(1);
		expect(frames.pending).toBe(0);
	});

	it('cancel drops a pending update', () => {
		const frames = manualFrames();
		const { t, draws } = counted(frames.schedule);
		t.request();
		t.cancel();
		frames.frame();
		expect(draws()).toBe(0);
	});
});

describe('spacedFrames', () => {
	it('draws at the first frame at least the gap after the last draw', () => {
		const frames = manualFrames();
		let clock = 0;
		const timers: Array<{ at: number; run: () => void }> = [];
		const timer: Timer = (run, ms) => {
			const t = { at: clock + ms, run };
			timers.push(t);
			return () => timers.splice(timers.indexOf(t), 1);
		};
		const advance = (ms: number) => {
			clock += ms;
			for (const t of timers.filter((t) => t.at <= clock)) {
				timers.splice(timers.indexOf(t), 1);
				t.run();
			}
		};
		const { t, draws } = counted(spacedFrames(200, frames.schedule, timer, () => clock));
		t.request();
		frames.frame();
		expect(draws()).toBe(1);
		// A change 50 ms later waits out the gap: no frame is asked for before it.
		advance(50);
		t.request();
		t.request();
		frames.frame();
		expect([draws(), frames.pending]).toEqual([1, 0]);
		advance(149);
		expect(frames.pending).toBe(0);
		advance(1);
		frames.frame();
		expect(draws()).toBe(2);
		// Long after the last draw, the next frame draws at once.
		advance(1000);
		t.request();
		frames.frame();
		expect(draws()).toBe(3);
	});

	it('cancel drops a draw that waits for the gap, flush draws it at once', () => {
		const frames = manualFrames();
		let clock = 0;
		let pending: (() => void) | null = null;
		const timer: Timer = (run) => ((pending = run), () => (pending = null));
		const { t, draws } = counted(spacedFrames(200, frames.schedule, timer, () => clock));
		t.request();
		frames.frame();
		clock = 10;
		t.request();
		t.cancel();
		expect(pending).toBeNull();
		t.request();
		t.flush();
		expect([draws(), pending]).toEqual([2, null]);
	});
});
