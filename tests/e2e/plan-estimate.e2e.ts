/**
 * The plan's estimate before any run, in each interface language: in a fresh browser (no run
 * measured these models) the tokens per call come from the dataset's prompts, and with prices
 * entered the plan shows a low–high cost before Start; once the plan has run, its calls' measure
 * replaces the dataset's guess (issue 33 item 3).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startBrowser, type E2E } from './browser';
import { LAPTOP, PHONE, message, planForm, planStatus } from './i18n-support';
import { controlsOffScreen, settled } from './phone-support';

const MODELS = ['simulated-strong', 'simulated-weak'];

let e: E2E | undefined;
afterEach(async () => {
	const problems = e?.problems.splice(0) ?? [];
	await e?.close();
	e = undefined;
	expect(problems, problems.join('\n')).toEqual([]);
});

/** The numbers of a `12,345–67,890`-like range in `text` after `before`, as numbers. */
function rangeAfter(text: string, before: string): [number, number] {
	const at = text.indexOf(before);
	expect(at, `${before} in ${text}`).toBeGreaterThanOrEqual(0);
	const m = /([\d.,]+)(?:\s*[A-Z]{3})?–([\d.,]+)/.exec(text.slice(at + before.length));
	expect(m, text).not.toBeNull();
	return [Number(m![1].replace(/,/g, '')), Number(m![2].replace(/,/g, ''))];
}

describe.each(['zh-CN', 'en'] as const)('the plan’s estimate in %s', (locale) => {
	const t = (area: string, key: string, values?: Record<string, string | number>) =>
		message(area, locale, key, values);

	it('prices a model never run from the dataset, a range before Start; its calls refine it as they come', async () => {
		e = await startBrowser({ locale, viewport: LAPTOP });
		const { page } = e;
		await planForm(page, e.url, locale, { runId: 'est', limit: 3, models: MODELS });
		const estimate = page.getByTestId('plan-estimate');
		const source = estimate.locator('[data-source]');
		await expect.poll(() => source.getAttribute('data-source')).toBe('dataset');
		const said = await source.innerText();
		for (const model of [...MODELS, 'simulated-user', 'simulated-judge']) {
			expect(said).toContain(model);
		}
		expect(said).toContain('0.7');
		expect(said).toContain('0.25');
		expect(said).toContain('8192');
		// Tokens already: a range from the prompts alone to every answer at max_tokens.
		const tokensBefore = (await t('plans', 'plans_estimate_tokens', { tokens: '#' })).split('#')[0];
		const [low, high] = rangeAfter(await estimate.innerText(), tokensBefore);
		expect(low).toBeGreaterThan(0);
		expect(high).toBeGreaterThan(low);

		// Prices entered: a cost range, before any call.
		expect(await estimate.innerText()).not.toContain('USD');
		await page.getByText(await t('plans', 'plans_prices_title')).click();
		for (const input of await page.locator('[data-testid^="price-"]').all()) {
			await input.fill('1');
			await input.dispatchEvent('change');
		}
		await expect.poll(() => estimate.innerText()).toMatch(/USD–/);
		const cost = /([\d.,]+) USD–([\d.,]+) USD/.exec(await estimate.innerText());
		const [cheap, dear] = [Number(cost![1].replace(/,/g, '')), Number(cost![2].replace(/,/g, ''))];
		expect(await estimate.innerText()).toContain(
			await t('plans', 'plans_estimate_cost', { cost: cost![0] })
		);
		expect(cheap).toBeGreaterThan(0);
		expect(dear).toBeGreaterThan(cheap);
		// The cost range is the tokens' range at 1 per million tokens.
		expect(cheap).toBeCloseTo(low / 1e6, 3);
		expect(dear).toBeCloseTo(high / 1e6, 3);
		await e.screenshot(`plan-estimate-${locale}`);
		await e.screenshot(`plan-estimate-${locale}-part`, estimate);

		// Run it under a cap of a quarter of the low end: the plan pauses at the cap, and the
		// estimate, still shown, is refined by the calls that came back (issue 33 item 3).
		const guessed = await source.innerText();
		await page.getByTestId('plan-cap').fill(String(cheap / 4));
		await page.getByTestId('plan-cap').dispatchEvent('change');
		await page.getByRole('button', { name: await t('run', 'run_start') }).click();
		await page.getByTestId('plan-capped').waitFor({ timeout: 120_000 });
		expect(await estimate.getAttribute('data-live')).toBe('true');
		await expect
			.poll(() => estimate.innerText())
			.toContain(await t('plans', 'plans_estimate_live'));
		// A model that answered is priced at its measure now, no longer from the dataset's prompts.
		const live = await estimate.locator('[data-source]').innerText();
		const stillGuessed = MODELS.concat('simulated-user', 'simulated-judge').filter((m) =>
			live.includes(m)
		);
		expect(stillGuessed.length).toBeLessThan(4);
		expect(guessed).not.toBe(live);
		// The paused plan at a laptop's and a phone's width (issue 33: screenshots looked at).
		await e.screenshot(`plan-paused-${locale}-1366`);
		await page.setViewportSize(PHONE);
		await settled(page);
		expect(await controlsOffScreen(page)).toEqual([]);
		await e.screenshot(`plan-paused-${locale}-390`);
		await e.screenshot(`plan-paused-${locale}-390-progress`, page.getByTestId('plan-progress'));
		await page.setViewportSize(LAPTOP);
		await settled(page);

		// No cap: the plan goes on to its end; its calls measure every model, and the estimate says so.
		await page.getByTestId('plan-cap').fill('');
		await page.getByTestId('plan-cap').dispatchEvent('change');
		await planStatus(page, 'done');
		await expect
			.poll(() => source.getAttribute('data-source'), { timeout: 30_000 })
			.toBe('measured');
		expect(await estimate.innerText()).toContain(await t('plans', 'plans_estimate_measured'));
	});
});
