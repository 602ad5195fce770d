import { describe, expect, it } from 'vitest';
import { CallRate } from './call-rate';

describe('CallRate, the one call-rate model', () => {
	it('measures answered calls per second over the last minute and forgets a pause', () => {
		const rate = new CallRate();
		expect(rate.perSecond(0)).toBeNull();
		rate.note(0, 0);
		expect(rate.perSecond(500)).toBeNull();
		rate.note(10, 500);
		expect(rate.perSecond(1000)).toBe(10);
		rate.note(20, 2000);
		expect(rate.perSecond(2000)).toBe(10);
		for (let t = 3000; t <= 120_000; t += 1000) rate.note(t / 100, t);
		// Only the last minute counts: 10 calls a second there.
		expect(rate.perSecond(120_000)).toBeCloseTo(10, 5);
		rate.reset();
		expect(rate.perSecond(121_000)).toBeNull();
	});
});
