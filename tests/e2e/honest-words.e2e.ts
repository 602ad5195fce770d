/**
 * What the Models, Prompts and Run pages say is true, in both languages, at 1366 and 390 px:
 * a simulated run names simulated user and judge ids (on the page and in its manifest) and its
 * Test connection is answered by the simulated provider as an endpoint answers, saying what it is; a port the browser blocks is named as
 * blocked; the paper's default ids are flagged with ids the preset's provider serves; an edited
 * pack is named edited and Reset asks first; a refusal after a prompt edit names only the
 * prompts; and after a resume the Progress card shows the run's totals with this start's part.
 */
import type { Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { startBrowser, type E2E } from './browser';
import { go, LAPTOP, message, nextFrame, PHONE } from './i18n-support';
import { savedManifest, waitForRunStatus } from './run-support';

let e: E2E | undefined;

afterEach(async () => {
	await e?.close();
	e = undefined;
});

/** The numbers of the tokens table's cells of `role`: the run's and this start's. */
async function roleCells(page: Page, role: string) {
	const cells = page.getByTestId('tokens-table').locator(`tr[data-role="${role}"] td.num`);
	return cells.evaluateAll((tds) =>
		tds.map((td) => ({
			run: Number(td.getAttribute('data-run')),
			since: td.hasAttribute('data-since') ? Number(td.getAttribute('data-since')) : null
		}))
	);
}

describe.each(['zh-CN', 'en'] as const)('honest words in %s', (locale) => {
	const t = (area: string, key: string, values?: Record<string, string | number>) =>
		message(area, locale, key, values);
	const nav = async (page: Page, key: string, area: string, title: string) =>
		go(page, await t('', key), await t(area, title));
	/** Screenshots of the page as it is, at 1366 and at 390 px wide (and of `focus` there). */
	async function shots(page: Page, name: string, focus?: Locator) {
		await e!.screenshot(`honest-${name}-${locale}-1366`);
		await page.setViewportSize(PHONE);
		await nextFrame(page);
		await e!.screenshot(`honest-${name}-${locale}-390`);
		if (focus) await e!.screenshot(`honest-${name}-${locale}-390-part`, focus);
		await page.setViewportSize(LAPTOP);
		await nextFrame(page);
	}

	it('says what is true on the Models, Prompts and Run pages', { timeout: 240_000 }, async () => {
		e = await startBrowser({ locale, viewport: LAPTOP });
		const { page } = e;
		await page.goto(`${e.url}/`);
		await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(locale);

		// Models, real endpoints: the paper's ids are flagged, with the ids OpenAI serves.
		await nav(page, 'nav_models', 'models', 'models_title');
		const paper = page.getByTestId('paper-name-judge');
		expect(await paper.innerText()).toContain(
			await t('models', 'models_paper_name', { id: 'DeepSeek-R1' })
		);
		// A port the browser refuses is named as such, with ports to use; nothing is sent.
		await page.getByTestId('base-url-default').fill('http://127.0.0.1:9/v1');
		await page.getByTestId('model-evaluated').fill('any-model');
		await page.getByTestId('test-evaluated').click();
		const blocked = page.getByTestId('role-evaluated').getByTestId('connection-result');
		await blocked.waitFor();
		const said = await blocked.innerText();
		expect(said).toContain(
			await t('models', 'models_port_blocked', { port: 9, url: 'http://127.0.0.1:9/v1' })
		);
		expect(said).toContain(
			await t('models', 'models_port_blocked_hint', { ports: '8000, 8080, 11434, 1234' })
		);
		await shots(page, 'models-api', page.getByTestId('role-evaluated'));
		await page.getByTestId('use-served-judge').click();
		expect(await page.getByTestId('model-judge').inputValue()).toBe('gpt-4.1');
		expect(await paper.count()).toBe(0);

		// Simulated: user and judge are simulated ids; Test connection is answered in the page.
		await page.getByTestId('mode-simulated').check();
		expect(await page.getByTestId('model-user').inputValue()).toBe('simulated-user');
		expect(await page.getByTestId('model-judge').inputValue()).toBe('simulated-judge');
		// It answers as an endpoint does (its model, where, how long), and says it is the simulated one.
		await page.getByTestId('test-user').click();
		const simulated = page.getByTestId('role-user').getByTestId('connection-result');
		await expect.poll(() => simulated.getAttribute('data-status')).toBe('ok');
		expect(await simulated.innerText()).toContain(await t('models', 'models_result_ok'));
		const answered = await simulated.getByTestId('connection-message').innerText();
		const ms = Number(/(\d+)/.exec(answered.replace('simulated-user', ''))?.[1]);
		expect(answered).toBe(
			await t('core', 'core_conn_ok', { model: 'simulated-user', url: 'simulated://offline', ms })
		);
		expect(await simulated.getByTestId('connection-simulated').innerText()).toBe(
			await t('models', 'models_sim_test')
		);
		expect(await simulated.getByTestId('connection-simulated-badge').innerText()).toBe(
			await t('models', 'models_sim_test_badge')
		);
		await shots(page, 'models-simulated', page.getByTestId('role-user'));

		// Dataset: the sample.
		await nav(page, 'nav_dataset', 'dataset', 'dataset_title');
		await page.getByRole('button', { name: await t('dataset', 'dataset_load_sample') }).click();
		await page.getByTestId('summary-stats').waitFor();

		// Run gen on two cases, then resume the same run with dcg: the card shows the run's totals.
		await nav(page, 'nav_run', 'run', 'run_title');
		await page.getByTestId('run-id').fill('honest');
		await page.getByTestId('run-limit').fill('2');
		for (const stage of ['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction']) {
			await page.getByTestId(`stage-${stage}`).setChecked(stage === 'gen');
		}
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'done', 90_000);
		const manifest = (await savedManifest(page, 'honest')) as { models: Record<string, string> };
		expect(manifest.models).toEqual({
			evaluated: 'simulated',
			user: 'simulated-user',
			judge: 'simulated-judge'
		});
		const first = await roleCells(page, 'evaluated');
		expect(first[0].since).toBeNull();
		expect(await page.getByTestId('tokens-since-note').count()).toBe(0);

		await page.getByTestId('stage-gen').setChecked(false);
		await page.getByTestId('stage-dcg').setChecked(true);
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'done', 90_000);
		const after = await roleCells(page, 'evaluated');
		// calls, prompt tokens, completion tokens: the run's are the first start's plus this one's.
		for (const [i, cell] of after.entries()) {
			expect(cell.since).not.toBeNull();
			expect(cell.since).toBeGreaterThan(0);
			expect(cell.run).toBe(first[i].run + cell.since!);
		}
		expect(await page.getByTestId('tokens-since-note').innerText()).toBe(
			await t('run', 'run_tokens_since_note')
		);
		await page.getByTestId('overall-run-calls').waitFor();
		await shots(page, 'run-resumed', page.getByTestId('run-progress'));

		// Prompts: an edit names the pack edited; Reset asks first.
		await nav(page, 'nav_prompts', '', 'prompts_title');
		await page.getByTestId('template-force_judge').click();
		const text = page.getByTestId('template-text');
		await text.fill(`请认真阅读。${await text.inputValue()}`);
		await page.getByTestId('template-save').click();
		const name = page.getByLabel(await t('', 'prompts_name'), { exact: true });
		await expect.poll(() => name.inputValue()).toBe('lexpilot-workbench-default-edited');
		await page.getByTestId('pack-reset').click();
		await page.getByTestId('pack-reset-confirm').waitFor();
		await shots(page, 'prompts-reset-confirm', page.getByTestId('pack-card'));
		await page.getByTestId('pack-reset-no').click();
		expect(await name.inputValue()).toBe('lexpilot-workbench-default-edited');

		// Run: the edited pack refuses the saved run, naming the prompts only.
		await nav(page, 'nav_run', 'run', 'run_title');
		await page.getByTestId('run-id').fill('honest');
		const differences = page.getByTestId('run-id-differences');
		await differences.waitFor();
		const lines = await differences.locator('li').allInnerTexts();
		expect(lines).toHaveLength(1);
		const promptsLine = await t('run', 'run_diff_prompts', { saved: '', now: '' });
		expect(lines[0]).toContain(promptsLine.slice(0, promptsLine.indexOf('…') - 1).trim());
		await shots(page, 'run-refused', page.getByTestId('run-id-note'));

		// Back to the default pack, after confirming.
		await nav(page, 'nav_prompts', '', 'prompts_title');
		await page.getByTestId('pack-reset').click();
		await page.getByTestId('pack-reset-yes').click();
		await expect.poll(() => name.inputValue()).toBe('lexpilot-workbench-default');
		e.assertClean();
	});
});
