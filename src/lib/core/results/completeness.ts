/**
 * PROTOCOL.md §7 scores only complete, case-aligned stage files. Before any metric, each eval_results
 * file is checked against the manifest's selected cases: every case exactly once (LCA: once per
 * history type). Missing cases make a stage incomplete; a record for a case that is not
 * selected, or a second record for the same case, is an error naming file, line and case.
 */
import { CheckpointError } from '../errors';
import { EVAL_FILES, type EvalFile } from '../protocol';
import { caseKey, STAGE_PATHS } from '../record-names';
import { coded } from '../said';
import type { CaseNumber, DcgResultRecord, LcaResultRecord, LjpResultRecord } from '../records';

/** The parsed records of each eval file; a file that does not exist is absent. */
export interface EvalRecords {
	LCA_results?: LcaResultRecord[];
	DCG_results?: DcgResultRecord[];
	LJP_direct?: LjpResultRecord[];
	LJP_gold?: LjpResultRecord[];
	LJP_interaction?: LjpResultRecord[];
}

/** How much of a stage is saved. */
export interface StageCompleteness {
	/** `missing`: no file; `incomplete`: some selected cases have no record yet. */
	status: 'complete' | 'incomplete' | 'missing';
	/** Records saved (LCA, two per case) or cases saved (the other stages). */
	have: number;
	/** What a complete file holds: 2 × selected cases for LCA, else the selected cases. */
	expected: number;
	unit: 'records' | 'cases';
}

type Keyed = { case_number: CaseNumber; history_type?: string };

/**
 * Checks one eval file against the selected case numbers. `label` names the file in errors.
 * Record `i` is on line `i + 1`: parseJsonl rejects blank lines, so the two never drift apart.
 */
export function checkStage(
	file: EvalFile,
	records: readonly Keyed[] | undefined,
	selected: readonly CaseNumber[],
	label: string
): StageCompleteness {
	const perCase = STAGE_PATHS[file].perCase;
	const unit = perCase === 1 ? 'cases' : 'records';
	const expected = selected.length * perCase;
	if (records === undefined) return { status: 'missing', have: 0, expected, unit };
	// Compared as strings (PROTOCOL.md §5): a Python writer's `1001` is the dataset's `"1001"` and back.
	const known = new Set(selected.map(caseKey));
	const seen = new Map<string, number>();
	records.forEach((r, i) => {
		const at = { file: label, line: i + 1, caseNumber: String(r.case_number) };
		const caseNumber = caseKey(r.case_number);
		if (!known.has(caseNumber)) {
			throw new CheckpointError([coded('result_not_selected', { ...at, count: selected.length })]);
		}
		const key = perCase === 2 ? `${caseNumber}\u0000${r.history_type}` : caseNumber;
		const first = seen.get(key);
		if (first !== undefined) {
			throw new CheckpointError([
				perCase === 2
					? coded('result_scored_twice_history', { ...at, role: String(r.history_type), first })
					: coded('result_scored_twice', { ...at, first })
			]);
		}
		seen.set(key, i + 1);
	});
	return {
		status: seen.size === expected ? 'complete' : 'incomplete',
		have: seen.size,
		expected,
		unit
	};
}

/**
 * The files of one run must describe the same cases: one cause_of_action per case across all
 * files (else per-class figures are ambiguous), and the same claims and gold verdicts in all
 * three LJP setups. A disagreement means files from different datasets were mixed.
 */
export function checkCrossStage(records: EvalRecords, label: (file: EvalFile) => string): void {
	const causes = new Map<string, { cause: string; otherFile: string; otherLine: number }>();
	const claims = new Map<string, { value: string; otherFile: string; otherLine: number }>();
	for (const file of EVAL_FILES) {
		(records[file] ?? []).forEach((r, i) => {
			const at = { file: label(file), line: i + 1, caseNumber: String(r.case_number) };
			const here = { otherFile: at.file, otherLine: at.line };
			const caseNumber = caseKey(r.case_number);
			const cause = causes.get(caseNumber);
			if (!cause) causes.set(caseNumber, { cause: r.cause_of_action, ...here });
			else if (cause.cause !== r.cause_of_action) {
				const { otherFile, otherLine } = cause;
				throw new CheckpointError([
					coded('result_cause_mismatch', {
						...at,
						cause: r.cause_of_action,
						otherCause: cause.cause,
						otherFile,
						otherLine
					})
				]);
			}
			if ('gold' in r) {
				const value = JSON.stringify([r.claims, r.gold]);
				const seen = claims.get(caseNumber);
				if (!seen) claims.set(caseNumber, { value, ...here });
				else if (seen.value !== value) {
					const { otherFile, otherLine } = seen;
					throw new CheckpointError([
						coded('result_claims_mismatch', { ...at, otherFile, otherLine })
					]);
				}
			}
		});
	}
}
