/**
 * Reviews of judge decisions in IndexedDB (`reviews` store of idb-store.ts), seen as the review
 * files of the canonical layout (PROTOCOL.md §5, "Review files") for export, Results and import.
 */
import { mergeReviews, readReviewFile, type PlacedReview } from '../core/agreement/merge';
import type { ReviewLine } from '../core/agreement/review-line';
import { reviewerFileName, reviewFilePath, type RunKey } from '../core/layout';
import { decisionKey } from '../core/names';
import type { ReviewRow } from './idb-rows';
import type { IdbStore } from './idb-store';

/** How messages name the reviews kept in this browser. */
export const STORED_REVIEWS = 'this browser';

function rowOf(review: ReviewLine): ReviewRow {
	return {
		runId: review.decision.run_id,
		modelDir: review.decision.model_dir,
		reviewer: review.reviewer,
		decision: decisionKey(review.decision),
		json: JSON.stringify(review)
	};
}

/** Saves a review, replacing the same reviewer's earlier review of the decision. */
export async function saveReview(store: IdbStore, review: ReviewLine): Promise<void> {
	await store.putReview(rowOf(review));
}

/** The run's review files, path → text (one file per reviewer, lines in decision order). */
export async function reviewFiles(store: IdbStore, run: RunKey): Promise<Map<string, string>> {
	const byReviewer = new Map<string, string[]>();
	for (const row of await store.reviewRows(run)) {
		const lines = byReviewer.get(row.reviewer) ?? [];
		lines.push(`${row.json}\n`);
		byReviewer.set(row.reviewer, lines);
	}
	const files = new Map<string, string>();
	for (const [reviewer, lines] of byReviewer) {
		files.set(reviewFilePath(run, await reviewerFileName(reviewer)), lines.join(''));
	}
	return files;
}

/** The run's reviews kept here, checked (a damaged row is named by its reviewer file and line). */
export async function storedReviews(store: IdbStore, run: RunKey): Promise<PlacedReview[]> {
	const out: PlacedReview[] = [];
	for (const [path, text] of await reviewFiles(store, run)) {
		out.push(...readReviewFile(text, `${STORED_REVIEWS}: ${path}`, run));
	}
	return out;
}

/**
 * The rows to write for a bundle's reviews of `run`: refused (a CheckpointError naming both
 * places) when one conflicts with a review kept here; the same review twice is written once.
 */
export async function reviewRowsToImport(
	store: IdbStore,
	run: RunKey,
	incoming: readonly PlacedReview[]
): Promise<ReviewRow[]> {
	const { merged } = mergeReviews(await storedReviews(store, run), incoming);
	return merged.map((p) => rowOf(p.review));
}
