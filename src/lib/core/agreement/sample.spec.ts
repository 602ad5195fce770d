import { describe, expect, it } from 'vitest';
import { makeDcg, makeLca } from '../../../../tests/support/record-factories';
import { listDecisions } from './decisions';
import type { Decision } from './decisions';
import { allocate, allocateStages, sampleDecisions, stratumOf } from './sample';

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

/** `n` decisions of a stage group, classes and labels in turn (no records needed). */
function synthetic(group: 'lca' | 'dcg' | 'ljp', n: number): Decision[] {
	const labels = { lca: ['clarification', 'judgment'], dcg: ['是', '否'], ljp: ['支持', '驳回'] };
	return Array.from({ length: n }, (_, i) => {
		const id = {
			run_id: 'r1',
			model_dir: 'm-12345678',
			stage:
				group === 'ljp' ? (['ljp-direct', 'ljp-gold', 'ljp-interaction'] as const)[i % 3] : group,
			case_number: String(i),
			history_type: group === 'lca' ? ('complete' as const) : null,
			round: group === 'dcg' ? 1 : null,
			claim: group === 'ljp' ? 0 : null
		};
		return {
			id,
			key: JSON.stringify([id.stage, i]),
			label: labels[group][i % 5 === 0 ? 1 : 0],
			cls: i % 4 === 0 ? '婚姻' : '合同'
		};
	});
}

describe('each judged stage gets its share of the sample', () => {
	// LJP has 3 setups × claims of decisions: proportional allocation gave a 24-decision sample
	// LCA 2, DCG 5, LJP 16, and at 50 left LCA and DCG under the 10 every figure needs.
	const run = [...synthetic('lca', 40), ...synthetic('dcg', 100), ...synthetic('ljp', 300)];
	const byStage = (sample: Decision[]) => {
		const out: Record<string, number> = { lca: 0, dcg: 0, ljp: 0 };
		for (const d of sample) out[d.id.stage.slice(0, 3)]++;
		return out;
	};

	it('allocates a floor of 10 per stage group where the run has them, the rest in proportion', () => {
		expect(allocateStages({ lca: 40, dcg: 100, ljp: 300 }, 24)).toEqual({ lca: 8, dcg: 8, ljp: 8 });
		// 10 each, then 20 in proportion to 30, 90, 290 (1.46, 4.39, 14.15): 2, 4, 14.
		expect(allocateStages({ lca: 40, dcg: 100, ljp: 300 }, 50)).toEqual({
			lca: 12,
			dcg: 14,
			ljp: 24
		});
		// A stage with fewer decisions gives them all; the others share the rest (26 as 90 : 290).
		expect(allocateStages({ lca: 4, dcg: 100, ljp: 300 }, 50)).toEqual({
			lca: 4,
			dcg: 16,
			ljp: 30
		});
		expect(allocateStages({ lca: 0, dcg: 0, ljp: 3 }, 50)).toEqual({ lca: 0, dcg: 0, ljp: 3 });
	});

	it('takes a size per stage the reviewer sets, out of the sample size', () => {
		expect(allocateStages({ lca: 40, dcg: 100, ljp: 300 }, 24, { ljp: 5 })).toEqual({
			lca: 10,
			dcg: 9,
			ljp: 5
		});
		expect(allocateStages({ lca: 40, dcg: 100, ljp: 300 }, 30, { lca: 60, dcg: 2 })).toEqual({
			lca: 40,
			dcg: 2,
			ljp: 0
		});
	});

	it('draws those shares, each stage by class and label in proportion, reproducibly', () => {
		expect(byStage(sampleDecisions(run, 24, 2411))).toEqual({ lca: 8, dcg: 8, ljp: 8 });
		const sample = sampleDecisions(run, 50, 2411);
		expect(byStage(sample)).toEqual({ lca: 12, dcg: 14, ljp: 24 });
		expect(sampleDecisions([...run].reverse(), 50, 2411)).toEqual(sample);
		// LJP's 24 of 300: 婚姻 is a quarter of the stage, so 6 of its 24.
		expect(sample.filter((d) => d.id.stage.startsWith('ljp') && d.cls === '婚姻')).toHaveLength(6);
		expect(byStage(sampleDecisions(run, 24, 1, { dcg: 4 }))).toEqual({ lca: 10, dcg: 4, ljp: 10 });
		expect(() => sampleDecisions(run, 24, 1, { dcg: -1 })).toThrow(RangeError);
	});
});
