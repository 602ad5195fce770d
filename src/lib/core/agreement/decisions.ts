/**
 * The judge decisions of a run (their kinds: `../protocol/decisions.ts`), each with a stable
 * identity: an LCA label per response, a DCG 是/否 per forced question (round), an LJP verdict
 * per claim as the judge extracted it from the prediction. No zod here, so a page can list
 * decisions without loading the schemas.
 */
import type { CategoryMap } from '../dataset/types';
import { classOf } from '../dataset/categories';
import { decisionKey, type RunKey } from '../names';
import {
	DECISION_KINDS,
	recordDecisions,
	type DecisionStage,
	type JudgedRecord
} from '../protocol';
import type { EvalRecords } from '../results/completeness';

/** One decision's identity (the `decision` of a review line). */
export interface DecisionId {
	run_id: string;
	model_dir: string;
	stage: DecisionStage;
	case_number: string | number;
	/** LCA: the history judged; otherwise null. */
	history_type: 'complete' | 'underspecified' | null;
	/** DCG: the forced question's round (1 or 2); otherwise null. */
	round: number | null;
	/** LJP: the claim's 0-based place in the record; otherwise null. */
	claim: number | null;
}

/** A decision with what the sample and the metrics need. */
export interface Decision {
	id: DecisionId;
	/** `decisionKey` of the id (unique within its run). */
	key: string;
	/** The judge's parsed label. */
	label: string;
	/** The case's cause class from the run's map. */
	cls: string;
	/** LJP: the claim's gold verdict (for the corrected QWK; never shown to the judge). */
	gold?: string;
}

/** Every judge decision of a run, in file and record order. */
export function listDecisions(
	run: RunKey,
	records: EvalRecords,
	categories: CategoryMap
): Decision[] {
	const out: Decision[] = [];
	const base = {
		run_id: run.runId,
		model_dir: run.modelDir,
		history_type: null,
		round: null,
		claim: null
	};
	const add = (id: DecisionId, label: string, cause: string, gold?: string) =>
		out.push({
			id,
			key: decisionKey(id),
			label,
			cls: classOf(cause, categories),
			...(gold === undefined ? {} : { gold })
		});
	for (const kind of DECISION_KINDS) {
		for (const r of (records[kind.file] ?? []) as readonly JudgedRecord[]) {
			for (const { place, label, gold } of recordDecisions(kind, r)) {
				const id = { ...base, stage: kind.stage, case_number: r.case_number, ...place };
				add(id, label, r.cause_of_action, gold);
			}
		}
	}
	return out;
}
