/**
 * LJP confusion matrices and case/claim counts of a run, overall and per class, read off the
 * case table (so they always agree with the metrics and intervals computed from it).
 */
import { VERDICTS } from '../dataset/names';
import { LJP_OFFSET, ROW_WIDTH, scopeRows, sumRows, type CaseTable } from './case-table';
import { LJP_SETUPS, type LjpSetup } from './types';

/**
 * Gold × predicted claim counts: `m[g][p]` = claims with gold verdict VERDICTS[g] predicted as
 * VERDICTS[p] (order 支持, 部分支持, 驳回). Null for a setup that is not scored.
 */
export type LjpConfusion = Record<LjpSetup, number[][] | null>;

/** How much data a figure rests on. */
export interface ScopeCounts {
	/** Selected cases (overall), or cases of the class. */
	cases: number;
	/** Claims of those cases in the scored LJP setups; null when no LJP setup is scored. */
	claims: number | null;
}

/** The matrix of one setup from summed counts. */
function matrix(acc: Float64Array, setup: LjpSetup): number[][] {
	const o = LJP_OFFSET[setup];
	return VERDICTS.map((_, g) => VERDICTS.map((__, p) => acc[o + g * VERDICTS.length + p]));
}

/** Confusion matrices and counts for all cases (`cls` = −1) or one class index. */
export function scopeSummary(
	table: CaseTable,
	cls: number
): { counts: ScopeCounts; ljp_confusion: LjpConfusion } {
	const rows = scopeRows(table, cls);
	const acc = new Float64Array(ROW_WIDTH);
	sumRows(table.counts, rows, acc);
	const anyLjp = LJP_SETUPS.some((s) => table.scored.ljp[s]);
	let claims = 0;
	for (const r of rows) claims += table.claims[r];
	return {
		counts: { cases: rows.length, claims: anyLjp ? claims : null },
		ljp_confusion: Object.fromEntries(
			LJP_SETUPS.map((s) => [s, table.scored.ljp[s] ? matrix(acc, s) : null])
		) as LjpConfusion
	};
}
