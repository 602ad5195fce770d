/**
 * The main flow once in each interface language, in a browser whose own language is that one:
 * load the sample, choose the simulated provider, run, read the results, open a case in the
 * inspector, export the run as a bundle. On every page the headings, buttons and status are in
 * that language (the expected texts are read from messages/<area>/<locale>.json), no English
 * interface text is left on a Chinese page and no Chinese interface text on an English one.
 */
import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startBrowser, type E2E } from './browser';
import {
	go,
	LAPTOP,
	languageChecker,
	message,
	PAPER_TERMS,
	type LanguageCheck
} from './i18n-support';
import { waitForRunStatus } from './run-support';

const AREAS = ['', 'dataset', 'models', 'run', 'results', 'inspect', 'bundles', 'core'];
/** Data and the paper's terms, the same in both languages. */
const KEPT = [...PAPER_TERMS, 'lexpilot-sample.json', 'flow-run', 'simulated'];

let check: LanguageCheck;
let e: E2E | undefined;

beforeAll(async () => {
	check = await languageChecker(AREAS);
});

afterEach(async () => {
	await e?.close();
	e = undefined;
});

describe.each(['zh-CN', 'en'] as const)('the main flow in %s', (locale) => {
	const t = (area: string, key: string, values?: Record<string, string | number>) =>
		message(area, locale, key, values);
	/** The page speaks `locale`: nothing of the other language is left in its main area. */
	async function speaks(page: Page, name: string) {
		const left =
			locale === 'zh-CN'
				? await check.englishLeft(page, KEPT)
				: await check.chineseLeft(page, KEPT);
		expect(left, `${name} in ${locale}`).toEqual([]);
		await e!.screenshot(`i18n-flow-${name}-${locale}`);
	}
	const nav = async (page: Page, key: string, heading: string) =>
		go(page, await t('', key), heading);

	it('loads the sample, runs it offline, reads the results, inspects a case, exports', async () => {
		e = await startBrowser({ locale, viewport: LAPTOP });
		const { page } = e;
		await page.goto(`${e.url}/`);
		await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(locale);

		// Dataset: the sample.
		await nav(page, 'nav_dataset', await t('dataset', 'dataset_title'));
		await page.getByRole('button', { name: await t('dataset', 'dataset_load_sample') }).click();
		await page.getByTestId('summary-stats').waitFor();
		await speaks(page, 'dataset');

		// Models: the simulated provider.
		await nav(page, 'nav_models', await t('models', 'models_title'));
		await page.getByTestId('mode-simulated').check();
		await page.getByText(await t('models', 'models_mode_sim'), { exact: true }).waitFor();
		await speaks(page, 'models');

		// Run: every stage on the whole sample.
		await nav(page, 'nav_run', await t('run', 'run_title'));
		await page.getByTestId('run-id').fill('flow-run');
		const start = page.getByRole('button', { name: await t('run', 'run_start') });
		await start.click();
		await waitForRunStatus(page, 'done', 90_000);
		expect(await page.getByTestId('run-status').innerText()).toBe(
			await t('run', 'run_status_done')
		);
		await speaks(page, 'run');

		// Results: figures of the run, intervals computed.
		await nav(page, 'nav_results', await t('results', 'results_title'));
		await expect
			.poll(() => page.getByTestId('ci-status').getAttribute('data-status'), { timeout: 30_000 })
			.toBe('ready');
		expect(await page.getByTestId('ci-status').innerText()).toBe(
			await t('results', 'results_ci_ready')
		);
		for (const key of ['results_section_lca', 'results_section_dcg', 'results_section_ljp']) {
			await page
				.getByRole('heading', { name: await t('results', key), level: 2, exact: true })
				.waitFor();
		}
		expect(
			await page.getByTestId('figure-lca-overall').locator('h3').first().innerText()
		).toContain(await t('results', 'results_fig_lca_title'));
		await page
			.getByRole('button', { name: await t('results', 'results_download_report') })
			.waitFor();
		await speaks(page, 'results');

		// Inspect: from the run's link on the Results page, then one case.
		await page.getByRole('link', { name: await t('results', 'results_inspect_cases') }).click();
		await page
			.getByRole('heading', { name: await t('inspect', 'inspect_heading'), level: 1 })
			.waitFor();
		const table = page.getByTestId('case-table');
		await table.waitFor();
		const first = table.locator('tbody tr[data-case]').first();
		const caseNumber = (await first.getAttribute('data-case'))!;
		await first.locator('a').click();
		await expect.poll(() => page.getByTestId('case-number').innerText()).toBe(caseNumber);
		await speaks(page, 'inspect');

		// Bundles: export the run.
		await nav(page, 'nav_bundles', await t('bundles', 'bundles_title'));
		await page.getByRole('checkbox', { name: await t('bundles', 'bundles_select_all') }).check();
		const exportButton = page.getByRole('button', {
			name: await t('bundles', 'bundles_export_one')
		});
		const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
		expect(download.suggestedFilename()).toMatch(/^lexpilot-flow-run-.+\.zip$/);
		const files = unzipSync(new Uint8Array(await readFile((await download.path())!)));
		const paths = Object.keys(files);
		expect(paths.some((p) => /^runs\/flow-run\/[^/]+\/manifest\.json$/.test(p))).toBe(true);
		expect(paths.filter((p) => p.startsWith('eval_results/flow-run/'))).toHaveLength(5);
		await speaks(page, 'bundles');
		e.assertClean();
	});
});
