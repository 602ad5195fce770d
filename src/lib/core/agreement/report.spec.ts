import { describe, expect, it } from 'vitest';
import { makeLca } from '../../../../tests/support/record-factories';
import { listDecisions } from './decisions';
import { refuseUnheld, reviewReport } from './report';
import type { ReviewLine } from './review-line';

const RUN = { runId: 'r1', modelDir: 'm-12345678' };
const CATEGORIES = { 民间借贷纠纷: '合同', 离婚纠纷: '婚姻' };

const lca = [1, 2, 3, 4].map((c) =>
	makeLca(c, 'underspecified', {
		cause_of_action: c <= 2 ? '民间借贷纠纷' : '离婚纠纷',
		label: 'clarification'
	})
);
const decisions = listDecisions(RUN, { LCA_results: lca }, CATEGORIES);

function review(d: (typeof decisions)[number], label: string, reviewer: string): ReviewLine {
	return {
		decision: d.id,
		judge_label: d.label,
		reviewer_label: label,
		reviewer,
		at: '2026-12-05T10:00:00Z'
	};
}

describe('reviewReport', () => {
	const reviews = [
		review(decisions[0], 'clarification', 'Ann'),
		review(decisions[1], 'judgment', 'Ann'),
		review(decisions[2], 'clarification', 'Ann'),
		review(decisions[0], 'clarification', 'Bo'),
		review(decisions[1], 'clarification', 'Bo')
	];
	const report = reviewReport(decisions, reviews, CATEGORIES);

	it('compares the judge with each reviewer per stage and class, listing disagreements', () => {
		expect(report.reviewers).toEqual(['Ann', 'Bo']);
		const ann = report.judge[0];
		expect(ann).toMatchObject({ first: 'judge', second: 'Ann' });
		const [lcaStage] = ann.stages;
		expect(lcaStage.stage).toBe('lca');
		expect(lcaStage.overall).toMatchObject({
			n: 3,
			agreed: 2,
			confusion: [
				[2, 1],
				[0, 0]
			],
			kappa: 0
		});
		expect(lcaStage.overall.disagreements).toEqual([
			{ decision: decisions[1].id, first: 'clarification', second: 'judgment' }
		]);
		expect(Object.keys(lcaStage.by_class)).toEqual(['合同', '婚姻']);
		expect(lcaStage.by_class['合同'].n).toBe(2);
	});

	it('compares two reviewers on the decisions both reviewed', () => {
		expect(report.between).toHaveLength(1);
		expect(report.between[0]).toMatchObject({ first: 'Ann', second: 'Bo' });
		expect(report.between[0].stages[0].overall).toMatchObject({ n: 2, agreed: 1 });
	});

	it('says too small to say for the corrected metrics of a tiny sample', () => {
		expect(report.corrected[0].overall.lca!.acc_u.status).toBe('too_small');
	});
});

describe('what the judge said is the run’s record, not the review file’s', () => {
	// A reviewer who disagrees with the run's judge on every decision, in a file whose
	// judge_label was written equal to the reviewer's label (an edited file, or a sample copied
	// from another judging of the same answers).
	const copied = decisions.map((d) => ({
		...review(d, 'judgment', 'Ann'),
		judge_label: 'judgment'
	}));

	it('never reports the stated label as the judge’s: those reviews are left out and counted', () => {
		const got = reviewReport(decisions, copied, CATEGORIES);
		expect(got.mismatched).toEqual([{ reviewer: 'Ann', reviews: 4 }]);
		expect(got.judge[0].stages).toEqual([]);
		expect(got.corrected[0].overall.lca!.acc_u.n_reviewed).toBe(0);
	});

	it('compares the run’s label with the reviewer’s when the file states it rightly', () => {
		const honest = decisions.map((d) => review(d, 'judgment', 'Ann'));
		const got = reviewReport(decisions, [...honest.slice(0, 3), copied[3]], CATEGORIES);
		expect(got.mismatched).toEqual([{ reviewer: 'Ann', reviews: 1 }]);
		expect(got.judge[0].stages[0].overall).toMatchObject({ n: 3, agreed: 0 });
	});

	it('refuses a review of a decision the run does not hold, naming file, line and case', () => {
		const other = listDecisions(
			RUN,
			{ LCA_results: [makeLca(9, 'complete', { cause_of_action: '离婚纠纷' })] },
			CATEGORIES
		)[0];
		const placed = [
			{ review: review(decisions[0], 'judgment', 'Ann'), file: 'reviews/a.jsonl', line: 1 },
			{ review: review(other, 'judgment', 'Ann'), file: 'reviews/a.jsonl', line: 2 }
		];
		expect(() => refuseUnheld(decisions, placed.slice(0, 1))).not.toThrow();
		expect(() => refuseUnheld(decisions, placed)).toThrow(
			`reviews/a.jsonl, line 2: reviewer "Ann" reviewed a decision of case ${other.id.case_number} (stage lca, history_type complete) that this run does not hold`
		);
	});
});

describe('the judge against a reviewer: Se, Sp, AC1, per label (issue 33, item 11)', () => {
	it("gives the judge's error rates for the judge only, never between two reviewers", () => {
		const reviews = [
			review(decisions[0], 'clarification', 'Ann'),
			review(decisions[1], 'judgment', 'Ann'),
			review(decisions[0], 'clarification', 'Bo'),
			review(decisions[1], 'clarification', 'Bo')
		];
		const report = reviewReport(decisions, reviews, CATEGORIES);
		const judged = report.judge[0].stages[0].overall;
		expect(judged.judge_error).toMatchObject({
			positive: 'clarification',
			sensitivity: { value: 1, n: 1 },
			specificity: { value: 0, n: 1 }
		});
		expect(judged.judge_error!.sensitivity.ci95).not.toBeNull();
		expect(judged.per_label).toEqual([2 / 3, 0]);
		expect(judged.ac1).not.toBeNull();
		expect(report.between[0].stages[0].overall).not.toHaveProperty('judge_error');
	});
});
