import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openTestStore } from '../../../tests/support/idb';
import { allStoredFiles, useStoredRuns } from '../../../tests/support/stored-runs';
import type { ReviewLine } from '../core/agreement/review-line';
import { CheckpointError } from '../core/errors';
import { reviewerFileName, reviewFilePath } from '../core/layout';
import { importRuns } from './idb-import';
import { reviewFiles, saveReview, storedReviews } from './idb-reviews';
import { readZipBundle, zipBundle } from './zip-bundle';

const fx = useStoredRuns();

function review(caseNumber: string, label: string, reviewer: string, round = 1): ReviewLine {
	return {
		decision: {
			run_id: fx.run1.runId,
			model_dir: fx.run1.modelDir,
			stage: 'dcg',
			case_number: caseNumber,
			history_type: null,
			round,
			claim: null
		},
		judge_label: '是',
		reviewer_label: label,
		reviewer,
		at: '2026-12-05T11:00:00.000Z'
	};
}

async function exported(store: Awaited<ReturnType<typeof openTestStore>>) {
	return readZipBundle(await zipBundle(await allStoredFiles(store)), 'export.zip');
}

describe('reviews in this browser and in bundles', () => {
	it('keeps one review per decision and reviewer, the latest', async () => {
		const store = await openTestStore();
		await importRuns(store, fx.bundle.runs);
		await saveReview(store, review('1', '是', 'Ann'));
		await saveReview(store, review('1', '否', 'Ann'));
		await saveReview(store, review('1', '是', '../Bo'));
		const got = await storedReviews(store, fx.run1);
		expect(got.map((p) => [p.review.reviewer, p.review.reviewer_label])).toEqual([
			['../Bo', '是'],
			['Ann', '否']
		]);
		const files = await reviewFiles(store, fx.run1);
		expect([...files.keys()]).toContain(reviewFilePath(fx.run1, await reviewerFileName('../Bo')));
	});

	it('round-trips through an exported bundle into another browser', async () => {
		const a = await openTestStore();
		await importRuns(a, fx.bundle.runs);
		await saveReview(a, review('1', '否', 'Ann'));
		await saveReview(a, review('2', '是', 'Ann', 2));
		const bundle = await exported(a);
		expect(bundle.runs.find((r) => r.run.runId === 'run1' && r.reviews)?.reviews).toHaveLength(2);
		const b = await openTestStore();
		await importRuns(b, bundle.runs);
		expect(await allStoredFiles(b)).toEqual(await allStoredFiles(a));
		expect((await storedReviews(b, fx.run1)).map((p) => p.review)).toEqual(
			(await storedReviews(a, fx.run1)).map((p) => p.review)
		);
	});

	it('merges on a replacing import, and refuses a conflicting review by place, writing nothing', async () => {
		const a = await openTestStore();
		await importRuns(a, fx.bundle.runs);
		await saveReview(a, review('1', '否', 'Ann'));
		const bundle = await exported(a);
		const b = await openTestStore();
		await importRuns(b, fx.bundle.runs);
		await saveReview(b, review('3', '否', 'Ann'));
		await importRuns(b, bundle.runs, { replace: true });
		expect((await storedReviews(b, fx.run1)).map((p) => p.review.decision.case_number)).toEqual([
			'1',
			'3'
		]);

		await saveReview(b, review('1', '是', 'Ann'));
		const before = await allStoredFiles(b);
		const error = await importRuns(b, bundle.runs, { replace: true }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(CheckpointError);
		expect((error as Error).message).toMatch(
			/^export\.zip: reviews\/run1\/.*\.jsonl, line 1: reviewer "Ann" .*\(this browser: reviews\/run1\/.*, line 1\)/
		);
		expect(await allStoredFiles(b)).toEqual(before);
	});

	it('refuses reviews of a run the bundle lacks', async () => {
		const files = new Map(fx.files);
		const path = reviewFilePath(
			{ runId: 'run9', modelDir: fx.run1.modelDir },
			await reviewerFileName('Ann')
		);
		files.set(path, JSON.stringify(review('1', '是', 'Ann')) + '\n');
		await expect(readZipBundle(await zipBundle(files), 'x.zip')).rejects.toThrow(
			/reviews of run run9\//
		);
	});
});
