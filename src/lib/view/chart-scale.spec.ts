import { describe, expect, it } from 'vitest';
import { clipToAxis, formatTick, ticksOf, whiskerOf, yRange } from './chart-scale';
import { testFigure } from '../../../tests/support/test-figure';

describe('formatTick', () => {
	it('never prints a negative zero', () => {
		expect(formatTick(-0)).toBe('0.0');
		expect(formatTick(-1e-17)).toBe('0.0');
		expect(formatTick(-0.04)).toBe('0.0');
		expect(formatTick(0.2 - 0.2 * 1.0000000000000002)).toBe('0.0');
	});

	it('writes negatives with a true minus sign and keeps one decimal', () => {
		expect(formatTick(-0.2)).toBe('\u22120.2');
		expect(formatTick(0.6000000000000001)).toBe('0.6');
		expect(formatTick(1)).toBe('1.0');
	});
});

describe('ticksOf', () => {
	it('gives exact multiples of the step, negative zero included as 0', () => {
		const ticks = ticksOf({ min: -0.4, max: 1 });
		expect(ticks).toEqual([-0.4, -0.2, 0, 0.2, 0.4, 0.6, 0.8, 1]);
		expect(ticks.map((t) => formatTick(t))).not.toContain('-0.0');
		expect(ticks.map((t) => formatTick(t))).not.toContain('\u22120.0');
	});
});

describe('whiskers', () => {
	it('uses the interval when intervals are shown, else ± SD, else none', () => {
		const fig = testFigure();
		expect(whiskerOf(fig.cells[0][0], fig)).toEqual([0.57, 0.66]);
		expect(whiskerOf({ value: 0.5, sd: 0.1, notes: [] }, { withSd: true, withCi: false })).toEqual([
			0.4, 0.6
		]);
		expect(whiskerOf({ value: 0.5, sd: 0, notes: [] }, { withSd: true, withCi: false })).toBeNull();
		expect(
			whiskerOf({ value: null, ci: [0, 1], notes: [] }, { withSd: false, withCi: true })
		).toBeNull();
	});

	it('clips a whisker to the axis, and drops one wholly outside', () => {
		expect(clipToAxis([0.3, 1.2], { min: 0, max: 1 })).toEqual([0.3, 1]);
		expect(clipToAxis([-0.5, 0.2], { min: 0, max: 1 })).toEqual([0, 0.2]);
		expect(clipToAxis([1.1, 1.3], { min: 0, max: 1 })).toBeNull();
	});

	it('extends a kappa axis down to the tick below the lowest whisker', () => {
		const fig = testFigure({ scale: 'kappa' });
		fig.cells[0][0] = { value: 0.1, ci: [-0.25, 0.3], notes: [] };
		expect(yRange(fig)).toEqual({ min: -0.4, max: 1 });
		expect(yRange(testFigure({ scale: 'kappa' }))).toEqual({ min: 0, max: 1 });
	});
});
