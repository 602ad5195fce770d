/**
 * The decisions two judges made on the same saved outputs (a run and its re-judged run), as pairs
 * of labels per stage: LCA one per history, DCG one per question, LJP one per claim. A decision
 * only one run holds is counted as unpaired, never guessed.
 */
import {
	DECISION_KINDS,
	recordDecisions,
	type DecisionKind,
	type DecisionStage,
	type JudgedRecord
} from '../protocol';
import { caseKey } from '../record-names';
import type { EvalRecords } from './completeness';

/** One decision as the two judges labelled it: `[judge A, judge B]`. */
export type JudgePair = readonly [a: string, b: string];

export interface StagePairs {
	pairs: JudgePair[];
	/** Decisions held by one run only (a stage missing or partial in the other). */
	unpaired: number;
}

type Decisions = Map<string, string>;

/** Every decision of a kind in one run, keyed by case and place (history, round or claim). */
function decisions(records: EvalRecords, kind: DecisionKind): Decisions {
	const out: Decisions = new Map();
	for (const r of (records[kind.file] ?? []) as readonly JudgedRecord[]) {
		for (const { place, label } of recordDecisions(kind, r)) {
			out.set(JSON.stringify([caseKey(r.case_number), place]), label);
		}
	}
	return out;
}

/** The pairs of every stage, in run A's record order. */
export function judgePairs(a: EvalRecords, b: EvalRecords): Record<DecisionStage, StagePairs> {
	const result = {} as Record<DecisionStage, StagePairs>;
	for (const kind of DECISION_KINDS) {
		const [first, second] = [decisions(a, kind), decisions(b, kind)];
		const pairs: JudgePair[] = [];
		for (const [key, label] of first) {
			const other = second.get(key);
			if (other !== undefined) pairs.push([label, other]);
		}
		result[kind.stage] = { pairs, unpaired: first.size + second.size - 2 * pairs.length };
	}
	return result;
}
