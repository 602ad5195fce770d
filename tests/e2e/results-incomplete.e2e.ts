/**
 * An imported run with a 0-byte stage file (DCG_results.jsonl empty while force_ask.jsonl holds
 * every case) is incomplete, and the Results page says so, naming the empty file: nothing in
 * the browser writes an imported run, so it is never "in progress" or "still being written".
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelDirName, stageFilePath } from '../../src/lib/core/layout';
import { readTree, writeOutputRoot, zipFiles } from '../fixtures/bundles/folder';
import { startBrowser, type E2E } from './browser';
import { go, importZip } from './page-support';

let e2e: E2E;
let zipPath: string;

beforeAll(async () => {
	const root = await writeOutputRoot([{ runId: 'emptied', limit: 6 }]);
	const run = { runId: 'emptied', modelDir: await modelDirName('sim-model-a') };
	await writeFile(join(root, stageFilePath(run, 'DCG_results')), '');
	zipPath = join(await mkdtemp(join(tmpdir(), 'lexpilot-e2e-incomplete-')), 'emptied.zip');
	await writeFile(zipPath, zipFiles(await readTree(root)));
	e2e = await startBrowser();
});

afterAll(async () => {
	await e2e?.close();
});

describe('an imported run with an empty stage file', () => {
	it('is called incomplete, naming the empty file, never still being written', async () => {
		const { page } = e2e;
		await page.goto(`${e2e.url}/`);
		await importZip(page, zipPath);
		await go(page, 'Results', 'Results');
		const notice = page.getByTestId('incomplete-notice');
		await notice.waitFor();
		const text = await notice.innerText();
		expect(text).toContain('Some shown runs are incomplete');
		expect(text).toMatch(
			/run emptied \/ sim-model-a-[0-9a-f]{8}: DCG_results is empty: 0 of 6 records \(for an imported run, the file was empty in the bundle\)/
		);
		await page.getByTestId('run-incomplete').waitFor();
		await page.getByTestId('updated-at').waitFor();
		expect(await page.getByTestId('run-in-progress').count()).toBe(0);
		expect(await page.getByTestId('partial-notice').count()).toBe(0);
		const body = await page.locator('main').innerText();
		expect(body).not.toContain('still being written');
		expect(body).not.toContain('in progress');
		e2e.assertClean();
	});
});
