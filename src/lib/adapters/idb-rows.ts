/**
 * The rows the browser's store keeps in IndexedDB, one interface per object store (the
 * schema that holds them is `idb-schema.ts`).
 */
import type { CallTotals } from '../core/calls/totals';
import type { RunKey } from '../core/layout';
import type { AnyRecord, Manifest } from '../core/records';
import { caseKey, type StageFile } from '../core/record-names';
import type { RecordHead } from '../core/store/heads';
import { PAIRED_FILES } from '../core/store/identity';

/** A run's manifest. Key: [runId, modelDir]. */
export interface ManifestRow {
	runId: string;
	modelDir: string;
	manifest: Manifest;
	/**
	 * Stage files whose every record row has its head row. This store writes the two together;
	 * rows written any other way (a bundle import, a database of version 1) come without this list,
	 * and the file's heads are built again from its records on the next `readHeads`.
	 */
	headed?: StageFile[];
	/**
	 * The totals of the run's call log and how many of its lines they cover (`idb-call-totals.ts`),
	 * so a report need not read the log; absent until an import or a first report writes them.
	 */
	callTotals?: { lines: number; totals: CallTotals };
}

/**
 * One saved record. Key: [runId, modelDir, file, seq], so a file reads back in the order it was
 * written. The record is kept as its JSON line, so export writes exactly what was saved.
 */
export interface RecordRow {
	runId: string;
	modelDir: string;
	file: StageFile;
	/** Position in the file, from 0. */
	seq: number;
	case_number: string;
	/** The record's history_type in the a1 and LCA files (two records per case); '' elsewhere. */
	history_type: string;
	/** `JSON.stringify(record)`. */
	json: string;
}

/** The row of `record` (`json`, its line as saved) at `seq` of a stage file of `run`. */
export function recordRow(
	run: RunKey,
	file: StageFile,
	seq: number,
	record: AnyRecord,
	json: string
): RecordRow {
	// The index compares strings (PROTOCOL.md §5); `json` keeps the record's own type.
	const history_type = PAIRED_FILES.has(file) ? String(record.history_type) : '';
	const { runId, modelDir } = run;
	return {
		runId,
		modelDir,
		file,
		seq,
		case_number: caseKey(record.case_number),
		history_type,
		json
	};
}

/**
 * The head of one record row (`RecordHead`: the record without its histories, and the SHA-256
 * of the whole record), which is all a resume reads. Key: [runId, modelDir, file, seq], the key
 * of its record row.
 */
export interface HeadRow {
	runId: string;
	modelDir: string;
	file: StageFile;
	seq: number;
	head: RecordHead;
}

/**
 * One line of a run's call log (`calls.jsonl`). Key: [runId, modelDir, seq], so the log reads
 * back in written order. Kept as its JSON line, like records, so export gives back its bytes.
 */
export interface CallRow {
	runId: string;
	modelDir: string;
	seq: number;
	/** The line's case_number as a string, for the `by_case` index (Inspect reads one case). */
	case_key: string;
	json: string;
}

/**
 * One review line (`reviews/<run-id>/<model>/<reviewer>.jsonl`, `core/agreement`). Key:
 * [runId, modelDir, reviewer, decision]: one review per decision and reviewer, a new one
 * replaces it. Kept as its JSON line, so export gives back its bytes.
 */
export interface ReviewRow {
	runId: string;
	modelDir: string;
	/** The reviewer's name as typed. */
	reviewer: string;
	/** `decisionKey` of the decision. */
	decision: string;
	json: string;
}

/**
 * A batch-mode run's round state (`batch/state.json`, `core/batch/store.ts`). Key:
 * [runId, modelDir]; rewritten whole. Kept as its JSON text and checked when read.
 */
/** A run plan's money (`PlanSpend` as JSON), by plan id. */
export interface PlanRow {
	planId: string;
	json: string;
}

export interface BatchStateRow {
	runId: string;
	modelDir: string;
	json: string;
}

/**
 * One saved batch answer (a line of `batch/answers.jsonl`). Key: [runId, modelDir, seq], so the
 * answers read back in written order.
 */
export interface BatchAnswerRow {
	runId: string;
	modelDir: string;
	seq: number;
	/** The answer's line without its line end (`batchAnswerLine`). */
	json: string;
}
