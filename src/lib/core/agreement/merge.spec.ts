import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../../../tests/support/thrown';
import { CheckpointError } from '../errors';
import { toJsonLine } from '../jsonl';
import { mergeReviews, readReviewFile } from './merge';
import type { ReviewLine } from './review-line';

function review(
	caseNumber: number,
	reviewerLabel: string,
	reviewer = 'Ann',
	note?: string
): ReviewLine {
	return {
		decision: {
			run_id: 'r1',
			model_dir: 'm-12345678',
			stage: 'dcg',
			case_number: caseNumber,
			history_type: null,
			round: 1,
			claim: null
		},
		judge_label: '是',
		reviewer_label: reviewerLabel,
		...(note === undefined ? {} : { note }),
		reviewer,
		at: '2026-12-05T10:00:00.000Z'
	};
}

const file = (...lines: ReviewLine[]) => lines.map(toJsonLine).join('');

describe('readReviewFile', () => {
	it('reads every line with its place', () => {
		const got = readReviewFile(file(review(1, '是'), review(2, '否')), 'a.jsonl');
		expect(got.map((p) => [p.file, p.line, p.review.reviewer_label])).toEqual([
			['a.jsonl', 1, '是'],
			['a.jsonl', 2, '否']
		]);
	});

	it('refuses a label of another stage and a decision without its round, naming the line', () => {
		const bad = { ...review(2, '支持') };
		expect(() => readReviewFile(file(review(1, '是'), bad), 'a.jsonl')).toThrow(/a\.jsonl, line 2/);
		const noRound = { ...review(1, '是'), decision: { ...review(1, '是').decision, round: null } };
		expect(() => readReviewFile(file(noRound), 'b.jsonl')).toThrow(/b\.jsonl, line 1/);
	});
});

describe('mergeReviews', () => {
	it('adds what is new and keeps the same review once', () => {
		const mine = readReviewFile(file(review(1, '是'), review(2, '否')), 'this browser');
		const theirs = readReviewFile(
			file(review(2, '否'), review(3, '是'), review(3, '否', 'Bo')),
			'in.jsonl'
		);
		const { merged, added } = mergeReviews(mine, theirs);
		expect(added).toBe(2);
		expect(merged.map((p) => [p.review.decision.case_number, p.review.reviewer])).toEqual([
			[1, 'Ann'],
			[2, 'Ann'],
			[3, 'Ann'],
			[3, 'Bo']
		]);
	});

	it('refuses a conflicting duplicate, naming both places', () => {
		const mine = readReviewFile(file(review(1, '是'), review(2, '否')), 'this browser');
		const theirs = readReviewFile(
			file(review(5, '是'), review(2, '否', 'Ann', 'unsure')),
			'in.jsonl'
		);
		expect(thrownBy(() => mergeReviews(mine, theirs), CheckpointError).message).toMatch(
			/^in\.jsonl, line 2: reviewer "Ann".*case 2 \(this browser, line 2\)/
		);
	});
});

describe('readReviewFile in its folder', () => {
	it('refuses a line about another run, naming it', () => {
		const other = { ...review(2, '是'), decision: { ...review(2, '是').decision, run_id: 'r2' } };
		expect(() =>
			readReviewFile(file(review(1, '是'), other), 'reviews/r1/m-12345678/Ann-1.jsonl', {
				runId: 'r1',
				modelDir: 'm-12345678'
			})
		).toThrow(/Ann-1\.jsonl, line 2: the review is of another run/);
	});
});
