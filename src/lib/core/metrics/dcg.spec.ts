import { describe, expect, it } from 'vitest';
import { dcgMetrics } from './dcg';

type D = '是' | '否';
const r = (r1: D, r2: D) => ({ round_labels: [r1, r2] as [D, D] });

describe('dcgMetrics', () => {
	it.each([
		{
			name: 'fixture run1: a round-1 hit, a round-2 rescue, two misses',
			records: [r('是', '否'), r('否', '是'), r('否', '否'), r('否', '否')],
			// success 2/4 (either round); round 1: 1/4; round 2: 1/4
			expected: { success_rate: 0.5, round1_rate: 0.25, round2_rate: 0.25, n: 4 }
		},
		{
			name: 'both rounds hit in the same case count once for success',
			records: [r('是', '是'), r('否', '否')],
			expected: { success_rate: 0.5, round1_rate: 0.5, round2_rate: 0.5, n: 2 }
		},
		{
			name: 'all succeed',
			records: [r('是', '否'), r('否', '是')],
			expected: { success_rate: 1, round1_rate: 0.5, round2_rate: 0.5, n: 2 }
		},
		{
			name: 'none succeed',
			records: [r('否', '否')],
			expected: { success_rate: 0, round1_rate: 0, round2_rate: 0, n: 1 }
		},
		{
			name: 'no cases: undefined, not 0',
			records: [],
			expected: { success_rate: null, round1_rate: null, round2_rate: null, n: 0 }
		}
	])('$name', ({ records, expected }) => {
		expect(dcgMetrics(records)).toEqual(expected);
	});
});
