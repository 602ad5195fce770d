/**
 * A run whose endpoint is on a port the browser itself refuses (ERR_UNSAFE_PORT) is not started:
 * the Run page says, before any case is sent, that the browser blocks that port and which ports
 * to use instead, in the page's language, and Start stays off. Before, the run started and each
 * case failed as if nothing answered.
 */
import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowser, type E2E } from './browser';
import { message, PHONE } from './i18n-support';
import { visit } from './phone-support';
import { savedManifest } from './run-support';

const BLOCKED = 'http://127.0.0.1:6000/v1';
const FINE = 'http://127.0.0.1:8000/v1';

describe.each(['zh-CN', 'en'] as const)(
	'Start with an endpoint on a blocked port, in %s',
	(locale) => {
		let e: E2E;
		const sent: Request[] = [];

		beforeAll(async () => {
			e = await startBrowser({ locale, viewport: PHONE });
			e.page.on('request', (r) => {
				if (new URL(r.url()).port === '6000') sent.push(r);
			});
			await e.page.goto(`${e.url}/`);
			await e.page.waitForFunction((locale) => document.documentElement.lang === locale, locale);
		});

		afterAll(async () => {
			await e?.close();
		});

		it('says the browser blocks the port and which ports to use, and starts nothing', async () => {
			const { page } = e;
			await visit(page, e.url, '/dataset');
			await page
				.getByRole('button', { name: await message('dataset', locale, 'dataset_load_sample') })
				.click();
			await page.getByTestId('summary-stats').waitFor();
			// Only the judge on the blocked port: every role's endpoint is checked.
			await visit(page, e.url, '/models');
			await page.locator('input[name="mode"][value="api"]').check();
			await page.getByTestId('preset-default').selectOption('custom');
			await page.getByTestId('base-url-default').fill(FINE);
			for (const role of ['evaluated', 'user', 'judge'])
				await page.getByTestId(`model-${role}`).fill('fake-model');
			await page.getByTestId('same-url-judge').uncheck();
			await page.getByTestId('base-url-judge').fill(BLOCKED);

			await visit(page, e.url, '/run');
			await page.getByTestId('run-id').fill('blocked1');
			await page.getByTestId('run-limit').fill('1');
			const expected = await message('run', locale, 'run_problem_port_blocked', {
				url: BLOCKED,
				port: 6000,
				ports: '8000, 8080, 11434, 1234'
			});
			await expect.poll(() => page.getByTestId('start-problems').innerText()).toContain(expected);
			expect(await page.getByTestId('start').isDisabled()).toBe(true);
			// The problem names no other endpoint: the evaluated model's port is a usual one.
			expect(await page.getByTestId('start-problems').innerText()).not.toContain(FINE);

			// Forced, Start refuses with the same words: nothing is sent and no run is made.
			await page.getByTestId('start').evaluate((b) => ((b as HTMLButtonElement).disabled = false));
			await page.getByTestId('start').click();
			await expect
				.poll(() => page.getByRole('alert').allInnerTexts())
				.toContainEqual(expect.stringContaining(expected));
			expect(sent).toEqual([]);
			expect(await savedManifest(page, 'blocked1')).toBeNull();
			// Nothing went wrong in the page; the favicon may still be loading when the test ends.
			expect(e.problems.filter((p) => !p.includes('/favicon.svg (net::ERR_ABORTED)'))).toEqual([]);
		});
	}
);
