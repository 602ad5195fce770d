/**
 * The review files of the runs of a report (`reviews/<run-id>/<model>/<reviewer>.jsonl`,
 * PROTOCOL.md §5), read from any layout source (a folder, a bundle, this browser), merged and
 * turned into each run's agreement report. Runs without a review file are left out; a file
 * under `reviews/` that is not read is named by {@link reviewFilesNotRead}.
 */
import { CheckpointError } from '../errors';
import { manifestPath, parseReviewPath, REVIEWS_DIR } from '../layout';
import { runKey } from '../names';
import { Manifest } from '../records';
import { coded, type CoreText } from '../said';
import { readEvalRecords } from '../results/report';
import { describePath, type LayoutSource } from '../results/source';
import { listDecisions } from './decisions';
import type { BootstrapOptions } from './kappa';
import { readReviewFile, ReviewMerge, visitReviewStream } from './merge';
import { refuseUnheld, reviewReport, type ReviewReport } from './report';

/** One run's reviews and what they say. */
export interface RunReviews {
	run_id: string;
	model_dir: string;
	/** Review lines read (after merging duplicates). */
	n_reviews: number;
	report: ReviewReport;
}

/** The agreement reports of `runs` that have review files in `source`. */
export async function runReviews(
	source: LayoutSource,
	runs: readonly { run_id: string; model_dir: string }[],
	options: BootstrapOptions = {}
): Promise<RunReviews[]> {
	const paths = await source.list();
	const present = new Set(paths);
	const out: RunReviews[] = [];
	for (const { run_id, model_dir } of runs) {
		const run = { runId: run_id, modelDir: model_dir };
		// Every review file of the run, merged a line at a time (conflicts refused with their places).
		const merge = new ReviewMerge();
		for (const path of paths) {
			const parsed = parseReviewPath(path);
			if (parsed === null || runKey(parsed.run) !== runKey(run)) continue;
			const file = describePath(source, path);
			if (source.chunks) {
				await visitReviewStream(source.chunks(path), file, (p) => merge.add(p), run);
			} else {
				for (const p of readReviewFile(await source.read(path), file, run)) merge.add(p);
			}
		}
		const placed = merge.merged;
		if (placed.length === 0) continue;
		const mPath = manifestPath(run);
		const manifest = Manifest.safeParse(JSON.parse(await source.read(mPath)));
		if (!manifest.success) {
			throw new CheckpointError([
				coded('review_manifest_invalid', { file: describePath(source, mPath) })
			]);
		}
		const categories = manifest.data.categories ?? {};
		const decisions = listDecisions(run, await readEvalRecords(source, run, present), categories);
		refuseUnheld(decisions, placed);
		const reviews = placed.map((p) => p.review);
		out.push({
			run_id,
			model_dir,
			n_reviews: reviews.length,
			report: reviewReport(decisions, reviews, categories, options)
		});
	}
	return out;
}

/**
 * Every file under `reviews/` of `source`'s listing that no report reads, each with why: a name
 * that is not `reviews/<run-id>/<model folder>/<name>.jsonl`, or the review files of a run the
 * source does not hold.
 */
export async function reviewFilesNotRead(source: LayoutSource): Promise<CoreText[]> {
	const paths = await source.list();
	const present = new Set(paths);
	return paths.flatMap((path) => {
		if (!path.startsWith(`${REVIEWS_DIR}/`)) return [];
		const file = describePath(source, path);
		const parsed = parseReviewPath(path);
		if (parsed === null) return [coded('review_file_not_read', { file })];
		if (present.has(manifestPath(parsed.run))) return [];
		return [coded('review_file_no_run', { file, run: runKey(parsed.run) })];
	});
}
