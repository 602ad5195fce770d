/**
 * The leaderboard in a real Chromium: a CLI output folder with two models × two runs (judge labels
 * re-rolled per run, so repetitions differ) is imported; the Results page ranks the models with
 * rank intervals, exactly as `results --leaderboard --json` does; the LaTeX copy holds the same
 * figures; in Chinese and in English; at 390 px the model and the chosen metric stay on screen.
 * A class of fewer than 10 cases gets no paired test: no †, and the legend and the LaTeX caption
 * say that no test was run and why; a tested table says why ranks and ties can disagree.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lexpilot, writeOutputRoot } from '../fixtures/bundles/folder';
import { startBrowser, type E2E } from './browser';
import { go, LAPTOP, nextFrame, PHONE, sidewaysOverflow } from './i18n-support';

const SHOTS = '/tmp/shots-leaderboard';
let e: E2E;
/** The CLI's leaderboard of the same folder. */
let cli: {
	boards: {
		overall: {
			rows: {
				id: string;
				n: number;
				cells: Record<string, { mean: number; sd: number; rank: number; rank_ci95: number[] }>;
			}[];
		};
		by_class: Record<string, { n_cases: number; untested: string | null }>;
	}[];
};

beforeAll(async () => {
	const root = await writeOutputRoot([
		{ runId: 'run1' },
		{ runId: 'run2' },
		{ runId: 'run1', model: 'sim-model-b', seed: 'b1' },
		{ runId: 'run2', model: 'sim-model-b', seed: 'b2' }
	]);
	cli = JSON.parse(await lexpilot(['results', '--leaderboard', '--json', '--output-root', root]));
	await mkdir(SHOTS, { recursive: true });
	e = await startBrowser({ locale: 'zh-CN', viewport: LAPTOP });
	await e.page.goto(`${e.url}/`);
	await go(e.page, '数据包', '数据包');
	await e.page.locator('#bundle-folder').setInputFiles(root);
	await e.page.getByTestId('bundle-outcome').filter({ hasText: '导入' }).waitFor();
	await e.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e.url });
}, 180_000);

afterAll(async () => {
	await e?.close();
});

async function leaderboardReady(page: Page) {
	const status = page.getByTestId('leaderboard-status');
	await status.waitFor({ timeout: 60_000 });
	await expect.poll(() => status.getAttribute('data-status'), { timeout: 60_000 }).toBe('ready');
}

const rowsShown = (page: Page) =>
	page.getByTestId('leaderboard-row').evaluateAll((rows) =>
		rows.map((row) => ({
			model: row.getAttribute('data-model'),
			macro: row.querySelector('[data-column="lca_macro_f1"] [data-testid="lb-mean"]')!.textContent,
			rank: row.querySelector('[data-column="lca_macro_f1"] [data-testid="lb-rank"]')!.textContent
		}))
	);

describe('leaderboard', () => {
	it('ranks two models in Chinese, with the CLI’s figures and rank intervals', async () => {
		const { page } = e;
		await go(page, '结果', '结果');
		await leaderboardReady(page);
		const shown = await rowsShown(page);
		const rows = cli.boards[0].overall.rows;
		expect(shown.map((r) => r.model)).toEqual(rows.map((r) => r.id));
		rows.forEach((row, i) => {
			const c = row.cells.lca_macro_f1;
			expect(shown[i].macro).toBe(`${c.mean.toFixed(4)} ± ${c.sd.toFixed(4)}`);
			expect(shown[i].rank).toBe(`第 ${c.rank} 名 [${c.rank_ci95[0]}–${c.rank_ci95[1]}]`);
		});
		await page.getByTestId('leaderboard-section').screenshot({ path: `${SHOTS}/zh-1366.png` });
		e.assertClean();
	});

	it('copies the LaTeX table with the figures shown', async () => {
		const { page } = e;
		await page.getByRole('button', { name: '复制 LaTeX' }).click();
		const latex = await page.evaluate(() => navigator.clipboard.readText());
		expect(latex).toContain('\\toprule');
		for (const row of cli.boards[0].overall.rows) {
			const c = row.cells.lca_macro_f1;
			expect(latex).toContain(`${row.id} & ${row.n} & `);
			expect(latex).toContain(`${c.mean.toFixed(4)} $\\pm$ ${c.sd.toFixed(4)}`);
		}
	});

	it('sorts by another column and follows a switch to English', async () => {
		const { page } = e;
		await page.getByTestId('language').selectOption('en');
		await page.getByRole('heading', { name: 'Leaderboard', level: 2 }).waitFor();
		await page.getByTestId('leaderboard-sort').selectOption('model');
		const rows = cli.boards[0].overall.rows;
		const byId = [...rows].sort((a, b) => a.id.localeCompare(b.id));
		await expect
			.poll(async () => (await rowsShown(page)).map((r) => r.model))
			.toEqual(byId.map((r) => r.id));
		const rank = (await rowsShown(page))[0].rank;
		expect(rank).toMatch(/^rank \d \[\d–\d\]$/);
		await page.getByRole('button', { name: 'Copy LaTeX' }).click();
		expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('\\bottomrule');
		// At 1366 px every column is in view, Tokens/run and Cost/run too: the table does not scroll.
		const table = page.getByTestId('leaderboard-table');
		const heads = (await table.locator('thead th').allInnerTexts()).map((t) =>
			t.replace(/\s+/g, ' ')
		);
		expect(heads.slice(-2)).toEqual(['Tokens/run', 'Cost/run (USD)']);
		const fits = await table.evaluate((t) => {
			const box = t.parentElement!;
			return { scroll: box.scrollWidth, client: box.clientWidth };
		});
		expect(fits.scroll).toBeLessThanOrEqual(fits.client);
		// The forest plot is drawn on the page, not only offered as a download.
		const forest = page.getByTestId('forest-plot').first();
		await expect
			.poll(() => forest.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
			.toBe(640);
		expect(await forest.getAttribute('alt')).toBe(
			'LCA Macro-F1: mean and 95% case-bootstrap interval'
		);
		expect((await forest.boundingBox())!.width).toBeGreaterThan(300);
		await page.getByTestId('leaderboard-section').screenshot({ path: `${SHOTS}/en-1366.png` });
	});

	it('keeps the model and the chosen metric on a 390 px screen, in both languages', async () => {
		const { page } = e;
		for (const locale of ['en', 'zh-CN'] as const) {
			await page.getByTestId('language').selectOption(locale);
			await page.setViewportSize(PHONE);
			await nextFrame(page);
			await page.getByTestId('leaderboard-metric').selectOption('dcg_success');
			const row = page.getByTestId('leaderboard-row').first();
			const width = PHONE.width;
			for (const part of [row.locator('th .name'), row.locator('[data-column="dcg_success"]')]) {
				const box = (await part.boundingBox())!;
				expect(box.x).toBeGreaterThanOrEqual(0);
				expect(box.x + box.width).toBeLessThanOrEqual(width);
			}
			expect(await row.locator('[data-column="lca_macro_f1"]').isVisible()).toBe(false);
			const overflow = await sidewaysOverflow(page);
			expect(overflow.scrollWidth, overflow.wide.join('; ')).toBeLessThanOrEqual(
				overflow.clientWidth
			);
			await page
				.getByTestId('leaderboard-section')
				.screenshot({ path: `${SHOTS}/${locale}-390.png` });
		}
		await page.setViewportSize(LAPTOP);
		e.assertClean();
	});

	it('claims no tie without a test, and says why, in Chinese and in English', async () => {
		const { page } = e;
		const section = page.getByTestId('leaderboard-section');
		const [cls, scope] = Object.entries(cli.boards[0].by_class).find(([, c]) => c.n_cases < 10)!;
		expect(scope.untested).toContain('no paired test was run');
		// All cases (14): tested, so the legend says why ranks and ties can disagree.
		await page.getByTestId('language').selectOption('zh-CN');
		await expect
			.poll(() => page.getByTestId('leaderboard-ranks-ties').textContent())
			.toContain('第 4 名 [4–4]');
		await page.getByTestId('leaderboard-class').selectOption(cls);
		const untested = page.getByTestId('leaderboard-untested');
		await untested.waitFor();
		expect(await untested.textContent()).toBe(
			`未做配对检验：仅 ${scope.n_cases} 个案例，少于检验所需的 10 个，因此不标记任何模型与其他模型持平`
		);
		expect(await page.getByTestId('leaderboard-legend').textContent()).not.toContain('†');
		expect(await page.getByTestId('leaderboard-table').textContent()).not.toContain('†');
		expect(await page.getByTestId('leaderboard-ranks-ties').count()).toBe(0);
		await page.getByRole('button', { name: '复制 LaTeX' }).click();
		const latex = await page.evaluate(() => navigator.clipboard.readText());
		expect(latex).not.toContain('dagger');
		expect(latex).toContain(
			`No paired test was run: ${scope.n_cases} cases, fewer than the 10 a test needs`
		);
		await page.getByRole('button', { name: '复制 CSV' }).click();
		const [head, ...body] = (await page.evaluate(() => navigator.clipboard.readText()))
			.trimEnd()
			.split('\n');
		const at = head.split(',').indexOf('lca_macro_f1_tied_with_best');
		for (const line of body) expect(line.split(',')[at]).toBe('');
		await section.screenshot({ path: `${SHOTS}/zh-untested-1366.png` });
		await page.getByTestId('language').selectOption('en');
		await expect
			.poll(() => untested.textContent())
			.toBe(
				`no paired test was run: ${scope.n_cases} cases, fewer than the 10 a test needs, so no model is marked as tied with another`
			);
		expect(await page.getByTestId('leaderboard-legend').textContent()).toContain(
			'no model is marked as tied'
		);
		await page.getByTestId('leaderboard-class').selectOption('');
		await expect
			.poll(() => page.getByTestId('leaderboard-ranks-ties').textContent())
			.toContain('rank 4 [4–4] and still be listed as tied');
		expect(await untested.count()).toBe(0);
		await section.screenshot({ path: `${SHOTS}/en-tested-1366.png` });
		e.assertClean();
	});
});
