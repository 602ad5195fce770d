/**
 * Reading review files and merging reviews by decision and reviewer (PROTOCOL.md §5, "Review
 * files"). The same review twice is kept once; two different labels or notes for one decision
 * by one reviewer are refused, naming both places, and nothing is merged.
 */
import { CheckpointError } from '../errors';
import { parseJsonl, visitJsonl } from '../jsonl';
import { decisionKey, runKey, type RunKey } from '../names';
import { formatCount } from '../report/format';
import { coded } from '../said';
import { decodeUtf8, formatBytes, TextDecodeError } from '../text';
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
 * Longest review file read, in bytes: far beyond the reviews of a whole run with every note at
 * its longest, and far below what a JavaScript string can hold.
 */
export const MAX_REVIEW_FILE_BYTES = 256 * 1024 * 1024;

const REVIEW_LINES = { chars: MAX_LINE, name: coded('jsonl_review_line', {}) };

function checkRun(placed: PlacedReview, run: RunKey | undefined): PlacedReview {
	const d = placed.review.decision;
	if (run !== undefined && (d.run_id !== run.runId || d.model_dir !== run.modelDir)) {
		throw new CheckpointError([
			coded('review_other_run', { file: placed.file, line: placed.line, run: runKey(run) })
		]);
	}
	return placed;
}

/**
 * Every line of a review file, checked; errors name `file` and the line. With `run`, a line
 * about another run (a file copied into the wrong folder) is refused too.
 */
export function readReviewFile(text: string, file: string, run?: RunKey): PlacedReview[] {
	const lines = parseJsonl(text, ReviewLine, file, { maxLine: REVIEW_LINES }).map((review, i) => ({
		review,
		file,
		line: i + 1
	}));
	for (const placed of lines) checkRun(placed, run);
	return lines;
}

/**
 * A review file read from its bytes a line at a time, each line checked as by
 * {@link readReviewFile} and handed to `visit` as soon as it is read, so no more of the file is
 * held than one line: a line longer than a review line may be is refused as soon as it is (its
 * length counted, not kept), and a file longer than MAX_REVIEW_FILE_BYTES as soon as it is; each
 * error names `file`.
 */
export async function visitReviewStream(
	chunks: AsyncIterable<Uint8Array>,
	file: string,
	visit: (placed: PlacedReview) => void,
	run?: RunKey
): Promise<void> {
	// A line's bytes beyond this hold more than MAX_LINE characters whatever they are (a UTF-8
	// byte sequence of n bytes is at least one UTF-16 unit per 3 bytes, the `\r` included).
	const maxBytes = 3 * (MAX_LINE + 1);
	let line = 1;
	let parts: Uint8Array[] = [];
	let held = 0;
	let total = 0;
	// Past maxBytes: the line is only counted (UTF-16 units, as `chars` of the message).
	let counting: TextDecoder | null = null;
	let counted = 0;
	const text = (bytes: Uint8Array) => {
		try {
			return decodeUtf8(bytes);
		} catch (e) {
			if (!(e instanceof TextDecodeError)) throw e;
			const params = 'line' in e.said.params ? { ...e.said.params, line } : e.said.params;
			const detail = { ...e.said, params } as typeof e.said;
			throw new CheckpointError([coded('layout_not_utf8', { file }, { detail: [detail] })]);
		}
	};
	const endLine = (withNewline: boolean) => {
		if (counting !== null) {
			counted += counting.decode().length;
			const [chars, max] = [counted, MAX_LINE].map(formatCount);
			throw new CheckpointError([
				coded('jsonl_line_too_long', { file, line, chars, max }, { name: [REVIEW_LINES.name] })
			]);
		}
		const bytes = new Uint8Array(held);
		let at = 0;
		for (const p of parts) {
			bytes.set(p, at);
			at += p.length;
		}
		parts = [];
		held = 0;
		const body = text(bytes) + (withNewline ? '\n' : '');
		visitJsonl(body, ReviewLine, file, (review) => visit(checkRun({ review, file, line }, run)), {
			maxLine: REVIEW_LINES,
			firstLine: line
		});
		line++;
	};
	const add = (piece: Uint8Array) => {
		if (piece.length === 0) return;
		if (counting === null && held + piece.length > maxBytes) {
			counting = new TextDecoder('utf-8');
			for (const p of parts) counted += counting.decode(p, { stream: true }).length;
			parts = [];
			held = 0;
		}
		if (counting !== null) counted += counting.decode(piece, { stream: true }).length;
		else {
			parts.push(piece);
			held += piece.length;
		}
	};
	for await (const chunk of chunks) {
		total += chunk.length;
		if (total > MAX_REVIEW_FILE_BYTES) {
			throw new CheckpointError([
				coded('review_file_too_large', { file, max: formatBytes(MAX_REVIEW_FILE_BYTES) })
			]);
		}
		let start = 0;
		for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
			// A copy: the stream may reuse its buffer for the next chunk.
			add(chunk.slice(start, nl));
			endLine(true);
			start = nl + 1;
		}
		add(chunk.slice(start));
	}
	if (held > 0 || counting !== null) endLine(false);
}

function sameReview(a: ReviewLine, b: ReviewLine): boolean {
	return a.reviewer_label === b.reviewer_label && (a.note ?? '') === (b.note ?? '');
}

/**
 * Reviews merged one at a time, by run, decision and reviewer: the same review twice is kept
 * once; two different reviews of one decision by one reviewer throw a CheckpointError naming both
 * places.
 */
export class ReviewMerge {
	readonly #seen = new Map<string, PlacedReview>();
	readonly merged: PlacedReview[] = [];

	add(placed: PlacedReview): void {
		const key = reviewKey(placed.review);
		const first = this.#seen.get(key);
		if (first === undefined) {
			this.#seen.set(key, placed);
			this.merged.push(placed);
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
	const merge = new ReviewMerge();
	for (const placed of [...existing, ...incoming]) merge.add(placed);
	return { merged: merge.merged, added: merge.merged.length - existing.length };
}
