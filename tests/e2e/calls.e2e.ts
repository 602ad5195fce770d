/**
 * The call log in Chromium: a run written by the engine through the CLI's file store is imported
 * with its calls.jsonl → Inspect shows, under a case's first response, the exact prompt sent and
 * the judge's raw answer as saved in the log → Results shows the run's call totals → export
 * gives back the log's bytes. A bundle without the log imports too, and Inspect says why.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallLogEntry } from '../../src/lib/core/calls/schema';
import { readTree, writeOutputRoot, zipFiles } from '../fixtures/bundles/folder';
import { startBrowser, type E2E } from './browser';
import { exportRun, go, importZip } from './page-support';

let e2e: E2E;
let tree: Map<string, Uint8Array>;
let callsPath: string;
let calls: CallLogEntry[];
let withLog: string;
let withoutLog: string;
const tmp = () => mkdtemp(join(tmpdir(), 'lexpilot-e2e-calls-'));

beforeAll(async () => {
	const root = await writeOutputRoot([{ runId: 'logged', limit: 3 }]);
	tree = await readTree(root);
	callsPath = [...tree.keys()].find((p) => p.endsWith('/calls.jsonl'))!;
	calls = new TextDecoder()
		.decode(tree.get(callsPath))
		.split('\n')
		.filter(Boolean)
		.map((line) => JSON.parse(line) as CallLogEntry);
	const dir = await tmp();
	withLog = join(dir, 'with-log.zip');
	await writeFile(withLog, zipFiles(tree));
	// The same run under another id, without its log: as bundles of older versions are.
	const old = await writeOutputRoot([{ runId: 'nolog', limit: 3 }]);
	const oldTree = await readTree(old);
	for (const path of [...oldTree.keys()]) if (path.endsWith('/calls.jsonl')) oldTree.delete(path);
	withoutLog = join(dir, 'without-log.zip');
	await writeFile(withoutLog, zipFiles(oldTree));
	e2e = await startBrowser();
});

afterAll(async () => {
	await e2e?.close();
});

describe('the call log in the browser', () => {
	it('imports bundles with and without a call log', async () => {
		await e2e.page.goto(`${e2e.url}/`);
		await importZip(e2e.page, withLog);
		await expect(e2e.page.getByTestId('bundle-outcome').innerText()).resolves.toContain(
			`a call log of ${calls.length} calls`
		);
		await importZip(e2e.page, withoutLog);
		await expect(e2e.page.getByTestId('bundle-outcome').innerText()).resolves.toContain(
			'no call log'
		);
		e2e.assertClean();
	});

	it('Inspect shows the exact prompt and the raw judge output of a case', async () => {
		const { page } = e2e;
		const key = callsPath.split('/').slice(1, 3).join('/');
		const first = calls.find((c) => c.task === 'lexawn' && c.history_type === 'complete')!;
		const judge = calls.find(
			(c) =>
				c.task === 'judge_lca' &&
				c.history_type === 'complete' &&
				String(c.case_number) === String(first.case_number)
		)!;
		await page.goto(
			`${e2e.url}/inspect?run=${encodeURIComponent(key)}&case=${encodeURIComponent(String(first.case_number))}`
		);
		await page.getByTestId('first-responses').waitFor();
		const details = page.getByTestId('first-responses').getByTestId('call-details').first();
		await expect(details.locator(':scope > summary').innerText()).resolves.toMatch(
			/Show the exact prompt \/ raw output \/ judge's raw answer/
		);
		// Collapsed until asked.
		expect(await details.getByTestId('call-prompt').isVisible()).toBe(false);
		await details.locator(':scope > summary').click();
		const prompt = await details.getByTestId('call-prompt').innerText();
		// Long prompts are cut on screen until "Show all"; the start is the exact text sent.
		if (first.prompt.length > 4000) {
			await details
				.getByRole('button', { name: /Show all/ })
				.first()
				.click();
		}
		expect((await details.getByTestId('call-prompt').innerText()).trim()).toBe(first.prompt.trim());
		expect(prompt.length).toBeGreaterThan(0);
		expect((await details.getByTestId('call-raw').innerText()).trim()).toBe(
			(first.raw_content ?? first.response ?? '').trim()
		);
		expect((await details.getByTestId('judge-raw').innerText()).trim()).toBe(
			(judge.response ?? '').trim()
		);
		await expect(details.getByTestId('call-meta').first().innerText()).resolves.toMatch(
			/prompt \+ \d[\d,]* completion tokens/
		);
		expect(await page.getByTestId('no-calls').count()).toBe(0);
		await e2e.screenshot('inspect-calls');
		e2e.assertClean();
	});

	it('Inspect says when a run has no call log', async () => {
		const { page } = e2e;
		await page.goto(`${e2e.url}/inspect`);
		await page.getByTestId('run-select').waitFor();
		const option = await page
			.getByTestId('run-select')
			.locator('option', { hasText: 'nolog' })
			.getAttribute('value');
		await page.getByTestId('run-select').selectOption(option!);
		await page.getByTestId('no-calls').waitFor();
		expect(await page.getByTestId('call-details').count()).toBe(0);
		// Made by a workbench that keeps the log (the engine's own), so the log was lost, not
		// older than the run: Inspect does not say the run predates it.
		const said = page.getByTestId('no-calls');
		await expect(said.getAttribute('data-reason')).resolves.toBe('missing');
		await expect(said.innerText()).resolves.toMatch(/was not exported or imported with the run/);
		await expect(said.innerText()).resolves.not.toMatch(/predates/);
		e2e.assertClean();
	});

	it('Results shows the call totals of the run with a log', async () => {
		const { page } = e2e;
		await go(page, 'Results', 'Results');
		await page.getByTestId('calls-section').waitFor();
		const tables = page.getByTestId('call-totals');
		const logged = tables.filter({ hasText: 'logged' });
		await expect(logged.locator('h3').innerText()).resolves.toContain(
			`${calls.length.toLocaleString('en')} calls`
		);
		await expect(tables.filter({ hasText: 'nolog' }).innerText()).resolves.toContain(
			'No call log for this run'
		);
		e2e.assertClean();
	});

	it('exports the call log with the run, byte for byte', async () => {
		const { page } = e2e;
		const saved = await exportRun(page, /^Select logged/, await tmp());
		const files = unzipSync(new Uint8Array(await readFile(saved)));
		expect(files[callsPath]).toEqual(tree.get(callsPath));
		e2e.assertClean();
	});
});
