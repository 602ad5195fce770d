/**
 * The Content-Security-Policy of the built site (browser side): every page of
 * build/ carries a strict policy, Chromium enforces it against injected script of every kind,
 * and normal use of every page never trips it.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageProblems } from '../unit/security/csp-policy';
import { startBrowser, type E2E } from './browser';
import { fillRunForm, loadSampleDataset, waitForRunStatus } from './run-support';

const BUILD = resolve(import.meta.dirname, '../../build');
const PAGES = ['dataset', 'models', 'prompts', 'run', 'results', 'inspect', 'bundles'];

describe('Content-Security-Policy of the built pages', () => {
	it('every page of build/ has one strict policy <meta> ahead of its scripts, hashes matching its inline scripts', async () => {
		if (!existsSync(join(BUILD, 'index.html'))) {
			throw new Error(`${BUILD}/index.html is missing: run "npm run build" before the e2e tests`);
		}
		const html = (await readdir(BUILD)).filter((f) => f.endsWith('.html')).sort();
		expect(html).toEqual(
			expect.arrayContaining(['index.html', '404.html', ...PAGES.map((p) => `${p}.html`)])
		);
		const problems: string[] = [];
		for (const file of html) {
			for (const p of pageProblems(await readFile(join(BUILD, file), 'utf8'))) {
				problems.push(`build/${file}: ${p}`);
			}
		}
		expect(problems).toEqual([]);
	});
});

describe('Content-Security-Policy in Chromium', () => {
	let e: E2E;
	beforeAll(async () => {
		e = await startBrowser();
	});
	afterAll(async () => {
		await e?.close();
	});

	it('blocks injected inline script, event handlers, javascript: and data: URLs and string eval', async () => {
		const { page } = e;
		await page.goto(`${e.url}/dataset`);
		await page.getByRole('heading', { level: 1 }).waitFor();
		// page.evaluate itself runs through DevTools, outside the policy; what it plants in the
		// page runs as the page's own code would, under the policy.
		const { ran, refused } = await page.evaluate(async () => {
			const w = window as unknown as Record<string, unknown>;
			// Every attempt below is refused with a violation event; waiting for all five is waiting
			// for the moment each would have run.
			const refused: string[] = [];
			let heard = () => {};
			const allHeard = new Promise<void>((resolve) => (heard = resolve));
			document.addEventListener('securitypolicyviolation', (e) => {
				refused.push(`${e.violatedDirective} ${e.blockedURI || 'inline'}`);
				if (refused.length === 5) heard();
			});
			const script = document.createElement('script');
			script.textContent = 'window.__inline = 1';
			document.body.append(script);
			const div = document.createElement('div');
			div.setAttribute('onclick', 'window.__handler = 1');
			document.body.append(div);
			div.click();
			const link = document.createElement('a');
			link.href = 'javascript:window.__jsurl = 1';
			document.body.append(link);
			link.click();
			const data = document.createElement('script');
			data.src = 'data:text/javascript,window.__dataurl=1';
			document.body.append(data);
			// A string timer is eval; it would run in the page's own context before a timer set
			// after it with the same delay.
			(setTimeout as (code: string, ms: number) => number)('window.__eval = 1', 0);
			await new Promise((r) => setTimeout(r, 0));
			// Only a bound for a failing run: the check below then names what was not refused.
			await Promise.race([allHeard, new Promise((r) => setTimeout(r, 10_000))]);
			const ran = ['__inline', '__handler', '__jsurl', '__dataurl', '__eval'].filter((k) => k in w);
			return { ran, refused };
		});
		expect(ran).toEqual([]);
		expect(refused.sort()).toEqual(
			[
				'script-src-attr inline',
				'script-src-elem data',
				'script-src-elem inline',
				'script-src-elem inline',
				'script-src eval'
			].sort()
		);
		// Each was also reported through the listener the other tests rely on to catch violations.
		for (const blocked of [
			'script-src-elem blocked inline',
			'script-src-attr blocked inline',
			'script-src-elem blocked data',
			'script-src blocked eval'
		]) {
			await expect
				.poll(() => e.problems.filter((p) => p.includes('CSP violation')).join('\n'))
				.toContain(blocked);
		}
		e.problems.splice(0);
	});

	it('reports no violation, console error or failed request in normal use of every page', async () => {
		const { page } = e;
		// Each page loaded from its own HTML file (its own policy), then used through the app.
		for (const p of PAGES) {
			await page.goto(`${e.url}/${p}`);
			await page.getByRole('heading', { level: 1 }).waitFor();
		}
		await loadSampleDataset(page, e.url);
		await page.getByTestId('case-detail').waitFor();

		await page.getByRole('link', { name: 'Prompts', exact: true }).click();
		await page.getByTestId('template-judge_extract').click();
		await page.getByTestId('template-text').waitFor();

		await page.getByRole('link', { name: 'Models', exact: true }).click();
		await page.getByTestId('mode-simulated').check();
		await fillRunForm(page, { runId: 'csp-run', limit: 3 });
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'done');

		await page.getByRole('link', { name: 'Results', exact: true }).click();
		await page.getByTestId('figure-lca-overall').locator('td[data-series]').first().waitFor();
		await page.waitForFunction(() =>
			[...document.querySelectorAll('canvas[data-testid="chart-canvas"]')].every(
				(c) => (c as HTMLCanvasElement).width > 0
			)
		);
		await page
			.getByTestId('run-picker')
			.getByRole('link', { name: 'Inspect cases' })
			.first()
			.click();
		await page.getByTestId('case-head').waitFor();
		await page.getByRole('button', { name: 'Next →' }).click();

		await page.getByRole('link', { name: 'Bundles', exact: true }).click();
		await page.getByRole('checkbox', { name: 'Select every run' }).check();
		const [download] = await Promise.all([
			page.waitForEvent('download'),
			page.getByRole('button', { name: /Export 1 selected run as \.zip/ }).click()
		]);
		const zip = unzipSync(new Uint8Array(await readFile((await download.path())!)));
		expect(Object.keys(zip).some((p) => p.endsWith('/manifest.json'))).toBe(true);
		e.assertClean();
	});
});
