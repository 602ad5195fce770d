/**
 * The judge decisions of a run, each with a stable identity: an LCA label per response, a DCG
 * 是/否 per forced question (round), an LJP verdict per claim as the judge extracted it from the
 * prediction. No zod here, so a page can list decisions without loading the schemas.
 */
import { VERDICTS } from '../dataset/names';
import type { CategoryMap } from '../dataset/types';
import { classOf } from '../metrics/by-class';
import { decisionKey, type RunKey } from '../names';
import type { DcgResultRecord, LcaResultRecord, LjpResultRecord } from '../records';

/** The judged stages as the call log names them. */
export const DECISION_STAGES = ['lca', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction'] as const;
export type DecisionStage = (typeof DECISION_STAGES)[number];

/** Stages pooled for agreement: one judge prompt each (the three LJP setups share theirs). */
export type StageGroup = 'lca' | 'dcg' | 'ljp';
export const STAGE_GROUPS: readonly StageGroup[] = ['lca', 'dcg', 'ljp'];

/** The labels a judge (and a reviewer) may give, in matrix order; the first is "positive". */
export const STAGE_LABELS: Record<StageGroup, readonly string[]> = {
	lca: ['clarification', 'judgment'],
	dcg: ['是', '否'],
	ljp: VERDICTS
};

export function stageGroup(stage: DecisionStage): StageGroup {
	return stage === 'lca' ? 'lca' : stage === 'dcg' ? 'dcg' : 'ljp';
}

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

/** Judge records of one run, any of them absent. */
export interface JudgedRecords {
	LCA_results?: readonly LcaResultRecord[];
	DCG_results?: readonly DcgResultRecord[];
	LJP_direct?: readonly LjpResultRecord[];
	LJP_gold?: readonly LjpResultRecord[];
	LJP_interaction?: readonly LjpResultRecord[];
}

const LJP_FILES = [
	['ljp-direct', 'LJP_direct'],
	['ljp-gold', 'LJP_gold'],
	['ljp-interaction', 'LJP_interaction']
] as const;

/** Every judge decision of a run, in file and record order. */
export function listDecisions(
	run: RunKey,
	records: JudgedRecords,
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
	for (const r of records.LCA_results ?? []) {
		add(
			{ ...base, stage: 'lca', case_number: r.case_number, history_type: r.history_type },
			r.label,
			r.cause_of_action
		);
	}
	for (const r of records.DCG_results ?? []) {
		r.round_labels.forEach((label, i) =>
			add(
				{ ...base, stage: 'dcg', case_number: r.case_number, round: i + 1 },
				label,
				r.cause_of_action
			)
		);
	}
	for (const [stage, file] of LJP_FILES) {
		for (const r of records[file] ?? []) {
			r.predicted.forEach((label, claim) =>
				add(
					{ ...base, stage, case_number: r.case_number, claim },
					label,
					r.cause_of_action,
					r.gold[claim]
				)
			);
		}
	}
	return out;
}
