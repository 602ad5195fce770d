/**
 * Reading review files and merging reviews by decision and reviewer (PROTOCOL.md §5, "Review
 * files"). The same review twice is kept once; two different labels or notes for one decision
 * by one reviewer are refused, naming both places, and nothing is merged.
 */
import { CheckpointError } from '../errors';
import { parseJsonl } from '../jsonl';
import { decisionKey, runKey, type RunKey } from '../names';
import { coded } from '../said';
import { ReviewLine } from './review-line';

/** A review and where it was read: a file (a path, or `this browser`) and its 1-based line. */
export interface PlacedReview {
	review: ReviewLine;
	file: string;
	line: number;
}

/** Longest review line accepted (a note of MAX_NOTE characters fits with room). */
const MAX_LINE = 20_000;

/** The one key of a review: its run, decision and reviewer. */
export function reviewKey(r: ReviewLine): string {
	const run = runKey({ runId: r.decision.run_id, modelDir: r.decision.model_dir });
	return JSON.stringify([run, decisionKey(r.decision), r.reviewer]);
}

/**
 * Every line of a review file, checked; errors name `file` and the line. With `run`, a line
 * about another run (a file copied into the wrong folder) is refused too.
 */
export function readReviewFile(text: string, file: string, run?: RunKey): PlacedReview[] {
	const lines = parseJsonl(text, ReviewLine, file, {
		maxLine: { chars: MAX_LINE, name: coded('jsonl_review_line', {}) }
	}).map((review, i) => ({ review, file, line: i + 1 }));
	if (run === undefined) return lines;
	const bad = lines.find(
		({ review: { decision: d } }) => d.run_id !== run.runId || d.model_dir !== run.modelDir
	);
	if (bad) {
		throw new CheckpointError([
			coded('review_other_run', { file, line: bad.line, run: runKey(run) })
		]);
	}
	return lines;
}

function sameReview(a: ReviewLine, b: ReviewLine): boolean {
	return a.reviewer_label === b.reviewer_label && (a.note ?? '') === (b.note ?? '');
}

/**
 * `existing` with the reviews of `incoming` it lacks, in order. Throws a CheckpointError naming
 * both places when one decision has two different reviews by the same reviewer (within either
 * list or across them).
 */
export function mergeReviews(
	existing: readonly PlacedReview[],
	incoming: readonly PlacedReview[]
): { merged: PlacedReview[]; added: number } {
	const seen = new Map<string, PlacedReview>();
	const merged: PlacedReview[] = [];
	for (const placed of [...existing, ...incoming]) {
		const key = reviewKey(placed.review);
		const first = seen.get(key);
		if (first === undefined) {
			seen.set(key, placed);
			merged.push(placed);
		} else if (!sameReview(first.review, placed.review)) {
			throw new CheckpointError([
				coded('review_conflict', {
					file: placed.file,
					line: placed.line,
					firstFile: first.file,
					firstLine: first.line,
					reviewer: placed.review.reviewer,
					caseNumber: String(placed.review.decision.case_number)
				})
			]);
		}
	}
	return { merged, added: merged.length - existing.length };
}
