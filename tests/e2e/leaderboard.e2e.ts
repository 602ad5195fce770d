/**
 * The leaderboard in a real Chromium: a CLI output folder with two models × two runs (judge labels
 * re-rolled per run, so repetitions differ) is imported; the Results page ranks the models with
 * rank intervals, exactly as `results --leaderboard --json` does; the LaTeX copy holds the same
 * figures; in Chinese and in English; at 390 px the model and the chosen metric stay on screen.
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
});
