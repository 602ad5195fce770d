/**
 * Re-judging on the Run page, and judge–judge agreement on Results with the review section's
 * reach on Inspect (issue 33, items 12 and 13): a simulated run made in the browser is re-judged
 * by a judge that disagrees (the fake OpenAI server, `contrary-judge-script.ts`) into a new run
 * whose manifest names its source, with one judge call per judged decision. Results then shows
 * the two judges' agreement per stage with labelled confusion matrices, κ "too small to say"
 * under 10 decisions, and names what keeps the two runs apart in words, not manifest paths, in
 * English and Chinese. On Inspect, the review section is one click from the top of a case, Start
 * says why it waits, and κ over one review reads "too small to say". Screenshots at 1366 and
 * 390 px.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contraryJudgeScript } from '../engine/contrary-judge-script';
import { byTask } from '../fake-openai/by-task';
import { startFakeOpenAI, type FakeOpenAI } from '../fake-openai/server';
import { startBrowser, type E2E } from './browser';
import { go } from './page-support';
import {
	fillRunForm,
	loadSampleDataset,
	savedManifest,
	storedRows,
	waitForRunStatus
} from './run-support';

const SOURCE = 'jj-src';
const REJUDGED = 'jj-src-j2';
/** κ as a number to three places, or undefined. */
const KAPPA = /^(-?\d\.\d{3}|—)$/;

let e: E2E;
let server: FakeOpenAI;

beforeAll(async () => {
	e = await startBrowser();
	server = await startFakeOpenAI({ handler: byTask(contraryJudgeScript) });
});
afterAll(async () => {
	await e?.close();
	await server?.close();
});

/** The cells of each agreement row: `[stage, n, rate, κ, interval]` (the matrix left out). */
async function agreementRows(panel: Locator): Promise<string[][]> {
	const rows = panel.getByTestId('agreement-row');
	const out: string[][] = [];
	for (let i = 0; i < (await rows.count()); i++) {
		const row = rows.nth(i);
		const cells = await row.locator(':scope > th, :scope > td').allInnerTexts();
		out.push(cells.slice(0, 5).map((t) => t.trim()));
	}
	return out;
}

/** The part of `box` right of the viewport's edge (px); 0 when it is all in view. */
async function overflowRight(page: Page, box: Locator): Promise<number> {
	const b = await box.boundingBox();
	const width = page.viewportSize()!.width;
	return b ? Math.max(0, b.x + b.width - width) : Infinity;
}

describe('judge–judge agreement on Results; review from the top of a case', () => {
	it('makes a simulated run and re-judges it with a contrary judge', async () => {
		const { page } = e;
		await loadSampleDataset(page, e.url);
		await page.getByRole('link', { name: 'Models', exact: true }).click();
		await page.getByTestId('mode-simulated').check();
		await fillRunForm(page, { runId: SOURCE, limit: 4 });
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'done', 120_000);
		await page.waitForFunction(
			(id) =>
				[...document.querySelectorAll('[data-testid="rejudge-source"] option')].some((o) =>
					o.textContent?.trim().startsWith(`${id} ·`)
				),
			SOURCE,
			{ timeout: 30_000, polling: 100 }
		);
		const select = page.getByTestId('rejudge-source');
		const labels = await select.locator('option').allInnerTexts();
		await select.selectOption({
			index: labels.findIndex((l) => l.trim().startsWith(`${SOURCE} ·`))
		});
		await page.getByTestId('rejudge-model').fill('judge-2');
		await page.getByTestId('rejudge-endpoint').fill(server.baseURL);
		await expect.poll(() => page.getByTestId('rejudge-problems').count()).toBe(0);
		await page.getByTestId('rejudge-start').click();
		await page
			.getByTestId('rejudge-status')
			.filter({ hasText: `Re-judged into run ${REJUDGED}.` })
			.waitFor({ timeout: 90_000 });
		const error = await page.locator('[data-testid="rejudge"] [data-testid="run-error"]').count();
		expect(error ? await page.getByTestId('run-error').last().innerText() : '').toBe('');

		// The new run names its source; only judge calls reached the server, one per decision.
		expect(await savedManifest(page, REJUDGED)).toMatchObject({
			simulated: true,
			models: { evaluated: 'simulated', judge: 'judge-2' },
			rejudged_from: {
				run_id: SOURCE,
				stages: ['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction']
			}
		});
		const stored = await storedRows<{ runId: string; file: string; json: string }>(
			page,
			'lexpilot-workbench',
			'records'
		);
		const of = (runId: string, file: string) =>
			stored
				.filter((r) => r.runId === runId && r.file === file)
				.map((r) => JSON.parse(r.json) as Record<string, unknown>);
		const dcg = of(REJUDGED, 'DCG_results');
		const ljp = ['LJP_direct', 'LJP_gold', 'LJP_interaction'].flatMap((f) => of(REJUDGED, f));
		const decisions = of(REJUDGED, 'LCA_results').length + 2 * dcg.length + ljp.length;
		expect(decisions).toBe(8 + 8 + 4 * 3);
		expect(server.chatRequests.map((r) => r.prompt).filter((p) => p !== 'ping')).toHaveLength(
			decisions
		);
		expect(dcg.every((d) => d.success === false)).toBe(true);
		expect(of(REJUDGED, 'interaction')).toEqual(of(SOURCE, 'interaction'));
		for (const width of [1366, 390]) {
			await page.setViewportSize({ width, height: 900 });
			await e.screenshot(`rejudge-${width}`, page.getByTestId('rejudge'));
		}
		await page.setViewportSize({ width: 1366, height: 900 });
		e.assertClean();
	});

	it('en: Results shows the two judges’ agreement per stage, κ too small under 10 decisions', async () => {
		const { page } = e;
		await go(page, 'Results', 'Results');
		const panel = page.getByTestId('judges-panel');
		await panel.waitFor({ timeout: 60_000 });
		await page.getByRole('heading', { name: 'Judge agreement', exact: true }).waitFor();
		await panel.getByRole('heading', { name: `Run ${SOURCE} (A) × run ${REJUDGED} (B)` }).waitFor();
		expect(await panel.getByTestId('judges-model').innerText()).toBe(
			'simulated: judge A simulated-judge, judge B judge-2'
		);
		const rows = await agreementRows(panel);
		// Four cases: 8 LCA histories, 8 DCG rounds, three claims per case in each LJP setup.
		expect(rows.map((r) => [r[0], r[1]])).toEqual([
			['LCA', '8'],
			['DCG', '8'],
			['LJP Direct', '12'],
			['LJP Gold', '12'],
			['LJP Interaction', '12']
		]);
		for (const [, n, , kappa, ci] of rows) {
			if (Number(n) < 10) {
				expect(kappa).toBe('too small to say');
				expect(ci).toBe('');
			} else expect(kappa).toMatch(KAPPA);
		}
		expect(rows[2][3]).toMatch(KAPPA);
		// Every matrix names its rows and columns: LCA's labels, then the three verdicts.
		const matrices = panel.getByTestId('agreement-matrix');
		expect(await matrices.nth(0).locator('thead th').allInnerTexts()).toEqual(['ask', 'answer']);
		expect(await matrices.nth(0).locator('tbody th').allInnerTexts()).toEqual(['ask', 'answer']);
		expect(await matrices.nth(2).locator('thead th').allInnerTexts()).toEqual([
			'支持',
			'部分支持',
			'驳回'
		]);
		// The contrary judge rejects every claim: all of judge B's labels sit in the 驳回 column.
		const direct = await matrices
			.nth(2)
			.locator('tbody tr')
			.evaluateAll((trs) =>
				trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.textContent)))
			);
		expect(direct.flat().reduce((a, b) => a + b, 0)).toBe(12);
		expect(direct.map((r) => r[0] + r[1])).toEqual([0, 0, 0]);
		// Beside κ: AC1 on every row, QWK for the ordered LJP verdicts only, agreement per label,
		// and a note saying what each is (issue 33, item 11).
		const texts = (id: string) => panel.getByTestId(id).allInnerTexts();
		const qwk = (await texts('qwk')).map((t) => t.trim());
		expect(qwk.slice(0, 2)).toEqual(['', '']);
		for (const v of qwk.slice(2)) expect(v).toMatch(KAPPA);
		expect(qwk).toHaveLength(5);
		for (const v of await texts('ac1')) expect(v.trim()).toMatch(KAPPA);
		const perLabel = await texts('per-label');
		expect(perLabel[0]).toMatch(/^ask (\d\.\d{3}|—) · answer (\d\.\d{3}|—)$/);
		expect(perLabel[2]).toMatch(/^支持 .+ · 部分支持 .+ · 驳回 \d\.\d{3}$/);
		const notes = await panel.getByTestId('agreement-notes').first().innerText();
		expect(notes).toContain('AC1 (Gwet');
		expect(notes).toContain('QWK (LJP verdicts');
		// The two runs are of one model but not averaged: said in words, not manifest paths.
		const differ = await page.getByTestId('group-differences').innerText();
		expect(differ).toContain('they differ in judge model');
		expect(differ).not.toMatch(/models\.|dataset\.|_sha256/);
		await e.screenshot('results-judges-en-1366', panel);
		e.assertClean();
	});

	it('en: at 390 px each agreement row keeps κ, interval and matrix in view', async () => {
		const { page } = e;
		await page.setViewportSize({ width: 390, height: 844 });
		const panel = page.getByTestId('judges-panel');
		const row = panel.getByTestId('agreement-row').first();
		await row.scrollIntoViewIfNeeded();
		expect(await overflowRight(page, row.getByTestId('kappa'))).toBe(0);
		expect(await overflowRight(page, row.getByTestId('agreement-matrix'))).toBe(0);
		await e.screenshot('results-judges-en-390', panel);
		await page.setViewportSize({ width: 1366, height: 900 });
		e.assertClean();
	});

	it('zh-CN: the same section and the reason runs are not averaged, in Chinese', async () => {
		const { page } = e;
		await page.getByTestId('language').selectOption('zh-CN');
		await page.getByRole('heading', { name: '评审模型间一致性', exact: true }).waitFor();
		const panel = page.getByTestId('judges-panel');
		await panel
			.getByRole('heading', { name: `运行 ${SOURCE}（A）× 运行 ${REJUDGED}（B）` })
			.waitFor();
		const rows = await agreementRows(panel);
		expect(rows[0][3]).toBe('样本太小，无法判断');
		const lca = panel.getByTestId('agreement-matrix').first();
		expect(await lca.locator('thead th').allInnerTexts()).toEqual(['追问', '作答']);
		expect((await panel.getByTestId('per-label').first().innerText()).trim()).toMatch(/^追问 /);
		const notes = await panel.getByTestId('agreement-notes').first().innerText();
		expect(notes).toContain('AC1（Gwet 一阶一致系数）');
		expect(notes).toContain('二次加权的 κ');
		expect(await page.getByTestId('group-differences').innerText()).toContain(
			'二者在 评审模型 上不同'
		);
		await e.screenshot('results-judges-zh-1366', panel);
		await page.getByTestId('language').selectOption('en');
		await page.getByRole('heading', { name: 'Judge agreement', exact: true }).waitFor();
		e.assertClean();
	});

	it('Inspect: review is one click from the top of a case; Start says why it waits', async () => {
		const { page } = e;
		await go(page, 'Inspect', 'Inspect');
		const jump = page.getByTestId('case-head').getByTestId('review-jump');
		await jump.waitFor();
		await page.getByTestId('review-section').waitFor();
		// In the case's first line, not below its histories, responses and judgments.
		const top = (await page.getByTestId('case-head').boundingBox())!.y;
		expect((await jump.boundingBox())!.y - top).toBeLessThan(80);
		await jump.click();
		await page.waitForFunction(() => document.activeElement?.id === 'review-heading');
		const heading = (await page.locator('#review-heading').boundingBox())!;
		expect(heading.y).toBeGreaterThanOrEqual(0);
		expect(heading.y).toBeLessThan(900);

		const start = page.getByRole('button', { name: 'Start reviewing' });
		expect(await start.isDisabled()).toBe(true);
		const why = page.getByTestId('review-start-why');
		expect(await why.innerText()).toBe(
			'Enter a reviewer name to start: your reviews are saved under it.'
		);
		expect(await start.getAttribute('aria-describedby')).toBe('review-start-why');
		await page.getByTestId('reviewer').fill('Ann');
		await expect.poll(() => why.count()).toBe(0);
		expect(await start.isDisabled()).toBe(false);
		await e.screenshot('inspect-review-jump-1366', page.getByTestId('case-head'));
		e.assertClean();
	});

	it('Inspect: κ over a single review says too small to say, not 0.000', async () => {
		const { page } = e;
		await page.getByRole('button', { name: 'Start reviewing' }).click();
		await page.getByTestId('review-decision').waitFor();
		await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
		await page.keyboard.press('2');
		await page
			.getByTestId('review-progress')
			.filter({ hasText: /^1 of \d+ reviewed$/ })
			.waitFor();
		const panel = page.getByTestId('agreement-panel');
		await panel.waitFor();
		const rows = await agreementRows(panel);
		expect(rows.length).toBeGreaterThan(0);
		for (const row of rows) expect(row[4]).toBe('too small to say');
		await page.setViewportSize({ width: 390, height: 844 });
		const first = panel.getByTestId('agreement-row').first();
		await first.scrollIntoViewIfNeeded();
		expect(await overflowRight(page, first.getByTestId('kappa'))).toBe(0);
		expect(await overflowRight(page, first.getByTestId('agreement-matrix'))).toBe(0);
		// A cause class's name stays on one line, not one character a line.
		const cls = panel.locator('td.cls').nth(1);
		if (await cls.count()) expect((await cls.boundingBox())!.height).toBeLessThan(40);
		await e.screenshot('review-agreement-one-390', panel);
		await page.setViewportSize({ width: 1366, height: 900 });
		e.assertClean();
	});
});
