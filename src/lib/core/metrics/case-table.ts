/**
 * One row of integer counts per selected case: everything a metric of PROTOCOL.md §7 needs, so a
 * bootstrap resample is a sum of rows (no records, no objects per resample). The table is
 * plain data (arrays and typed arrays), so it can be posted to a Web Worker as it is.
 */
import { VERDICTS } from '../dataset/names';
import type { CategoryMap, Verdict } from '../dataset/types';
import { caseKey } from '../record-names';
import type { CaseNumber, DcgResultRecord, LcaResultRecord, LjpResultRecord } from '../records';
import { classOf } from '../dataset/categories';
import { orderClasses } from './by-class';
import { LJP_FILE, LJP_SETUPS, type LjpSetup } from '../protocol';

/**
 * Where each stage's counts sit in a row: LCA's confusion matrix, then DCG's records (0 or 1),
 * successes, round-1 是 and round-2 是.
 */
export const CELL = {
	LCA_TP: 0,
	LCA_FN: 1,
	LCA_FP: 2,
	LCA_TN: 3,
	DCG_N: 4,
	DCG_SUCCESS: 5,
	DCG_ROUND1: 6,
	DCG_ROUND2: 7
} as const;
/** LJP: a 3 × 3 gold × predicted block per setup, row-major (gold 支持, 部分支持, 驳回). */
export const LJP_OFFSET: Record<LjpSetup, number> = { direct: 8, gold: 17, interaction: 26 };
/** Counts per case row. */
export const ROW_WIDTH = 35;

const VERDICT_INDEX: Record<Verdict, number> = { 支持: 0, 部分支持: 1, 驳回: 2 };
const K = VERDICTS.length;

/** Which stages of a run are scored (complete, or saved so far with `partial`). */
export interface ScoredStages {
	lca: boolean;
	dcg: boolean;
	ljp: Record<LjpSetup, boolean>;
}

/** The records a table is built from; the shape of the results module's `EvalRecords`. */
export interface CaseRecords {
	LCA_results?: readonly Pick<
		LcaResultRecord,
		'case_number' | 'cause_of_action' | 'history_type' | 'label'
	>[];
	DCG_results?: readonly Pick<
		DcgResultRecord,
		'case_number' | 'cause_of_action' | 'round_labels'
	>[];
	LJP_direct?: readonly Pick<
		LjpResultRecord,
		'case_number' | 'cause_of_action' | 'predicted' | 'gold'
	>[];
	LJP_gold?: readonly Pick<
		LjpResultRecord,
		'case_number' | 'cause_of_action' | 'predicted' | 'gold'
	>[];
	LJP_interaction?: readonly Pick<
		LjpResultRecord,
		'case_number' | 'cause_of_action' | 'predicted' | 'gold'
	>[];
}

/** Per-case counts of one run, in the order of its selected cases. */
export interface CaseTable {
	/** The run's selected case numbers as strings; row `i` is case `case_numbers[i]`. */
	case_numbers: string[];
	/** Classes present in the records, in report order. */
	classes: string[];
	/** Per case, its index in `classes`, or −1 when no record names the case. */
	class_of: Int32Array;
	/** `case_numbers.length × ROW_WIDTH` counts; a stage that is not scored stays all zero. */
	counts: Int32Array;
	/** Per case, its claims in the scored LJP setups (0 when none is scored). */
	claims: Int32Array;
	scored: ScoredStages;
}

/**
 * Builds the table. Records must already be checked against the selected cases (unknown
 * cases throw a RangeError here; `checkStage` gives the user-facing message first). Classes
 * come from every file present, scored or not, as the per-class metrics do.
 */
export function buildCaseTable(
	selected: readonly CaseNumber[],
	records: CaseRecords,
	categories: CategoryMap,
	scored: ScoredStages
): CaseTable {
	const n = selected.length;
	// Case numbers compare as strings (PROTOCOL.md §5): `1001` in a record is the manifest's `"1001"`.
	const keys = selected.map(caseKey);
	const row = new Map(keys.map((c, i) => [c, i]));
	const rowOf = (caseNumber: CaseNumber) => {
		const i = row.get(caseKey(caseNumber));
		if (i === undefined) throw new RangeError(`case_number ${caseNumber} is not a selected case`);
		return i;
	};
	const counts = new Int32Array(n * ROW_WIDTH);
	const claims = new Int32Array(n);
	const causes = new Array<string | undefined>(n);
	const note = (r: { case_number: CaseNumber; cause_of_action: string }) => {
		const i = rowOf(r.case_number);
		causes[i] ??= r.cause_of_action;
		return i * ROW_WIDTH;
	};

	for (const r of records.LCA_results ?? []) {
		const o = note(r);
		if (!scored.lca) continue;
		const asked = r.label === 'clarification';
		if (r.history_type === 'underspecified') counts[o + (asked ? CELL.LCA_TP : CELL.LCA_FN)]++;
		else counts[o + (asked ? CELL.LCA_FP : CELL.LCA_TN)]++;
	}
	for (const r of records.DCG_results ?? []) {
		const o = note(r);
		if (!scored.dcg) continue;
		const [r1, r2] = r.round_labels;
		counts[o + CELL.DCG_N]++;
		if (r1 === '是' || r2 === '是') counts[o + CELL.DCG_SUCCESS]++;
		if (r1 === '是') counts[o + CELL.DCG_ROUND1]++;
		if (r2 === '是') counts[o + CELL.DCG_ROUND2]++;
	}
	for (const setup of LJP_SETUPS) {
		for (const r of records[LJP_FILE[setup]] ?? []) {
			const o = note(r);
			if (!scored.ljp[setup]) continue;
			const block = o + LJP_OFFSET[setup];
			r.gold.forEach(
				(g, j) => counts[block + VERDICT_INDEX[g] * K + VERDICT_INDEX[r.predicted[j]]]++
			);
			const i = o / ROW_WIDTH;
			// The setups score the same claims (checkCrossStage); max covers a partial stage.
			claims[i] = Math.max(claims[i], r.gold.length);
		}
	}

	const classNames = causes.map((c) => (c === undefined ? undefined : classOf(c, categories)));
	const classes = orderClasses(
		classNames.filter((c): c is string => c !== undefined),
		categories
	);
	const index = new Map(classes.map((c, i) => [c, i]));
	const class_of = Int32Array.from(classNames, (c) => (c === undefined ? -1 : index.get(c)!));
	return { case_numbers: keys, classes, class_of, counts, claims, scored };
}

/** The rows of the cases in class `cls` (index into `classes`), or of every case for −1. */
export function scopeRows(table: CaseTable, cls: number): Int32Array {
	if (cls < 0) return Int32Array.from(table.case_numbers, (_, i) => i);
	const rows: number[] = [];
	table.class_of.forEach((c, i) => {
		if (c === cls) rows.push(i);
	});
	return Int32Array.from(rows);
}

/** Adds the rows `rows` of `counts` into `acc` (length ROW_WIDTH), each once. */
export function sumRows(counts: Int32Array, rows: Int32Array, acc: Float64Array): void {
	acc.fill(0);
	for (let j = 0; j < rows.length; j++) {
		const o = rows[j] * ROW_WIDTH;
		for (let k = 0; k < ROW_WIDTH; k++) acc[k] += counts[o + k];
	}
}

/** The nonzero counts of each row (compressed sparse rows): about a third of ROW_WIDTH per case. */
export interface SparseRows {
	/** Row `i`'s entries are `start[i] … start[i + 1] − 1`. */
	start: Int32Array;
	column: Uint8Array | Uint16Array;
	value: Int32Array;
}

/**
 * One bootstrap resample of `rows` into `acc`: `rows.length` draws of `rng` with replacement,
 * `times` counting how often each was drawn, then each drawn row's nonzero counts times that,
 * summed. The metrics' intervals and the leaderboard's draw alike, so a model of one run gets
 * that run's interval.
 */
export function drawResample(
	sparse: SparseRows,
	rows: ArrayLike<number>,
	rng: { below(n: number): number },
	times: Int32Array,
	acc: Float64Array | Int32Array
): void {
	const { start, column, value } = sparse;
	const n = rows.length;
	times.fill(0);
	for (let j = 0; j < n; j++) times[rng.below(n)]++;
	acc.fill(0);
	for (let j = 0; j < n; j++) {
		const t = times[j];
		if (t === 0) continue;
		const i = rows[j];
		for (let p = start[i], end = start[i + 1]; p < end; p++) acc[column[p]] += t * value[p];
	}
}

/** The sparse form of `counts`, rows `width` wide (ROW_WIDTH; wider for runs side by side). */
export function sparseRows(counts: Int32Array, width = ROW_WIDTH): SparseRows {
	const n = counts.length / width;
	const start = new Int32Array(n + 1);
	let nonzero = 0;
	for (const c of counts) if (c !== 0) nonzero++;
	const column = width <= 256 ? new Uint8Array(nonzero) : new Uint16Array(nonzero);
	const value = new Int32Array(nonzero);
	let p = 0;
	for (let i = 0; i < n; i++) {
		start[i] = p;
		for (let k = 0; k < width; k++) {
			const c = counts[i * width + k];
			if (c !== 0) {
				column[p] = k;
				value[p++] = c;
			}
		}
	}
	start[n] = p;
	return { start, column, value };
}
