/**
 * A run plan from the Run page in Chromium, in each interface language: 2 simulated models × 2
 * repetitions started with one Start, the page reloaded while the plan runs (once records are
 * saved), the plan resumed from "Unfinished plans", all four runs completed and on the Results
 * page; and a spending cap kept with the plan: it pauses the plan once its spend passes it, holds
 * it after a reload and a resume with the spend going on, and a higher cap runs it to the end;
 * capped at half what the plan costs, it leaves complete runs (run 1 of each model first).
 */
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
import { savedManifest, savedRecords } from './run-support';

const MODELS = ['simulated-strong', 'simulated-weak'];
const RUNS = ['plan1', 'plan2'];

let e: E2E | undefined;
afterEach(async () => {
	const problems = e?.problems.splice(0) ?? [];
	await e?.close();
	e = undefined;
	expect(problems, problems.join('\n')).toEqual([]);
});

describe.each(['zh-CN', 'en'] as const)('a run plan in %s', (locale) => {
	const t = (area: string, key: string, values?: Record<string, string | number>) =>
		message(area, locale, key, values);

	/** Sample loaded, simulated provider chosen, Run page open with the plan's form filled. */
	async function planOf(page: Page, limit: number): Promise<void> {
		await planForm(page, e!.url, locale, { runId: 'plan', limit, models: MODELS });
		await page.getByTestId('plan-repetitions').fill('2');
	}

	it('runs 2 models × 2 repetitions, survives a reload, resumes and shows the four runs', async () => {
		e = await startBrowser({ locale, viewport: LAPTOP });
		const { page } = e;
		await planOf(page, 8);
		// The run ids, before Start: each model × run1, run2 of the prefix.
		const ids = page.getByTestId('plan-run-ids');
		expect(await ids.innerText()).toContain(await t('plans', 'plans_run_ids', { count: 4 }));
		for (const model of MODELS)
			for (const run of RUNS) {
				expect(await ids.innerText()).toContain(`${model} · ${run}`);
			}
		// A fresh browser has no earlier run: tokens estimated from the dataset, naming the models.
		const source = page.getByTestId('plan-estimate').locator('[data-source]');
		expect(await source.getAttribute('data-source')).toBe('dataset');
		for (const model of MODELS) expect(await source.innerText()).toContain(model);
		await e.screenshot(`plan-form-${locale}`);
		await page.getByRole('button', { name: await t('run', 'run_start') }).click();
		await planStatus(page, 'running');
		// Reloaded once some cases are saved, in both repetitions, and before the plan is done.
		await expect
			.poll(
				async () => {
					const records = [await savedRecords(page, 'plan1'), await savedRecords(page, 'plan2')];
					return records.every((r) => (r.LJP_direct?.length ?? 0) >= 1);
				},
				{ timeout: 60_000, interval: 100 }
			)
			.toBe(true);
		await e.screenshot(`plan-running-${locale}`);
		await page.reload();
		const before = (await savedRecords(page, 'plan1')).LJP_direct?.length ?? 0;

		await page.getByTestId('unfinished-plan').waitFor();
		expect(await page.getByTestId('unfinished-plans').innerText()).toContain(
			await t('plans', 'plans_unfinished_item', { runs: 4, models: MODELS.join(', ') })
		);
		await page.getByTestId('ready-dataset').getByText('lexpilot-sample.json').waitFor();
		await e.screenshot(`plan-unfinished-${locale}`);
		await page.getByTestId('plan-resume-stored').click();
		await planStatus(page, 'done');
		await e.screenshot(`plan-done-${locale}`);
		expect(await page.getByTestId('plan-status').innerText()).toBe(
			await t('plans', 'plans_status_done')
		);
		for (const model of MODELS) {
			for (const run of RUNS) {
				const row = page.getByTestId(`plan-row-${model}-${run}`);
				expect(await row.getAttribute('data-status')).toBe('done');
			}
		}
		// Nothing was redone or lost: each run has every selected case once.
		const records = await savedRecords(page, 'plan1');
		expect(before).toBeGreaterThanOrEqual(1);
		expect(records.LJP_direct).toHaveLength(2 * 8);
		expect(new Set(records.LJP_direct).size).toBe(8);
		expect(await page.getByTestId('unfinished-plan').count()).toBe(0);
		// At 390 px the plan's form, progress and costs stack inside the viewport.
		await page.setViewportSize(PHONE);
		await nextFrame(page);
		const overflow = await sidewaysOverflow(page);
		expect(overflow.wide, JSON.stringify(overflow)).toEqual([]);
		await e.screenshot(`plan-phone-${locale}`);
		await page.setViewportSize(LAPTOP);
		const manifest = await savedManifest(page, 'plan2');
		expect(manifest).toMatchObject({ simulated: true, run_id: 'plan2' });

		// Results: the four runs, two per model, with their figures.
		await go(page, await t('', 'nav_results'), await t('results', 'results_title'));
		const picker = page.getByTestId('run-picker');
		await picker.waitFor();
		await page.getByTestId('figure-lca-overall').locator('td[data-series]').first().waitFor();
		for (const model of MODELS) {
			const group = picker.locator('fieldset', { hasText: model });
			expect(await group.locator('.run-id').allInnerTexts()).toEqual(expect.arrayContaining(RUNS));
		}
		expect(await page.getByTestId('run-toggle').count()).toBe(4);
		await e.screenshot(`plan-results-${locale}`);
	});

	it('pauses the plan at its cap; reloaded and resumed it stays paused at that cap, its spend going on; a higher cap runs it to the end', async () => {
		e = await startBrowser({ locale, viewport: LAPTOP });
		const { page } = e;
		await planOf(page, 14);
		await page.getByText(await t('plans', 'plans_prices_title')).click();
		// Every model of the plan (evaluated, user, judge) at a price that passes the cap at once.
		for (const input of await page.locator('[data-testid^="price-"]').all()) {
			await input.fill('1000');
			await input.dispatchEvent('change');
		}
		await page.getByTestId('plan-cap').fill('0.5');
		await page.getByRole('button', { name: await t('run', 'run_start') }).click();
		const capped = page.getByTestId('plan-capped');
		await capped.waitFor({ timeout: 60_000 });
		await planStatus(page, 'paused');
		await e.screenshot(`plan-capped-${locale}`);
		// One amount line: spent X of the cap, not a spend, a passed amount and a cap apart.
		expect(await capped.innerText()).toContain('0.5000');
		expect(await page.getByTestId('plan-spend').count()).toBe(0);
		expect(await capped.getAttribute('data-cap')).toBe('0.5');
		// Paused, not stopped: no run ended, each says so, and the plan is kept for Resume.
		const rowStatuses = async () =>
			page
				.locator('[data-testid^="plan-row-"]')
				.evaluateAll((els) => els.map((el) => el.getAttribute('data-status')));
		for (const status of await rowStatuses()) expect(['queued', 'paused']).toContain(status);
		const stored = await page.evaluate(() => localStorage.getItem('lexpilot.plan-specs.v1'));
		expect(stored).toContain('"status":"paused"');
		expect(stored).not.toContain('apiKey');
		const spent = Number(await capped.getAttribute('data-spent'));
		expect(spent).toBeGreaterThan(0.5);

		// Reloaded and resumed: the cap kept with the plan holds it paused, the spend going on.
		await page.reload();
		await page.getByTestId('unfinished-plan').waitFor();
		await page.getByTestId('ready-dataset').getByText('lexpilot-sample.json').waitFor();
		await page.getByTestId('plan-resume-stored').click();
		await page.getByTestId('plan-capped').waitFor({ timeout: 60_000 });
		await planStatus(page, 'paused');
		await e.screenshot(`plan-capped-resumed-${locale}`);
		expect(await capped.getAttribute('data-cap')).toBe('0.5');
		expect(Number(await capped.getAttribute('data-spent'))).toBeGreaterThanOrEqual(spent);
		for (const status of await rowStatuses()) expect(['queued', 'paused']).toContain(status);
		// The cap field shows the plan's cap; a higher one runs the plan to its end.
		const cap = page.getByTestId('plan-cap');
		if (!(await cap.isVisible()))
			await page.getByText(await t('plans', 'plans_prices_title')).click();
		expect(await cap.inputValue()).toBe('0.5');
		await cap.fill('100000');
		await cap.dispatchEvent('change');
		await planStatus(page, 'done', 180_000);
		const line = page.getByTestId('plan-spend');
		expect(Number(await line.getAttribute('data-spent'))).toBeGreaterThan(spent);
		expect(await line.innerText()).toContain('100000.0000');
		expect(await page.getByTestId('unfinished-plan').count()).toBe(0);
	});

	it('a cap at half what the plan costs leaves complete runs, run 1 of each model first', async () => {
		e = await startBrowser({ locale, viewport: LAPTOP });
		const { page } = e;
		await planOf(page, 4);
		await page.getByText(await t('plans', 'plans_prices_title')).click();
		for (const input of await page.locator('[data-testid^="price-"]').all()) {
			await input.fill('1000');
			await input.dispatchEvent('change');
		}
		// What the whole plan costs: run without a cap.
		await page.getByRole('button', { name: await t('run', 'run_start') }).click();
		await planStatus(page, 'done');
		const whole = Number(await page.getByTestId('plan-spend').getAttribute('data-spent'));
		expect(whole).toBeGreaterThan(0);
		// The same plan under other run ids, capped at half that.
		await page.getByTestId('run-id').fill('half');
		const cap = page.getByTestId('plan-cap');
		if (!(await cap.isVisible()))
			await page.getByText(await t('plans', 'plans_prices_title')).click();
		await cap.fill(String(whole / 2));
		await page.getByRole('button', { name: await t('run', 'run_start') }).click();
		await page.getByTestId('plan-capped').waitFor({ timeout: 60_000 });
		await planStatus(page, 'paused');
		await e.screenshot(`plan-capped-half-${locale}`);
		const status = (model: string, run: string) =>
			page.getByTestId(`plan-row-${model}-${run}`).getAttribute('data-status');
		// Every run did its gen first before: at the cap none of the four was done.
		expect(await status(MODELS[0], 'half1')).toBe('done');
		const second = [await status(MODELS[0], 'half2'), await status(MODELS[1], 'half2')];
		if (second.includes('done')) expect(await status(MODELS[1], 'half1')).toBe('done');
		expect(second).not.toEqual(['done', 'done']);
	});
});
