/**
 * Reviewing the judge in the browser, in English and in Chinese: a simulated run of the sample
 * made on the Run page → Inspect's review queue, 10 decisions labelled by keyboard per reviewer
 * → a reload keeps them (progress, labels) → the agreement panel and the corrected estimates
 * appear → an exported bundle imported into another browser profile keeps every review.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowser, type E2E } from './browser';
import { exportRun, go } from './page-support';
import { fillRunForm, loadSampleDataset, waitForRunStatus } from './run-support';

const RUN_ID = 'review-run';
const SIZE = 20;
let e2e: E2E;
let other: E2E | null = null;
let third: E2E | null = null;
let runUrl: string;
let zipPath: string;

beforeAll(async () => {
	e2e = await startBrowser();
});

afterAll(async () => {
	await e2e?.close();
	await other?.close();
	await third?.close();
});

/** Waits for the queue's progress line to read exactly `text`. */
async function progress(page: Page, text: string) {
	await page.getByTestId('review-progress').filter({ hasText: text }).waitFor({ timeout: 30_000 });
}

/**
 * The hidden-facts panel beside the judge's prompt shows what the decision's stage compared
 * against: LCA the history's kind, DCG the focal points and key details, LJP the claims with the
 * decision's claim marked. Returns the stage seen.
 */
async function checkFacts(page: Page, key: string): Promise<string> {
	const [stage, , history, , claim] = JSON.parse(key) as [string, string, string, number, number];
	const facts = page.getByTestId('review-facts');
	expect(await facts.getByTestId('review-facts-none').count()).toBe(0);
	if (stage === 'lca') {
		expect(await facts.getByTestId('review-facts-history').count()).toBe(1);
		expect(await facts.getByTestId('key-details-withheld').count()).toBe(
			history === 'underspecified' ? 1 : 0
		);
	} else if (stage === 'dcg') {
		expect(await facts.getByTestId('review-facts-focal').innerText()).not.toBe('');
		expect(await facts.getByTestId('review-facts-key-details').innerText()).not.toBe('');
	} else {
		const marked = facts.getByTestId('review-facts-claim');
		expect(await marked.count()).toBe(1);
		expect(await marked.locator('td').first().innerText()).toBe(String(claim + 1));
	}
	return stage.slice(0, 3);
}

/** Labels `count` decisions by keyboard (keys 1 and 2 in turn), each saved before the next. */
async function reviewByKeyboard(
	page: Page,
	count: number,
	progressText: (n: number) => string
): Promise<Set<string>> {
	const stages = new Set<string>();
	for (let i = 1; i <= count; i++) {
		const shown = await page.getByTestId('review-decision').getAttribute('data-decision');
		stages.add(await checkFacts(page, shown ?? ''));
		await page.keyboard.press(i % 2 ? '1' : '2');
		await progress(page, progressText(i));
		// The queue moves on after saving: wait for the next decision before the next key.
		if (i < count) {
			await page.waitForFunction(
				(before) =>
					document
						.querySelector('[data-testid="review-decision"]')
						?.getAttribute('data-decision') !== before,
				shown,
				{ polling: 50 }
			);
		}
	}
	return stages;
}

async function startQueue(page: Page, reviewer: string, start: string) {
	await page.getByTestId('reviewer').fill(reviewer);
	await page.getByTestId('review-section').getByRole('spinbutton').first().fill(String(SIZE));
	await page.getByRole('button', { name: start }).click();
	await page.getByTestId('review-decision').waitFor();
	// Keys go to the page, not to a field.
	await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

describe('reviewing the judge of a browser-made run', () => {
	it('makes a simulated run of the sample on the Run page', async () => {
		const { page } = e2e;
		await loadSampleDataset(page, e2e.url);
		await page.getByRole('link', { name: 'Models', exact: true }).click();
		await page.getByTestId('mode-simulated').check();
		await fillRunForm(page, { runId: RUN_ID, limit: 4 });
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'done', 120_000);
		await go(page, 'Inspect', 'Inspect');
		await page.getByTestId('review-section').waitFor();
		runUrl = page.url();
		e2e.assertClean();
	});

	it('en: reviews 10 decisions by keyboard, showing what the judge saw', async () => {
		const { page } = e2e;
		await startQueue(page, 'Ann', 'Start reviewing');
		await progress(page, `0 of ${SIZE} reviewed`);
		expect(await page.getByTestId('review-prompt').innerText()).not.toBe('');
		expect(await page.getByTestId('review-answer').innerText()).not.toBe('');
		const stages = await reviewByKeyboard(page, 10, (n) => `${n} of ${SIZE} reviewed`);
		// The seeded sample reaches every stage within its first 10 decisions.
		expect([...stages].sort()).toEqual(['dcg', 'lca', 'ljp']);
		await page.getByTestId('agreement-panel').waitFor();
		await e2e.screenshot('review-en-1366', page.getByTestId('review-section'));
		e2e.assertClean();
	});

	it('en: a reload keeps the reviews; the agreement panel and corrected estimates show', async () => {
		const { page } = e2e;
		await page.reload();
		await progress(page, `10 of ${SIZE} reviewed`);
		const panel = page.getByTestId('agreement-panel');
		await panel.waitFor();
		expect(await panel.getByRole('heading', { name: 'judge × Ann' }).count()).toBe(1);
		expect(await panel.getByTestId('agreement-row').count()).toBeGreaterThan(0);
		expect(await panel.getByTestId('corrected-row').count()).toBeGreaterThan(0);
		await e2e.screenshot('review-agreement-en-1366', panel);
		await page.setViewportSize({ width: 390, height: 844 });
		await e2e.screenshot('review-en-390', page.getByTestId('review-section'));
		await e2e.screenshot('review-agreement-en-390', panel);
		await page.setViewportSize({ width: 1366, height: 900 });
		// Back to a reviewed decision: its saved label is shown.
		await page.keyboard.press('b');
		await page.getByTestId('your-label').filter({ hasNotText: 'not reviewed yet' }).waitFor();
		e2e.assertClean();
	});

	it('zh-CN: a second reviewer reviews 10 decisions by keyboard; both reviewers agree or not', async () => {
		const { page } = e2e;
		await page.getByTestId('language').selectOption('zh-CN');
		await page.getByRole('heading', { name: '复核评审模型' }).waitFor();
		await page.getByRole('button', { name: '关闭队列' }).click();
		await startQueue(page, '张三', '开始复核');
		await reviewByKeyboard(page, 10, (n) => `已复核 ${n} / ${SIZE}`);
		await page.reload();
		await progress(page, `已复核 10 / ${SIZE}`);
		const panel = page.getByTestId('agreement-panel');
		await panel.getByRole('heading', { name: '一致性' }).waitFor();
		await panel.getByRole('heading', { name: 'Ann × 张三' }).waitFor();
		expect(await panel.getByRole('heading', { name: '按复核样本校正' }).count()).toBe(2);
		await e2e.screenshot('review-zh-1366', page.getByTestId('review-section'));
		await e2e.screenshot('review-agreement-zh-1366', panel);
		await page.getByTestId('language').selectOption('en');
		await page.getByRole('heading', { name: 'Review the judge' }).waitFor();
		e2e.assertClean();
	});

	it('Results shows the corrected estimate beside each judged LCA, DCG and LJP metric', async () => {
		const { page } = e2e;
		await go(page, 'Results', 'Results');
		const panel = page.getByTestId('corrected-panel');
		await panel.first().waitFor({ timeout: 30_000 });
		const rows = panel.getByTestId('corrected-row');
		await rows.first().waitFor();
		// One table per reviewer, six LCA and DCG metrics and LJP's QWK and accuracy of each of the
		// three setups: the judged value and the corrected one.
		expect(await rows.count()).toBe(24);
		const cells = async (i: number) =>
			(await rows.nth(i).locator('td').allInnerTexts()).map((t) => t.trim());
		const corrected = /^(-?\d\.\d{3}( \[.*\])?|too small to say|judge at chance)$/;
		const first = await cells(0);
		expect(first[0]).toBe('LCA Macro-F1');
		expect(first[1]).toMatch(/^\d\.\d{3}$/);
		expect(first[2]).toMatch(corrected);
		const qwk = await cells(6);
		expect(qwk[0]).toBe('LJP Direct QWK');
		expect(qwk[1]).toMatch(/^(-?\d\.\d{3}|—)$/);
		expect(qwk[2]).toMatch(corrected);
		// Beside κ, the judge against each reviewer: its sensitivity and specificity with Wilson
		// intervals (LCA, DCG), and what the corrections assume (issue 33, item 11).
		const shares = await panel.first().getByTestId('sensitivity').allInnerTexts();
		expect(shares.length).toBeGreaterThan(0);
		for (const s of [
			...shares,
			...(await panel.first().getByTestId('specificity').allInnerTexts())
		])
			if (s.trim()) expect(s.trim()).toMatch(/^(\d\.\d{3}|—) (\[\d\.\d{3}, \d\.\d{3}\]|—) of \d+$/);
		expect(shares.some((s) => /^\d\.\d{3} \[/.test(s.trim()))).toBe(true);
		expect(await panel.first().getByTestId('corrected-assumptions').first().innerText()).toContain(
			"LCA's judge errs alike on complete and underspecified histories"
		);
		await e2e.screenshot('review-results-en-1366', panel.first());
		e2e.assertClean();
	});

	it('an exported bundle keeps every review when imported into another browser', async () => {
		const { page } = e2e;
		const dir = await mkdtemp(join(tmpdir(), 'lexpilot-e2e-review-'));
		zipPath = await exportRun(page, new RegExp(`^Select ${RUN_ID}`), dir);

		other = await startBrowser();
		const p2 = other.page;
		await p2.goto(`${other.url}/`);
		await go(p2, 'Bundles', 'Bundles');
		await p2.locator('#bundle-file').setInputFiles(zipPath);
		await p2.getByTestId('bundle-outcome').filter({ hasText: 'Imported' }).waitFor();
		await p2.goto(runUrl.replace(e2e.url, other.url));
		const panel = p2.getByTestId('agreement-panel');
		await panel.getByRole('heading', { name: 'judge × Ann' }).waitFor();
		await panel.getByRole('heading', { name: 'judge × 张三' }).waitFor();
		await panel.getByRole('heading', { name: 'Ann × 张三' }).waitFor();
		const n = (
			await panel.getByTestId('agreement-row').first().locator('td').nth(1).innerText()
		).trim();
		expect(Number(n)).toBeGreaterThan(0);
		other.assertClean();
		e2e.assertClean();
	});

	it('reviews whose judge label is not the run’s are left out and counted, in both languages', async () => {
		// Ann's file states another judge label for each of her decisions than the run holds (a
		// sample copied from another judging of the same answers): none of them may count.
		const files = unzipSync(await readFile(zipPath));
		const swap: Record<string, string> = {
			clarification: 'judgment',
			judgment: 'clarification',
			是: '否',
			否: '是',
			支持: '驳回',
			部分支持: '驳回',
			驳回: '支持'
		};
		let changed = 0;
		for (const [path, bytes] of Object.entries(files)) {
			if (!/reviews\/.*\/Ann-[0-9a-f]{8}\.jsonl$/.test(path)) continue;
			const lines = strFromU8(bytes).trim().split('\n');
			files[path] = strToU8(
				lines
					.map((l) => {
						const r = JSON.parse(l);
						changed++;
						return `${JSON.stringify({ ...r, judge_label: swap[r.judge_label] })}\n`;
					})
					.join('')
			);
		}
		expect(changed).toBe(10);
		const copied = join(await mkdtemp(join(tmpdir(), 'lexpilot-e2e-review-')), 'copied.zip');
		await writeFile(copied, zipSync(files));

		third = await startBrowser();
		const p3 = third.page;
		await p3.goto(`${third.url}/`);
		await go(p3, 'Bundles', 'Bundles');
		await p3.locator('#bundle-file').setInputFiles(copied);
		await p3.getByTestId('bundle-outcome').filter({ hasText: 'Imported' }).waitFor();
		await p3.goto(runUrl.replace(e2e.url, third.url));
		const panel = p3.getByTestId('agreement-panel');
		await panel.getByRole('heading', { name: 'judge × 张三' }).waitFor();
		const notice = panel.getByTestId('review-mismatched');
		await notice
			.filter({ hasText: "10 of Ann's reviews are left out: the judge label they state" })
			.waitFor();
		expect(await panel.getByRole('heading', { name: 'judge × Ann' }).count()).toBe(1);
		await p3.getByTestId('language').selectOption('zh-CN');
		await notice.filter({ hasText: 'Ann 的 10 条复核未计入' }).waitFor();
		await go(p3, '结果', '结果');
		const results = p3.getByTestId('corrected-panel');
		await results
			.getByTestId('review-mismatched')
			.filter({ hasText: 'Ann 的 10 条复核未计入' })
			.waitFor();
		await p3.getByTestId('language').selectOption('en');
		await results
			.getByTestId('review-mismatched')
			.filter({ hasText: "10 of Ann's reviews are left out" })
			.waitFor();
		third.assertClean();
	});
});
