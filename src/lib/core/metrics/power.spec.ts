import { describe, expect, it } from 'vitest';
import type { FullRecords } from '../../../../tests/unit/metrics/random-records';
import { buildCaseTable, type ScoredStages } from './case-table';
import { alignRows } from './paired';
import { minimalDetectableDifference, pairedPower, runPower, WORST_CASE_SD } from './power';

const ALL: ScoredStages = {
	lca: true,
	dcg: true,
	ljp: { direct: true, gold: true, interaction: true }
};
const Z = 1.959963984540054 + 0.8416212335729143;

/** `n` cases whose DCG succeeds where `success(i)` and whose LCA is right where `right(i)`. */
function run(
	n: number,
	success: (i: number) => boolean,
	right: (i: number) => boolean
): FullRecords {
	const r: FullRecords = {
		LCA_results: [],
		DCG_results: [],
		LJP_direct: [],
		LJP_gold: [],
		LJP_interaction: []
	};
	for (let i = 0; i < n; i++) {
		const c = { case_number: `c${i}`, cause_of_action: '合同纠纷' };
		r.DCG_results.push({ ...c, round_labels: [success(i) ? '是' : '否', '否'] });
		r.LCA_results.push(
			{ ...c, history_type: 'complete', label: right(i) ? 'judgment' : 'clarification' },
			{ ...c, history_type: 'underspecified', label: right(i) ? 'clarification' : 'judgment' }
		);
	}
	return r;
}
const table = (r: FullRecords) =>
	buildCaseTable(
		r.DCG_results.map((x) => x.case_number),
		r,
		{},
		ALL
	);

describe('power', () => {
	it('gives the worst-case MDD (z_.975 + z_.8)·√0.5/√n for one run', () => {
		const p = runPower(
			table(
				run(
					100,
					() => true,
					() => false
				)
			)
		);
		expect(p).toMatchObject({ n_cases: 100, alpha: 0.05, power: 0.8 });
		// 2.8016 × 0.7071 / 10 ≈ 0.198
		expect(p.worst_case.dcg!.success_rate).toBeCloseTo(0.1981, 4);
		expect(p.worst_case.lca).toEqual({
			acc_c: p.worst_case.dcg!.success_rate,
			acc_u: p.worst_case.dcg!.success_rate
		});
		expect(
			runPower(
				table(
					run(
						400,
						() => true,
						() => true
					)
				)
			).worst_case.dcg!.success_rate
		).toBeCloseTo(0.1981 / 2, 4);
	});

	it('uses the SD of the observed per-case differences for two runs', () => {
		// DCG: B gains on cases 0–19, loses on 20–29, ties elsewhere: d = +1 ×20, −1 ×10, 0 ×70.
		const a = run(
			100,
			(i) => i >= 20 && i < 30,
			(i) => i < 50
		);
		const b = run(
			100,
			(i) => i < 20,
			(i) => i < 50
		);
		const ta = table(a);
		const tb = table(b);
		const p = pairedPower(ta, tb, alignRows(ta, tb));
		const mean = 0.1;
		const sd = Math.sqrt((20 * (1 - mean) ** 2 + 10 * (-1 - mean) ** 2 + 70 * mean ** 2) / 99);
		expect(p.sd_diff.dcg!.success_rate).toBeCloseTo(sd, 12);
		expect(p.observed.dcg!.success_rate).toBeCloseTo((Z * sd) / 10, 12);
		expect(p.worst_case.dcg!.success_rate).toBeCloseTo((Z * WORST_CASE_SD) / 10, 12);
		// The LCA outcomes agree on every case: no observed variance, so no figure.
		expect(p.observed.lca).toEqual({ acc_c: null, acc_u: null });
		expect(p.sd_diff.lca).toEqual({ acc_c: 0, acc_u: 0 });
	});

	it('is null for a stage that is not scored, or without cases', () => {
		const r = run(
			10,
			() => true,
			() => true
		);
		const t = buildCaseTable(
			r.DCG_results.map((x) => x.case_number),
			r,
			{},
			{ ...ALL, dcg: false }
		);
		expect(runPower(t).worst_case.dcg).toBeNull();
		expect(minimalDetectableDifference(0.5, 0)).toBeNull();
		expect(minimalDetectableDifference(0, 10)).toBeNull();
	});
});
