/**
 * Power (README.md, "Uncertainty"): the smallest difference in a per-case yes/no rate (DCG
 * success, LCA Acc_C and Acc_U: one outcome per case each) that a paired comparison of two
 * runs on these cases detects with 80% power at two-sided α = 0.05. Normal approximation to
 * the mean of the per-case differences d = x_B − x_A:
 * MDD = (z_{1−α/2} + z_{power}) · SD(d) / √n.
 */
import { CELL, ROW_WIDTH, type CaseTable } from './case-table';

export const POWER_ALPHA = 0.05;
export const POWER_TARGET = 0.8;
/** z_{0.975} + z_{0.80}. */
const Z_SUM = 1.959963984540054 + 0.8416212335729143;
/**
 * SD of a paired difference of two yes/no outcomes with rate 0.5 each and no correlation:
 * √(0.25 + 0.25). The largest SD two independent runs can have; positively correlated runs
 * (the usual case: models find the same cases hard) have a smaller one.
 */
export const WORST_CASE_SD = Math.SQRT1_2;

/** One figure per rate; a stage not scored is null. */
export interface PowerFigures {
	dcg: { success_rate: number | null } | null;
	lca: { acc_c: number | null; acc_u: number | null } | null;
}

/** What one run alone can say: the worst-case MDD for its case count. */
export interface RunPower {
	n_cases: number;
	alpha: number;
	power: number;
	/** MDD with SD(d) = WORST_CASE_SD (rates of 0.5, uncorrelated runs). */
	worst_case: PowerFigures;
}

/** With two runs: also the MDD from the SD of their observed per-case differences. */
export interface PairedPower extends RunPower {
	/** MDD with the observed SD(d) (ddof = 1); null when the runs never disagree on a case. */
	observed: PowerFigures;
	/** The observed SD(d) itself. */
	sd_diff: PowerFigures;
}

/** Minimal detectable difference for SD(d) = `sd` over `n` paired cases; null if none. */
export function minimalDetectableDifference(sd: number | null, n: number): number | null {
	if (sd === null || !(sd > 0) || n < 1) return null;
	return (Z_SUM * sd) / Math.sqrt(n);
}

/** Which per-case outcome each rate uses: [value column, record-present columns]. */
const OUTCOMES = {
	success_rate: [CELL.DCG_SUCCESS, [CELL.DCG_N]],
	acc_c: [CELL.LCA_TN, [CELL.LCA_FP, CELL.LCA_TN]],
	acc_u: [CELL.LCA_TP, [CELL.LCA_TP, CELL.LCA_FN]]
} as const;
type Outcome = keyof typeof OUTCOMES;

function present(counts: Int32Array, row: number, outcome: Outcome): boolean {
	return OUTCOMES[outcome][1].some((k) => counts[row * ROW_WIDTH + k] > 0);
}

function figures(table: CaseTable, value: (outcome: Outcome) => number | null): PowerFigures {
	return {
		dcg: table.scored.dcg ? { success_rate: value('success_rate') } : null,
		lca: table.scored.lca ? { acc_c: value('acc_c'), acc_u: value('acc_u') } : null
	};
}

/** The worst-case MDD of each rate over the cases of `table` that have its record. */
export function runPower(table: CaseTable): RunPower {
	const n = table.case_numbers.length;
	const rows = (outcome: Outcome) =>
		table.case_numbers.filter((_, i) => present(table.counts, i, outcome)).length;
	return {
		n_cases: n,
		alpha: POWER_ALPHA,
		power: POWER_TARGET,
		worst_case: figures(table, (o) => minimalDetectableDifference(WORST_CASE_SD, rows(o)))
	};
}

/**
 * Worst-case and observed MDD for runs A and B, `countsB` aligned to A's rows (alignRows).
 * Only cases with the outcome's record in both runs count. A stage scored in one run only is
 * null.
 */
export function pairedPower(a: CaseTable, b: CaseTable, countsB: Int32Array): PairedPower {
	const scored = {
		...a,
		scored: { ...a.scored, lca: a.scored.lca && b.scored.lca, dcg: a.scored.dcg && b.scored.dcg }
	};
	const diffs = (outcome: Outcome) => {
		const d: number[] = [];
		const column = OUTCOMES[outcome][0];
		for (let i = 0; i < a.case_numbers.length; i++) {
			if (!present(a.counts, i, outcome) || !present(countsB, i, outcome)) continue;
			d.push(countsB[i * ROW_WIDTH + column] - a.counts[i * ROW_WIDTH + column]);
		}
		return d;
	};
	const sd = (d: number[]) => {
		if (d.length < 2) return null;
		const m = d.reduce((s, v) => s + v, 0) / d.length;
		return Math.sqrt(d.reduce((s, v) => s + (v - m) ** 2, 0) / (d.length - 1));
	};
	return {
		n_cases: a.case_numbers.length,
		alpha: POWER_ALPHA,
		power: POWER_TARGET,
		worst_case: figures(scored, (o) => minimalDetectableDifference(WORST_CASE_SD, diffs(o).length)),
		observed: figures(scored, (o) => {
			const d = diffs(o);
			return minimalDetectableDifference(sd(d), d.length);
		}),
		sd_diff: figures(scored, (o) => sd(diffs(o)))
	};
}
