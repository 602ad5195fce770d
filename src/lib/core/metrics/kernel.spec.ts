import { describe, expect, it } from 'vitest';
import { CELL, ROW_WIDTH } from './case-table';
import { isShare, shareCases, wilson } from './kernel';
import { slotOf } from '../protocol/metrics';

describe("Wilson's score interval", () => {
	it.each([
		// 32 of 32 (a DCG success of 1 on 32 cases): n / (n + z²) = 0.8928, not [1, 1].
		{ p: 1, n: 32, low: 0.892821, high: 1 },
		{ p: 0, n: 10, low: 0, high: 0.277533 },
		{ p: 0.5, n: 100, low: 0.403832, high: 0.596168 },
		{ p: 0.9, n: 20, low: 0.698966, high: 0.972134 }
	])('p = $p on $n trials → [$low, $high]', ({ p, n, low, high }) => {
		const [lo, hi] = wilson(p, n)!;
		expect(lo).toBeCloseTo(low, 6);
		expect(hi).toBeCloseTo(high, 6);
	});

	it('has no interval without a trial or outside [0, 1]', () => {
		expect([wilson(1, 0), wilson(Number.NaN, 5), wilson(1.2, 5)]).toEqual([null, null, null]);
	});
});

describe('shares and the cases that hold them', () => {
	it('counts the cases holding a share, and calls F1 and QWK no share', () => {
		const counts = new Int32Array(3 * ROW_WIDTH);
		counts[0 * ROW_WIDTH + CELL.DCG_N] = 1;
		counts[2 * ROW_WIDTH + CELL.DCG_N] = 1;
		const success = slotOf('dcg', 'success_rate');
		expect(isShare(success)).toBe(true);
		expect(shareCases(counts, Int32Array.of(0, 1, 2), success)).toBe(2);
		expect(shareCases(counts, Int32Array.of(1), success)).toBe(0);
		for (const slot of [slotOf('lca', 'macro_f1'), slotOf('direct', 'qwk')]) {
			expect(isShare(slot)).toBe(false);
			expect(shareCases(counts, Int32Array.of(0, 1, 2), slot)).toBe(-1);
		}
	});
});
