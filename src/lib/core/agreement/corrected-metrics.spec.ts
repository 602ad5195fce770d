import { describe, expect, it } from 'vitest';
import { makeDcg, makeLca } from '../../../../tests/support/record-factories';
import type { DcgLabel } from '../records';
import { correctedMetrics } from './corrected-metrics';
import { listDecisions } from './decisions';
import type { LabelPair } from './kappa';

const RUN = { runId: 'r1', modelDir: 'm-12345678' };

/** `[judge, person]` pairs with Se = 0.8 and Sp = 0.9 on 10 + 10 reviews. */
function reviewed(pos: string, neg: string): LabelPair[] {
	const out: LabelPair[] = [];
	for (let i = 0; i < 10; i++) out.push([i < 8 ? pos : neg, pos]);
	for (let i = 0; i < 10; i++) out.push([i < 9 ? neg : pos, neg]);
	return out;
}

describe('correctedMetrics', () => {
	it('undoes a known judge on LCA: acc_u, acc_c and macro-F1 of the true labels', () => {
		// Truth: 70 of 100 underspecified and 20 of 100 complete responses ask. A judge with
		// Se 0.8, Sp 0.9 says "ask" for 0.7·0.8 + 0.3·0.1 = 59 and 0.2·0.8 + 0.8·0.1 = 24 of them.
		const lca = [];
		for (let i = 0; i < 100; i++) {
			lca.push(makeLca(i, 'underspecified', { label: i < 59 ? 'clarification' : 'judgment' }));
			lca.push(makeLca(i, 'complete', { label: i < 24 ? 'clarification' : 'judgment' }));
		}
		const decisions = listDecisions(RUN, { LCA_results: lca }, {});
		const got = correctedMetrics(
			decisions,
			{ lca: reviewed('clarification', 'judgment'), dcg: [] },
			{ resamples: 300 }
		);
		expect(got.dcg).toBeNull();
		expect(got.lca!.acc_u.value).toBeCloseTo(0.7, 9);
		expect(got.lca!.acc_c.value).toBeCloseTo(0.8, 9);
		// tp 70, fn 30, fp 20, tn 80: F1_u = 140/190, F1_c = 160/210.
		expect(got.lca!.macro_f1.value).toBeCloseTo((140 / 190 + 160 / 210) / 2, 9);
		const [low, high] = got.lca!.acc_u.ci95!;
		expect(low).toBeLessThan(0.7);
		expect(high).toBeGreaterThan(0.7);
	});

	it('undoes a known judge on DCG, the success rate through both rounds at once', () => {
		// True joint of (round 1, round 2): 是是 0.2, 是否 0.2, 否是 0.2, 否否 0.4 (success 0.6, each
		// round 0.4). Observed joint = M ⊗ M applied to it, M = P(judge | truth), 500 cases.
		const M: Record<DcgLabel, Record<DcgLabel, number>> = {
			是: { 是: 0.8, 否: 0.1 },
			否: { 是: 0.2, 否: 0.9 }
		};
		const truth: [DcgLabel, DcgLabel, number][] = [
			['是', '是', 0.2],
			['是', '否', 0.2],
			['否', '是', 0.2],
			['否', '否', 0.4]
		];
		const records = [];
		let c = 0;
		for (const a of ['是', '否'] as const) {
			for (const b of ['是', '否'] as const) {
				const share = truth.reduce((s, [x, y, t]) => s + M[a][x] * M[b][y] * t, 0);
				for (let k = 0; k < Math.round(share * 500); k++)
					records.push(makeDcg(c++, { round_labels: [a, b], success: a === '是' || b === '是' }));
			}
		}
		expect(records).toHaveLength(500);
		const decisions = listDecisions(RUN, { DCG_results: records }, {});
		const got = correctedMetrics(
			decisions,
			{ lca: [], dcg: reviewed('是', '否') },
			{ resamples: 300 }
		);
		expect(got.lca).toBeNull();
		expect(got.dcg!.success_rate.value).toBeCloseTo(0.6, 9);
		expect(got.dcg!.round1_rate.value).toBeCloseTo(0.4, 9);
		expect(got.dcg!.round2_rate.value).toBeCloseTo(0.4, 9);
	});

	it('says too small to say on a sample of 9', () => {
		const decisions = listDecisions(RUN, { DCG_results: [makeDcg(1)] }, {});
		const got = correctedMetrics(decisions, { lca: [], dcg: reviewed('是', '否').slice(0, 9) });
		expect(got.dcg!.success_rate).toMatchObject({
			status: 'too_small',
			value: null,
			n_reviewed: 9
		});
	});
});
