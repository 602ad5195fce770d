import { describe, expect, it } from 'vitest';
import { estimateCalls, formatRange } from './call-estimate';

describe('estimateCalls', () => {
	it('counts only the cases still to run when some are saved', () => {
		const est = estimateCalls(['dcg', 'ljp-direct'], 10, { dcg: 4, 'ljp-direct': 10 });
		expect(est.stages.map((s) => [s.stage, s.cases, s.calls])).toEqual([
			['dcg', 6, { min: 30, max: 30 }],
			['ljp-direct', 0, { min: 0, max: 0 }]
		]);
		expect(est.total).toEqual({ min: 30, max: 30 });
	});

	it('gives gen a range, since the interaction may end early, and orders stages as the protocol does', () => {
		const est = estimateCalls(['ljp-gold', 'gen'], 100);
		expect(est.stages.map((s) => s.stage)).toEqual(['gen', 'ljp-gold']);
		expect(est.total).toEqual({ min: 600, max: 1400 });
		expect(formatRange(est.total)).toBe('600–1,400');
	});
});
