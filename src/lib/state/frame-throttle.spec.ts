import { describe, expect, it } from 'vitest';
import { frameThrottle, type Scheduler } from './frame-throttle';

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

describe('frameThrottle', () => {
	it('draws once per frame however many updates arrive', () => {
		const frames = manualFrames();
		let draws = 0;
		const t = frameThrottle(() => draws++, frames.schedule);
		for (let i = 0; i < 500; i++) t.request();
		expect(draws).toBe(0);
		frames.frame();
		expect(draws).toBe(1);
		t.request();
		frames.frame();
		frames.frame();
		expect(draws).toBe(2);
	});

	it('flush draws a pending update at once and only once', () => {
		const frames = manualFrames();
		let draws = 0;
		const t = frameThrottle(() => draws++, frames.schedule);
		t.flush();
		expect(draws).toBe(0);
		t.request();
		t.flush();
		expect(draws).toBe(1);
		expect(frames.pending).toBe(0);
	});

	it('cancel drops a pending update', () => {
		const frames = manualFrames();
		let draws = 0;
		const t = frameThrottle(() => draws++, frames.schedule);
		t.request();
		t.cancel();
		frames.frame();
		expect(draws).toBe(0);
	});
});
