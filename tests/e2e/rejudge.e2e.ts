/**
 * The Run page's Re-judge in Chromium: a simulated run made in the browser, re-judged into a new
 * run id by a judge that disagrees (the fake OpenAI server, `contrary-judge-script.ts`). Only
 * judge calls reach the server, one per judged decision; the new run's manifest names its source,
 * and its DCG decisions are the new judge's.
 */
import { mkdir, copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contraryJudgeScript } from '../engine/contrary-judge-script';
import { byTask } from '../fake-openai/by-task';
import { startFakeOpenAI, type FakeOpenAI } from '../fake-openai/server';
import { startBrowser, type E2E } from './browser';
import {
	fillRunForm,
	loadSampleDataset,
	savedManifest,
	storedRows,
	waitForRunStatus
} from './run-support';

/** Where the screenshots are kept for a person to look at. */
const SHOTS = '/tmp/shots-rejudge';

describe('Run page: Re-judge', () => {
	let e: E2E;
	let server: FakeOpenAI;

	beforeAll(async () => {
		e = await startBrowser();
		server = await startFakeOpenAI({ handler: byTask(contraryJudgeScript) });
	});
	afterAll(async () => {
		await e?.close();
		await server?.close();
	});
	afterEach(() => {
		const problems = e.problems.splice(0);
		expect(problems, problems.join('\n')).toEqual([]);
	});

	it('re-judges a simulated run with another judge into a new run, making only judge calls', async () => {
		const { page } = e;
		await loadSampleDataset(page, e.url);
		await page.getByRole('link', { name: 'Models', exact: true }).click();
		await page.getByTestId('mode-simulated').check();
		await fillRunForm(page, { runId: 'e2e-src', limit: 3 });
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'done', 90_000);

		const section = page.getByTestId('rejudge');
		const select = page.getByTestId('rejudge-source');
		// The list is read again when the run ends: wait for the new run in it.
		await page.waitForFunction(
			() =>
				[...document.querySelectorAll('[data-testid="rejudge-source"] option')].some((o) =>
					o.textContent?.trim().startsWith('e2e-src ·')
				),
			null,
			{ timeout: 30_000, polling: 100 }
		);
		const labels = await select.locator('option').allInnerTexts();
		await select.selectOption({ index: labels.findIndex((l) => l.trim().startsWith('e2e-src ·')) });
		expect(await page.getByTestId('rejudge-run-id').inputValue()).toBe('e2e-src-j2');
		expect(await page.getByTestId('rejudge-endpoint').inputValue()).toBe('simulated://offline');
		await page.getByTestId('rejudge-model').fill('judge-2');
		await page.getByTestId('rejudge-endpoint').fill(server.baseURL);
		await expect.poll(() => page.getByTestId('rejudge-problems').count()).toBe(0);
		await page.getByTestId('rejudge-start').click();
		await page.waitForFunction(
			() => {
				const s = document
					.querySelector('[data-testid="rejudge-status"]')
					?.getAttribute('data-status');
				return s === 'done' || s === 'failed';
			},
			null,
			{ timeout: 60_000, polling: 100 }
		);
		const error = await page.locator('[data-testid="rejudge"] [data-testid="run-error"]').count();
		expect(error ? await page.getByTestId('run-error').last().innerText() : '').toBe('');
		expect(await page.getByTestId('rejudge-status').innerText()).toContain(
			'Re-judged into run e2e-src-j2.'
		);

		const manifest = await savedManifest(page, 'e2e-src-j2');
		expect(manifest).toMatchObject({
			simulated: true,
			models: { evaluated: 'simulated', judge: 'judge-2' },
			rejudged_from: {
				run_id: 'e2e-src',
				stages: ['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction']
			}
		});
		const rows = await storedRows<{ runId: string; file: string; json: string }>(
			page,
			'lexpilot-workbench',
			'records'
		);
		const of = (runId: string, file: string) =>
			rows
				.filter((r) => r.runId === runId && r.file === file)
				.map((r) => JSON.parse(r.json) as Record<string, unknown>);
		const dcg = of('e2e-src-j2', 'DCG_results');
		const ljp = ['LJP_direct', 'LJP_gold', 'LJP_interaction'].flatMap((f) => of('e2e-src-j2', f));
		const decisions = of('e2e-src-j2', 'LCA_results').length + 2 * dcg.length + ljp.length;
		expect(decisions).toBe(6 + 6 + 9);
		expect(server.chatRequests.map((r) => r.prompt).filter((p) => p !== 'ping')).toHaveLength(
			decisions
		);
		expect(dcg.every((d) => d.success === false)).toBe(true);
		expect(of('e2e-src-j2', 'interaction')).toEqual(of('e2e-src', 'interaction'));

		await mkdir(SHOTS, { recursive: true });
		for (const width of [1366, 390]) {
			await page.setViewportSize({ width, height: 900 });
			const shot = await e.screenshot(`rejudge-${width}`, section);
			await copyFile(shot, join(SHOTS, `rejudge-${width}.png`));
		}
	});
});
