import { describe, expect, it } from 'vitest';
import { makeDcg, makeLca } from '../../../../tests/support/record-factories';
import { listDecisions } from './decisions';
import { allocate, sampleDecisions, stratumOf } from './sample';

const RUN = { runId: 'r1', modelDir: 'm-12345678' };
const CATEGORIES = { 民间借贷纠纷: '合同', 离婚纠纷: '婚姻' };

function decisions() {
	const lca = [];
	const dcg = [];
	for (let c = 1; c <= 30; c++) {
		const cause = c % 3 === 0 ? '离婚纠纷' : '民间借贷纠纷';
		lca.push(
			makeLca(c, 'underspecified', {
				cause_of_action: cause,
				label: c % 4 ? 'clarification' : 'judgment'
			})
		);
		lca.push(makeLca(c, 'complete', { cause_of_action: cause, label: 'judgment' }));
		dcg.push(makeDcg(c, { cause_of_action: cause, round_labels: [c % 5 ? '否' : '是', '是'] }));
	}
	return listDecisions(RUN, { LCA_results: lca, DCG_results: dcg }, CATEGORIES);
}

describe('listDecisions', () => {
	it('gives one decision per LCA response and per DCG round, each with a unique key', () => {
		const all = decisions();
		expect(all).toHaveLength(120);
		expect(new Set(all.map((d) => d.key)).size).toBe(120);
		expect(all[0]).toMatchObject({
			label: 'clarification',
			cls: '合同',
			id: { stage: 'lca', history_type: 'underspecified', round: null }
		});
	});
});

describe('allocate', () => {
	it('is proportional with the largest remainders rounded up, summing to the size', () => {
		const got = allocate(
			new Map([
				['a', 50],
				['b', 30],
				['c', 20]
			]),
			9
		);
		// quotas 4.5, 2.7, 1.8 → 4, 2, 1 and two more to c (0.8) and b (0.7)
		expect(Object.fromEntries(got)).toEqual({ a: 4, b: 3, c: 2 });
		expect(Object.fromEntries(allocate(new Map([['a', 2]]), 5))).toEqual({ a: 2 });
	});
});

describe('sampleDecisions', () => {
	it('reproduces the same sample from its seed, whatever the input order', () => {
		const all = decisions();
		const a = sampleDecisions(all, 50, 2411).map((d) => d.key);
		expect(sampleDecisions([...all].reverse(), 50, 2411).map((d) => d.key)).toEqual(a);
		expect(sampleDecisions(all, 50, 2412).map((d) => d.key)).not.toEqual(a);
		expect(new Set(a).size).toBe(50);
	});

	it('takes each stratum in proportion to its size', () => {
		const all = decisions();
		const sample = sampleDecisions(all, 60, 1);
		const count = (list: typeof all) => {
			const m = new Map<string, number>();
			for (const d of list) m.set(stratumOf(d), (m.get(stratumOf(d)) ?? 0) + 1);
			return m;
		};
		const whole = count(all);
		for (const [stratum, n] of count(sample)) {
			expect(Math.abs(n - whole.get(stratum)! / 2)).toBeLessThan(1);
		}
	});

	it('takes everything when the size is larger than the run', () => {
		expect(sampleDecisions(decisions(), 500, 3)).toHaveLength(120);
		expect(() => sampleDecisions(decisions(), -1, 3)).toThrow(RangeError);
	});
});
