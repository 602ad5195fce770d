/**
 * The app shell anywhere: the whole simulated flow under a sub-path, the offline shell (service
 * worker) after a first visit, a new deploy's reload notice (held back during a run), and the
 * 404 page inside the layout.
 */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { startBrowser, type E2E } from './browser';
import { fillRunForm, loadSampleDataset, savedRecords, waitForRunStatus } from './run-support';
import { exportRun, go } from './page-support';

const BUILD = resolve(import.meta.dirname, '../../build');
let e: E2E | undefined;

afterEach(async () => {
	await e?.close();
	e = undefined;
});

/** Loads the sample, picks the simulated provider and runs `runId` on `limit` cases to the end. */
async function simulatedRun(page: Page, url: string, runId: string, limit: number) {
	await loadSampleDataset(page, url);
	await go(page, 'Models', 'Models & settings');
	await page.getByTestId('mode-simulated').check();
	await fillRunForm(page, { runId, limit });
	await page.getByTestId('start').click();
	await waitForRunStatus(page, 'done', 90_000);
}

/** Resolves once a service worker controls the page (after the first visit and a reload). */
async function waitForController(page: Page) {
	await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
	if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) {
		await page.reload();
		await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
	}
}

describe('the app shell', () => {
	it('runs the whole simulated flow under a sub-path: dataset → models → run → results → inspect → export', async () => {
		e = await startBrowser({ base: '/tools/lexpilot' });
		const { page } = e;
		await simulatedRun(page, e.url, 'sub-path', 4);
		expect(new URL(page.url()).pathname).toBe('/tools/lexpilot/run');
		expect((await savedRecords(page, 'sub-path')).LJP_interaction).toHaveLength(4);

		await go(page, 'Results', 'Results');
		await page.getByTestId('figure-lca-overall').locator('td[data-series]').first().waitFor();
		await go(page, 'Inspect', 'Case inspector');
		await page.getByTestId('case-number').waitFor();
		expect(await page.getByTestId('ljp-table').locator('tbody tr').count()).toBeGreaterThan(0);

		const saved = await exportRun(
			page,
			/^Select every run$/,
			await mkdtemp(join(tmpdir(), 'lexpilot-e2e-shell-'))
		);
		const zip = unzipSync(new Uint8Array(await readFile(saved)));
		expect(Object.keys(zip).filter((p) => p.endsWith('manifest.json'))).toHaveLength(1);
		expect(Object.keys(zip).some((p) => p.startsWith('eval_results/sub-path/'))).toBe(true);
		e.assertClean();
	});

	it('works offline after the first visit: reload with the server gone, load the sample, run simulated', async () => {
		e = await startBrowser({ base: '/lexpilot' });
		const { page, context } = e;
		await page.goto(`${e.url}/`);
		await waitForController(page);

		await e.stopServer();
		await context.setOffline(true);
		await page.goto(`${e.url}/dataset`);
		await page.getByRole('heading', { name: 'Dataset', level: 1 }).waitFor();
		await simulatedRun(page, e.url, 'offline', 3);
		expect((await savedRecords(page, 'offline')).DCG_results).toHaveLength(3);
		// A route that was never visited opens from the cache too.
		await page.goto(`${e.url}/prompts`);
		await page.getByRole('heading', { name: 'Prompts', level: 1 }).waitFor();
		await e.screenshot('offline-prompts');
		await context.setOffline(false);
		// The only failures are the server being gone: no asset was missing from the cache.
		e.problems.splice(0);
	});

	it('shows a new deploy as "new version — reload", never during a run, and reloads into it', async () => {
		const dir = await mkdtemp(join(tmpdir(), 'lexpilot-deploy-'));
		await cp(BUILD, dir, { recursive: true });
		e = await startBrowser({ dir });
		const { page } = e;
		await page.goto(`${e.url}/`);
		await waitForController(page);
		const notice = page.getByTestId('update-notice');
		expect(await notice.count()).toBe(0);

		// A run in flight when the new version arrives...
		await loadSampleDataset(page, e.url);
		await go(page, 'Models', 'Models & settings');
		await page.getByTestId('mode-simulated').check();
		await fillRunForm(page, { runId: 'during-deploy' });
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'running');

		const worker = join(dir, 'service-worker.js');
		await writeFile(worker, `${await readFile(worker, 'utf8')}\n// deploy 2\n`);
		await page.evaluate(async () => {
			const registration = await navigator.serviceWorker.getRegistration();
			await registration!.update();
		});
		await page.waitForFunction(async () => {
			const registration = await navigator.serviceWorker.getRegistration();
			return registration?.waiting !== null && registration?.waiting !== undefined;
		});
		// ...holds the notice back until the run is over.
		const status = await page.getByTestId('run-status').getAttribute('data-status');
		if (status !== 'done') expect(await notice.count()).toBe(0);
		await waitForRunStatus(page, 'done', 90_000);
		await notice.waitFor();
		await e.screenshot('update-notice', notice);

		const before = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);
		await Promise.all([
			page.waitForEvent('load'),
			notice.getByRole('button', { name: 'Reload' }).click()
		]);
		await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
		const registration = await page.evaluate(async () => {
			const r = await navigator.serviceWorker.getRegistration();
			return { waiting: r?.waiting !== null, active: r?.active?.state };
		});
		expect(registration).toEqual({ waiting: false, active: 'activated' });
		expect(before).toBeDefined();
		expect(await notice.count()).toBe(0);
		e.assertClean();
	});

	it('shows a 404 page inside the layout, with its own title and a way home', async () => {
		// The fallback names its assets from the root the build was made for (BASE_PATH).
		e = await startBrowser();
		const { page } = e;
		await page.goto(`${e.url}/no-such-page`);
		await page.getByRole('heading', { name: 'Page not found', level: 1 }).waitFor();
		expect(await page.title()).toBe('Page not found · LexPilot Workbench');
		expect(await page.getByTestId('error-page').innerText()).toContain('/no-such-page');
		await page.getByRole('navigation', { name: 'Main' }).waitFor();
		await e.screenshot('not-found');
		await page.getByRole('link', { name: 'Go to the start page' }).click();
		await page.waitForURL(`${e.url}/`);
		expect(await page.title()).not.toContain('not found');
	});
});

describe('the interface language', () => {
	it('follows a Chinese browser on the first visit, switches in the header at once, and is remembered', async () => {
		e = await startBrowser({ locale: 'zh-CN' });
		const { page } = e;
		await page.goto(`${e.url}/`);
		const nav = page.getByRole('navigation', { name: '主导航' });
		await nav.getByRole('link', { name: '数据集', exact: true }).waitFor();
		expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
		await e.screenshot('home-zh');

		await page.getByTestId('language').selectOption('en');
		await page
			.getByRole('navigation', { name: 'Main' })
			.getByRole('link', { name: 'Dataset', exact: true })
			.waitFor();
		expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('LexPilot Workbench');
		expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');

		await page.reload();
		await page
			.getByRole('navigation', { name: 'Main' })
			.getByRole('link', { name: 'Dataset', exact: true })
			.waitFor();
		expect(await page.getByTestId('language').inputValue()).toBe('en');
		e.assertClean();
	});
});
