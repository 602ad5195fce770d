/**
 * One flow from the Run page's plan to the Results page's leaderboard in Chromium, in each
 * interface language: 2 simulated models × 2 repetitions, the second model with its own judge
 * (shown before Start, recorded in its runs' manifests); the form survives a reload before Start;
 * the estimate says where its tokens per call come from; the leaderboard ranks the two models with
 * rank intervals, a click on another column sorts by it into the URL, which a reload and the
 * browser's back button keep, a hostile URL reads as the default; the LaTeX copy is booktabs with
 * a bold best value; at 390 px no control leaves the screen and the model and metric stay in view.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { startBrowser, type E2E } from './browser';
import {
	go,
	LAPTOP,
	message,
	nextFrame,
	PHONE,
	planForm,
	planStatus,
	sidewaysOverflow
} from './i18n-support';
import { controlsOffScreen, tablesLosingRowNames } from './phone-support';
import { storedRows } from './run-support';

const SHOTS = '/tmp/shots-lbui';
const MODELS = ['simulated-strong', 'simulated-weak'];
/** The second model's own judge; the first keeps the plan's. */
const OWN_JUDGE = 'simulated-judge-b';

let e: E2E | undefined;
afterEach(async () => {
	const problems = e?.problems.splice(0) ?? [];
	await e?.close();
	e = undefined;
	expect(problems, problems.join('\n')).toEqual([]);
});

/** The manifests saved in the page's IndexedDB, by evaluated model and run id. */
async function manifests(page: Page): Promise<Record<string, { models: Record<string, string> }>> {
	const rows = await storedRows<{ runId: string; manifest: { models: Record<string, string> } }>(
		page,
		'lexpilot-workbench',
		'manifests'
	);
	return Object.fromEntries(
		rows.map((r) => [`${r.manifest.models.evaluated}/${r.runId}`, r.manifest])
	);
}

async function leaderboardReady(page: Page): Promise<void> {
	await page.waitForFunction(
		() =>
			document.querySelector('[data-testid="leaderboard-status"]')?.getAttribute('data-status') ===
			'ready',
		undefined,
		{ timeout: 90_000, polling: 100 }
	);
}

/** The column head the table is sorted by, and its direction. */
const sorted = (page: Page) =>
	page
		.locator('[data-testid="leaderboard-table"] th[aria-sort]')
		.evaluate((th) => [th.getAttribute('data-column') ?? 'model', th.getAttribute('aria-sort')]);

const rowModels = (page: Page) =>
	page
		.getByTestId('leaderboard-row')
		.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-model')));

describe.each(['zh-CN', 'en'] as const)('plan to leaderboard in %s', (locale) => {
	const t = (area: string, key: string, values?: Record<string, string | number>) =>
		message(area, locale, key, values);

	it('plans, runs, ranks, sorts into the URL and copies the LaTeX table', async () => {
		await mkdir(SHOTS, { recursive: true });
		e = await startBrowser({ locale, viewport: LAPTOP });
		const { page } = e;
		await e.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e.url });
		await planForm(page, e.url, locale, { runId: 'pl', models: MODELS });
		await page.getByTestId('plan-own-roles-1').locator('summary').click();
		await page.getByTestId('plan-judge-id-1').fill(OWN_JUDGE);
		await page.getByTestId('plan-repetitions').fill('2');
		const roles = page.getByTestId('plan-roles');
		await expect.poll(() => roles.innerText()).toContain(OWN_JUDGE);

		// A reload before Start keeps the plan as typed (the run id is its prefix).
		await page.reload();
		await page.getByTestId('plan-model-id-1').waitFor();
		expect(await page.getByTestId('run-id').inputValue()).toBe('pl');
		expect(await page.getByTestId('plan-model-id-0').inputValue()).toBe(MODELS[0]);
		expect(await page.getByTestId('plan-model-id-1').inputValue()).toBe(MODELS[1]);
		expect(await page.getByTestId('plan-judge-id-1').inputValue()).toBe(OWN_JUDGE);
		expect(await page.getByTestId('plan-repetitions').inputValue()).toBe('2');
		// The limit is the run form's own, not the plan's: typed after the reload.
		await page.getByTestId('run-limit').fill('12');
		expect(await page.getByTestId('plan-roles-0').innerText()).not.toContain(OWN_JUDGE);
		expect(await page.getByTestId('plan-roles-1').innerText()).toBe(
			await t('plans', 'plans_roles_of', {
				model: MODELS[1],
				user: 'simulated-user',
				judge: OWN_JUDGE
			})
		);
		// No earlier run in this fresh browser: tokens from the dataset, and it says so.
		const estimate = page.getByTestId('plan-estimate');
		expect(await estimate.locator('[data-source]').getAttribute('data-source')).toBe('dataset');
		await e.screenshot(`plan-leaderboard-form-${locale}`);
		await page.screenshot({ path: `${SHOTS}/plan-form-${locale}-1366.png`, fullPage: true });

		await page.getByRole('button', { name: await t('run', 'run_start') }).click();
		await planStatus(page, 'done', 180_000);
		// Each run's manifest records its own judge.
		const saved = await manifests(page);
		for (const run of ['pl1', 'pl2']) {
			expect(saved[`${MODELS[0]}/${run}`].models.judge).toBe('simulated-judge');
			expect(saved[`${MODELS[1]}/${run}`].models.judge).toBe(OWN_JUDGE);
		}
		// Now the earlier runs' call logs price the estimate.
		await expect
			.poll(() => estimate.locator('[data-source]').getAttribute('data-source'), {
				timeout: 30_000
			})
			.toBe('measured');
		expect(await estimate.innerText()).toContain(await t('plans', 'plans_estimate_measured'));

		// The leaderboard: both models, each metric cell with its rank and rank interval.
		await go(page, await t('', 'nav_results'), await t('results', 'results_title'));
		await leaderboardReady(page);
		expect((await rowModels(page)).sort()).toEqual(MODELS);
		const ranks = await page
			.locator(
				'[data-testid="leaderboard-row"] td[data-column="dcg_success"] [data-testid="lb-rank"]'
			)
			.allInnerTexts();
		expect(ranks).toHaveLength(2);
		for (const text of ranks) expect(text).toMatch(/^\D*[12]\D*\[[12]–[12]\]$/);
		expect(await sorted(page)).toEqual(['lca_macro_f1', 'descending']);

		// Sort by another column: the URL says so; a second click turns it round.
		const head = page.locator('th[data-column="dcg_success"] button');
		await head.click();
		await page.waitForURL(/lb_sort=dcg_success/);
		await head.click();
		await page.waitForURL(/lb_sort=dcg_success&lb_dir=asc/);
		const order = await rowModels(page);
		await page.reload();
		await leaderboardReady(page);
		expect(await sorted(page)).toEqual(['dcg_success', 'ascending']);
		expect(await rowModels(page)).toEqual(order);
		await page
			.getByTestId('leaderboard-section')
			.screenshot({ path: `${SHOTS}/leaderboard-${locale}-1366.png` });

		// Away and back: the browser's history keeps the table.
		await go(page, await t('', 'nav_run'), await t('run', 'run_title'));
		await page.goBack();
		await leaderboardReady(page);
		expect(page.url()).toContain('lb_sort=dcg_success&lb_dir=asc');
		expect(await sorted(page)).toEqual(['dcg_success', 'ascending']);

		// The paper's table: booktabs, the best value bold.
		await page.getByRole('button', { name: await t('leaderboard', 'lb_copy_latex') }).click();
		await expect
			.poll(() => page.evaluate(() => navigator.clipboard.readText()))
			.toContain('\\bottomrule');
		const latex = await page.evaluate(() => navigator.clipboard.readText());
		for (const rule of ['\\usepackage{booktabs}', '\\toprule', '\\midrule', '\\bottomrule']) {
			expect(latex).toContain(rule);
		}
		expect(latex).toMatch(/\\textbf\{\d\.\d{4} \$\\pm\$ \d\.\d{4}\}/);
		for (const model of MODELS) expect(latex).toContain(model);

		// At 390 px: no control off screen, the model and the sorted metric in view.
		await page.setViewportSize(PHONE);
		await nextFrame(page);
		await page.getByTestId('leaderboard-section').scrollIntoViewIfNeeded();
		expect(await controlsOffScreen(page)).toEqual([]);
		expect(await tablesLosingRowNames(page)).toEqual([]);
		const overflow = await sidewaysOverflow(page);
		expect(overflow.wide, JSON.stringify(overflow)).toEqual([]);
		const row = page.getByTestId('leaderboard-row').first();
		for (const part of [row.locator('th .name'), row.locator('td[data-column="dcg_success"]')]) {
			const box = (await part.boundingBox())!;
			expect(box.x).toBeGreaterThanOrEqual(0);
			expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
		}
		await page
			.getByTestId('leaderboard-section')
			.screenshot({ path: `${SHOTS}/leaderboard-${locale}-390.png` });
		await page.goto(`${e.url}/run`);
		await page.getByTestId('plan-roles').waitFor();
		expect(await controlsOffScreen(page)).toEqual([]);
		await page.screenshot({ path: `${SHOTS}/plan-form-${locale}-390.png`, fullPage: true });
		await page.setViewportSize(LAPTOP);

		// A hostile link: what names no column, direction or class is the default table.
		await page.goto(
			`${e.url}/results?lb_sort=__proto__&lb_dir=up&lb_metric=%3Cimg%3E&lb_class=__proto__`
		);
		await leaderboardReady(page);
		expect(await sorted(page)).toEqual(['lca_macro_f1', 'descending']);
		expect(await page.getByTestId('leaderboard-class').inputValue()).toBe('');
		await expect.poll(() => page.url()).not.toContain('lb_');
	});
});
