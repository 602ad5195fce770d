/**
 * Importing in the browser: a CLI output folder (webkitdirectory), a run cut off mid-stage
 * (partial figures labelled n/N, the run incomplete), a second import of the same runs (refused,
 * then replaced only after an explicit confirmation), a hostile archive (refused whole, naming
 * each problem, with nothing stored touched), and deleting a run.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelDirName, stageFilePath } from '../../src/lib/core/layout';
import { readTree, writeOutputRoot, zipFiles } from '../fixtures/bundles/folder';
import { startBrowser, type E2E } from './browser';

let e2e: E2E;
let root: string;

beforeAll(async () => {
	root = await writeOutputRoot([
		{ runId: 'done', limit: 6 },
		{ runId: 'running', limit: 6, model: 'sim-model-b' }
	]);
	// The second run was cut off: LJP_gold has 2 of its 6 cases.
	const path = join(
		root,
		stageFilePath({ runId: 'running', modelDir: await modelDirName('sim-model-b') }, 'LJP_gold')
	);
	const lines = (await readFile(path, 'utf8')).split('\n').slice(0, 2);
	await writeFile(path, `${lines.join('\n')}\n`);
	e2e = await startBrowser();
});

afterAll(async () => {
	await e2e?.close();
});

async function openBundles(page: Page) {
	await page.goto(`${e2e.url}/`);
	await page.getByRole('link', { name: 'Bundles', exact: true }).click();
	await page.getByRole('heading', { name: 'Bundles', level: 1 }).waitFor();
}

const outcome = (page: Page) => page.getByTestId('bundle-outcome');

describe('bundle import', () => {
	it('imports a CLI output folder, and shows an unfinished run as partial n/N and incomplete', async () => {
		const { page } = e2e;
		await openBundles(page);
		await page.locator('#bundle-folder').setInputFiles(root);
		await outcome(page).filter({ hasText: 'Imported' }).waitFor();
		expect(await outcome(page).innerText()).toContain(`Imported 2 runs from ${basename(root)}`);

		await page.getByRole('link', { name: 'Results', exact: true }).click();
		const gold = page.getByTestId('figure-ljp-accuracy');
		await gold.locator('td[data-series]').first().waitFor();
		await gold.getByTestId('partial-badge').waitFor();
		const notes = await gold.getByTestId('table-notes').innerText();
		expect(notes).toContain(
			'partial 2/6: running has 2 of 6 cases of LJP_gold so far; the figure is over those'
		);
		// Nothing writes an imported run: incomplete, not "still being written".
		await page.getByTestId('incomplete-notice').waitFor();
		expect(await page.getByTestId('partial-notice').count()).toBe(0);
		// A complete figure of the same run carries no partial mark.
		expect(await page.getByTestId('figure-dcg-overall').getByTestId('partial-badge').count()).toBe(
			0
		);
		await e2e.screenshot('results-partial');
		e2e.assertClean();
	});

	it('refuses the same runs a second time, and replaces them only after confirmation', async () => {
		const { page } = e2e;
		await openBundles(page);
		await page.locator('#bundle-folder').setInputFiles(root);
		await outcome(page).filter({ hasText: 'was not imported' }).waitFor();
		const text = await outcome(page).innerText();
		expect(text).toMatch(/2 of its runs are in this browser already/);
		expect(text).toMatch(/run done \/ sim-model-a-[0-9a-f]{8} is stored already/);
		expect(text).toContain('Nothing was imported and nothing stored was changed.');

		const confirm = page.getByTestId('replace-confirm');
		const replace = confirm.getByRole('button', { name: 'Replace and import' });
		expect(await replace.isDisabled()).toBe(true);
		await confirm.getByRole('checkbox').check();
		await replace.click();
		await outcome(page).filter({ hasText: 'replacing the stored ones' }).waitFor();
		expect(await page.getByTestId('stored-runs').locator('tbody tr').count()).toBe(2);
		e2e.assertClean();
	});

	it('refuses a hostile archive whole, naming every problem, and keeps what is stored', async () => {
		const { page } = e2e;
		const files = await readTree(root);
		const hostile = new Map<string, Uint8Array | string>(
			[...files].filter(([p]) => !p.startsWith('runs/done/'))
		);
		hostile.set('../../outside.txt', 'x');
		hostile.set('notes/readme.txt', 'x');
		const zip = join(await mkdtemp(join(tmpdir(), 'lexpilot-e2e-hostile-')), 'hostile.zip');
		await writeFile(zip, zipFiles(hostile));

		await openBundles(page);
		await page.locator('#bundle-file').setInputFiles(zip);
		await outcome(page).filter({ hasText: 'Nothing was imported.' }).waitFor();
		const text = await outcome(page).innerText();
		expect(text).toContain('hostile.zip cannot be imported (3 problems). Nothing was imported.');
		expect(text).toContain('../../outside.txt: points outside the bundle (..)');
		expect(text).toContain('notes/readme.txt: not a file of the canonical layout');
		expect(text).toMatch(/runs\/done\/sim-model-a-[0-9a-f]{8}\/manifest\.json is missing/);
		expect(await page.getByTestId('stored-runs').locator('tbody tr').count()).toBe(2);
		await e2e.screenshot('bundles-refused');
		e2e.assertClean();
	});

	it('deletes a run after confirmation', async () => {
		const { page } = e2e;
		const rows = page.getByTestId('stored-runs').locator('tbody tr');
		await rows.first().getByRole('button', { name: 'Delete…' }).click();
		await rows.first().getByRole('button', { name: 'Delete', exact: true }).click();
		await outcome(page).filter({ hasText: 'Deleted run done' }).waitFor();
		await expect.poll(() => rows.count()).toBe(1);
		e2e.assertClean();
	});
});
