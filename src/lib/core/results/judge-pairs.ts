/**
 * The decisions two judges made on the same saved outputs (a run and its re-judged run), as pairs
 * of labels per stage: LCA one per history, DCG one per question, LJP one per claim. A decision
 * only one run holds is counted as unpaired, never guessed.
 */
import { VERDICTS } from '../dataset/names';
import { caseKey } from '../record-names';
import type { EvalRecords } from './completeness';

export const JUDGE_STAGES = ['lca', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction'] as const;
export type JudgeStage = (typeof JUDGE_STAGES)[number];

/** Each stage's label set, in the order of its confusion matrix. */
export const JUDGE_LABELS: Record<JudgeStage, readonly string[]> = {
	lca: ['clarification', 'judgment'],
	dcg: ['是', '否'],
	'ljp-direct': VERDICTS,
	'ljp-gold': VERDICTS,
	'ljp-interaction': VERDICTS
};

/** One decision as the two judges labelled it: `[judge A, judge B]`. */
export type JudgePair = readonly [a: string, b: string];

export interface StagePairs {
	pairs: JudgePair[];
	/** Decisions held by one run only (a stage missing or partial in the other). */
	unpaired: number;
}

type Decisions = Map<string, string>;

const LJP_FILES = {
	'ljp-direct': 'LJP_direct',
	'ljp-gold': 'LJP_gold',
	'ljp-interaction': 'LJP_interaction'
} as const;

/** Every decision of a stage in one run, keyed by case and place (history, round or claim). */
function decisions(records: EvalRecords, stage: JudgeStage): Decisions {
	const out: Decisions = new Map();
	if (stage === 'lca') {
		for (const r of records.LCA_results ?? []) {
			out.set(JSON.stringify([caseKey(r.case_number), r.history_type]), r.label);
		}
	} else if (stage === 'dcg') {
		for (const r of records.DCG_results ?? []) {
			r.round_labels.forEach((l, i) => out.set(JSON.stringify([caseKey(r.case_number), i]), l));
		}
	} else {
		for (const r of records[LJP_FILES[stage]] ?? []) {
			r.predicted.forEach((v, j) => out.set(JSON.stringify([caseKey(r.case_number), j]), v));
		}
	}
	return out;
}

/** The pairs of every stage, in run A's record order. */
export function judgePairs(a: EvalRecords, b: EvalRecords): Record<JudgeStage, StagePairs> {
	const result = {} as Record<JudgeStage, StagePairs>;
	for (const stage of JUDGE_STAGES) {
		const [first, second] = [decisions(a, stage), decisions(b, stage)];
		const pairs: JudgePair[] = [];
		for (const [key, label] of first) {
			const other = second.get(key);
			if (other !== undefined) pairs.push([label, other]);
		}
		result[stage] = { pairs, unpaired: first.size + second.size - 2 * pairs.length };
	}
	return result;
}
