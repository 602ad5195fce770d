/**
 * A Results link reopens exactly the view: the runs shown, the series (each run or mean ± SD),
 * each class figure's metric, the paired comparison with its class, and the confusion matrices'
 * run and class survive a reload and open the same in a new page from the copied URL. A link
 * with hostile values opens the defaults, without an error.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTree, writeOutputRoot, zipFiles } from '../fixtures/bundles/folder';
import { startBrowser, type E2E } from './browser';
import { go, importZip } from './page-support';

let e2e: E2E;
let zipPath: string;

beforeAll(async () => {
	const root = await writeOutputRoot([
		{ runId: 'first', limit: 6 },
		{ runId: 'second', limit: 6 }
	]);
	zipPath = join(await mkdtemp(join(tmpdir(), 'lexpilot-share-')), 'two-runs.zip');
	await writeFile(zipPath, zipFiles(await readTree(root)));
	e2e = await startBrowser();
});

afterAll(async () => {
	await e2e?.close();
});

/** Everything the view shows that a link must keep. */
async function viewOf(page: Page) {
	const select = (testid: string) => page.getByTestId(testid).inputValue();
	const figureSelect = (figure: string, label: string) =>
		page
			.getByTestId(`figure-${figure}`)
			.locator('label.pick', { hasText: new RegExp(`^${label}`) })
			.locator('select')
			.inputValue();
	await page.getByTestId('compare-table').waitFor();
	await page.getByTestId('confusion-panel').waitFor();
	return {
		mode: await page.locator('input[name=mode]:checked').inputValue(),
		lca: await figureSelect('lca-class', 'Metric'),
		dcg: await figureSelect('dcg-class', 'Rate'),
		ljp: await figureSelect('ljp-class', 'Setup'),
		measure: await figureSelect('ljp-class', 'Measure'),
		compareA: await select('compare-a'),
		compareB: await select('compare-b'),
		who: await page.getByTestId('compare-who').innerText(),
		compareScope: await select('compare-scope'),
		compareCounts: await page.getByTestId('compare-counts').innerText(),
		confusionRun: await select('confusion-run'),
		confusionScope: await select('confusion-scope'),
		confusionCounts: await page.getByTestId('confusion-counts').innerText()
	};
}

/** The second option of a select (the first is the default). */
async function pickSecond(page: Page, testid: string): Promise<string> {
	const select = page.getByTestId(testid);
	const value = await select.locator('option').nth(1).getAttribute('value');
	await select.selectOption(value!);
	return value!;
}

describe('a Results link', () => {
	it('reopens the runs, series, metrics, comparison and class picks, after a reload and in a new page', async () => {
		const { page } = e2e;
		await page.goto(`${e2e.url}/`);
		await importZip(page, zipPath);
		await go(page, 'Results', 'Results');
		await page.getByTestId('figure-lca-overall').locator('td[data-series]').first().waitFor();

		await page.locator('label', { hasText: 'Each run' }).click();
		await page
			.getByTestId('figure-lca-class')
			.locator('label.pick', { hasText: /^Metric/ })
			.locator('select')
			.selectOption('f1_u');
		await page
			.getByTestId('figure-dcg-class')
			.locator('label.pick', { hasText: /^Rate/ })
			.locator('select')
			.selectOption('round1_rate');
		await page
			.getByTestId('figure-ljp-class')
			.locator('label.pick', { hasText: /^Setup/ })
			.locator('select')
			.selectOption('gold');
		await page
			.getByTestId('figure-ljp-class')
			.locator('label.pick', { hasText: /^Measure/ })
			.locator('select')
			.selectOption('accuracy');
		// B − A with the runs the other way round from the default.
		const a = await page.getByTestId('compare-b').inputValue();
		const b = await page.getByTestId('compare-a').inputValue();
		await page.getByTestId('compare-a').selectOption(a);
		await page.getByTestId('compare-b').selectOption(b);
		await page.getByTestId('compare-panel').getByRole('button', { name: 'Compare' }).click();
		await page.getByTestId('compare-table').waitFor();
		const cls = await pickSecond(page, 'compare-scope');
		await page.getByTestId('compare-counts').waitFor();
		await pickSecond(page, 'confusion-run');
		await pickSecond(page, 'confusion-scope');

		const shown = await viewOf(page);
		expect(shown).toMatchObject({ mode: 'runs', lca: 'f1_u', compareA: a, compareB: b });
		expect(shown.compareScope).toBe(cls);
		await expect.poll(() => new URL(page.url()).searchParams.get('class')).toBe(cls);
		const link = page.url();
		for (const param of [
			'mode',
			'lca',
			'dcg',
			'ljp',
			'measure',
			'compare',
			'matrix',
			'matrix_class'
		])
			expect(new URL(link).searchParams.has(param), param).toBe(true);

		await page.reload();
		expect(await viewOf(page)).toEqual(shown);
		expect(page.url()).toBe(link);

		const other = await e2e.context.newPage();
		await other.goto(link);
		expect(await viewOf(other)).toEqual(shown);
		await other.close();
		e2e.assertClean();
	});

	it('opens a link with hostile values as the defaults, without an error', async () => {
		const { page } = e2e;
		const hostile = new URLSearchParams({
			mode: 'evil',
			lca: '<img src=x onerror=alert(1)>',
			compare: '../../etc,passwd',
			class: '\u001b[2J',
			matrix: 'javascript:alert(1)',
			matrix_class: 'x'.repeat(5000)
		});
		await page.goto(`${e2e.url}/results?${hostile}`);
		await page.getByTestId('confusion-panel').waitFor();
		expect(
			await page
				.getByTestId('figure-lca-class')
				.locator('label.pick', { hasText: /^Metric/ })
				.locator('select')
				.inputValue()
		).toBe('macro_f1');
		expect(await page.getByTestId('compare-table').count()).toBe(0);
		expect(await page.getByTestId('confusion-scope').inputValue()).toBe('');
		expect(await page.locator('img[src=x]').count()).toBe(0);
		e2e.assertClean();
	});
});
