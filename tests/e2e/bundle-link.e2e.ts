/**
 * A bundle opened from a link, `/results?bundle=<url>`: the size and host are named (after a HEAD
 * only) and the user is asked; the zip is then shown on Results from memory, read-only, with
 * nothing stored until Import, which puts the run on the Bundles page. A host without CORS, a
 * missing file, a file that is not a zip, one too large, a host that does not answer, a GET that a
 * redirect takes elsewhere or that sends more than the size agreed, and a link that is not http(s)
 * each say what happened.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBytes } from '../../src/lib/core/text';
import { readTree, writeOutputRoot, zipFiles } from '../fixtures/bundles/folder';
import { startBrowser, type E2E } from './browser';
import { storedRows } from './run-support';
import { startZipHost, type ZipHost } from './zip-host';

let e2e: E2E;
let zip: Uint8Array;
let host: ZipHost;
let noCors: ZipHost;

beforeAll(async () => {
	zip = zipFiles(await readTree(await writeOutputRoot([{ runId: 'linked', limit: 6 }])));
	host = await startZipHost(
		{
			'/runs.zip': { body: zip },
			'/page.zip': { body: '<!doctype html><p>a page', type: 'text/html' },
			'/huge.zip': { body: zip, declared: 600 * 1024 * 1024 }
		},
		{ cors: true }
	);
	noCors = await startZipHost({ '/runs.zip': { body: zip } }, { cors: false });
	e2e = await startBrowser();
});

afterAll(async () => {
	await e2e?.close();
	await host?.close();
	await noCors?.close();
});

const open = (page: Page, link: string) =>
	page.goto(`${e2e.url}/results?bundle=${encodeURIComponent(link)}`);

/** The browser's own report of each refused or failed request the test made on purpose. */
function dropExpectedProblems(...urls: string[]) {
	for (const problem of e2e.problems.splice(0)) {
		const expected =
			problem.includes('blocked by CORS policy') ||
			/Failed to load resource: (net::ERR_\w+|the server responded with a status of 404)/.test(
				problem
			) ||
			urls.some((url) => problem.includes(url));
		expect(expected, problem).toBe(true);
	}
}

/**
 * Chromium reports a HEAD made by fetch as failed (net::ERR_ABORTED) once its answer, which has
 * no body, is read: dropped for the paths the host saw a HEAD for, every other problem kept.
 */
function dropHeadQuirk(zipHost: ZipHost) {
	const heads = zipHost.requests.filter((r) => r.startsWith('HEAD ')).map((r) => r.slice(5));
	const quirk = (p: string) =>
		heads.some((path) => p === `request failed: ${zipHost.url}${path} (net::ERR_ABORTED)`);
	e2e.problems.splice(0, e2e.problems.length, ...e2e.problems.filter((p) => !quirk(p)));
}

async function storedManifests(page: Page): Promise<number> {
	const names = await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name));
	if (!names.includes('lexpilot-workbench')) return 0;
	return (await storedRows(page, 'lexpilot-workbench', 'manifests')).length;
}

async function failure(link: string): Promise<string> {
	await open(e2e.page, link);
	const failed = e2e.page.getByTestId('bundle-failed');
	await failed.waitFor({ timeout: 30_000 });
	return failed.innerText();
}

describe('a bundle opened from a link', () => {
	it('asks with size and host after a HEAD, shows it read-only, and stores it only on Import', async () => {
		const { page } = e2e;
		const link = `${host.url}/runs.zip`;
		await open(page, link);
		const confirm = page.getByTestId('bundle-confirm');
		await confirm.waitFor();
		const hostName = new URL(host.url).host;
		expect(await confirm.innerText()).toContain(
			`Open the bundle of ${formatBytes(zip.length)} from ${hostName}?`
		);
		expect(host.requests).toEqual(['HEAD /runs.zip']);
		await e2e.screenshot('bundle-link-confirm');

		await confirm.getByRole('button', { name: 'Open', exact: true }).click();
		const readOnly = page.getByTestId('bundle-read-only');
		await readOnly.waitFor();
		expect(await readOnly.innerText()).toContain(
			`Read-only: the runs shown are those of runs.zip (${formatBytes(zip.length)}) from ${hostName}.`
		);
		await page.getByTestId('figure-lca-overall').locator('td[data-series]').first().waitFor();
		expect(await page.getByTestId('figure-lca-overall').innerText()).toContain('linked');
		expect(host.requests).toEqual(['HEAD /runs.zip', 'GET /runs.zip']);
		expect(new URL(page.url()).searchParams.get('bundle')).toBe(link);
		expect(await storedManifests(page)).toBe(0);
		// Inspect shows stored runs only: no link to it while the bundle is not imported.
		expect(await page.getByRole('link', { name: 'Inspect cases' }).count()).toBe(0);
		expect(await page.getByTestId('bundle-inspect-hidden').innerText()).toBe(
			'Import the bundle to inspect its cases: Inspect shows only runs stored in this browser.'
		);
		await e2e.screenshot('bundle-link-open');

		await readOnly.getByRole('button', { name: 'Import into this browser' }).click();
		const imported = page.getByTestId('bundle-imported');
		await imported.waitFor();
		expect(await imported.innerText()).toBe('Imported the run of runs.zip: it is in Bundles.');
		expect(await storedManifests(page)).toBe(1);
		await expect.poll(() => new URL(page.url()).searchParams.get('bundle')).toBeNull();
		await page.getByTestId('figure-lca-overall').locator('td[data-series]').first().waitFor();
		await page.getByRole('link', { name: 'Inspect cases' }).first().waitFor();

		await imported.getByRole('link', { name: 'Bundles' }).click();
		await page.getByRole('heading', { name: 'Bundles', level: 1 }).waitFor();
		await page.getByText('linked', { exact: false }).first().waitFor();
		expect(await page.locator('main').innerText()).toMatch(/linked/);
		dropHeadQuirk(host);
		e2e.assertClean();
	});

	it("names the host a redirect ended at, not only the link's", async () => {
		const { page } = e2e;
		const moved = await startZipHost(
			{ '/runs.zip': { body: '', location: `${host.url}/runs.zip` } },
			{ cors: true }
		);
		try {
			await open(page, `${moved.url}/runs.zip`);
			const confirm = page.getByTestId('bundle-confirm');
			await confirm.waitFor();
			const final = new URL(host.url).host;
			const first = new URL(moved.url).host;
			expect(await confirm.innerText()).toContain(
				`Open the bundle of ${formatBytes(zip.length)} from ${final}?`
			);
			expect(await page.getByTestId('bundle-redirected').innerText()).toBe(
				`The link to ${first} was redirected: the bundle comes from ${final}.`
			);
			await e2e.screenshot('bundle-link-redirected');
			await confirm.getByRole('button', { name: 'Open', exact: true }).click();
			const readOnly = page.getByTestId('bundle-read-only');
			await readOnly.waitFor();
			expect(await readOnly.innerText()).toContain(`(${formatBytes(zip.length)}) from ${final}.`);
			await readOnly.getByRole('button', { name: 'Close the bundle' }).click();
			await readOnly.waitFor({ state: 'detached' });
			dropHeadQuirk(host);
			dropHeadQuirk(moved);
			e2e.assertClean();
		} finally {
			await moved.close();
		}
	});

	it('refuses a GET that a redirect takes elsewhere, or that sends more than agreed, in both languages', async () => {
		const { page } = e2e;
		const turning = await startZipHost(
			{
				'/runs.zip': { body: zip, getLocation: `${host.url}/runs.zip` },
				'/small.zip': { body: zip, headDeclared: 1000 }
			},
			{ cors: true }
		);
		const asked = host.requests.length;
		const name = new URL(turning.url).host;
		/** Agrees to open the link, then waits for the failure the GET meets. */
		async function agreeThenFail(link: string, size: number): Promise<string> {
			await open(page, link);
			const confirm = page.getByTestId('bundle-confirm');
			await confirm.waitFor();
			expect(await confirm.innerText()).toContain(
				`Open the bundle of ${formatBytes(size)} from ${name}?`
			);
			await confirm.getByRole('button', { name: 'Open', exact: true }).click();
			const failed = page.getByTestId('bundle-failed');
			await failed.waitFor();
			return failed.innerText();
		}
		try {
			expect(await agreeThenFail(`${turning.url}/runs.zip`, zip.length)).toContain(
				`${name} sent the bundle's download on to another address (a redirect), not the one you ` +
					'agreed to open it from: nothing was read and the bundle was not opened.'
			);
			// The redirect was not followed: the other host saw nothing of it.
			expect(host.requests.length).toBe(asked);
			await e2e.screenshot('bundle-link-get-redirected');

			expect(await agreeThenFail(`${turning.url}/small.zip`, 1000)).toContain(
				`${name} sent more than the ${formatBytes(1000)} you agreed to open: reading stopped ` +
					'there and the bundle was not opened.'
			);
			await page.getByTestId('language').selectOption('zh-CN');
			await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
			expect(await page.getByTestId('bundle-failed').innerText()).toContain(
				`${name} 发送的内容超过了你同意打开的 ${formatBytes(1000)}：已在此处停止读取，数据包未打开。`
			);
			await page.getByTestId('language').selectOption('en');
			await page.waitForFunction(() => document.documentElement.lang === 'en');
			expect(turning.requests).toEqual([
				'HEAD /runs.zip',
				'GET /runs.zip',
				'HEAD /small.zip',
				'GET /small.zip'
			]);
			dropHeadQuirk(turning);
			// Chromium reports the redirect it did not follow as a request to its target aborted
			// (net::ERR_ABORTED); the target's own log above shows nothing was sent there.
			dropExpectedProblems(turning.url, `${host.url}/runs.zip`);
		} finally {
			await turning.close();
		}
	});

	it('says a host without CORS answered but does not let the page read it', async () => {
		const text = await failure(`${noCors.url}/runs.zip`);
		expect(text).toContain('The bundle was not opened');
		expect(text).toContain(
			`${new URL(noCors.url).host} answered, but does not allow this page to read its files`
		);
		// Nothing but the HEAD and the probe reached it.
		expect(noCors.requests.every((r) => r.startsWith('HEAD '))).toBe(true);
		await e2e.screenshot('bundle-link-cors');
		dropExpectedProblems(noCors.url);
	});

	it('says what happened to a missing file, a page, a huge file and a silent host', async () => {
		const hostName = new URL(host.url).host;
		expect(await failure(`${host.url}/gone.zip`)).toContain(
			`${hostName} has no file at this link (HTTP 404).`
		);
		// The HEAD of a page looks fine; the user is asked, then the GET finds no zip.
		await open(e2e.page, `${host.url}/page.zip`);
		await e2e.page.getByRole('button', { name: 'Open', exact: true }).click();
		await e2e.page.getByTestId('bundle-failed').waitFor();
		expect(await e2e.page.getByTestId('bundle-failed').innerText()).toContain(
			`The file at this link is not a zip archive (${hostName} says it is text/html).`
		);
		expect(await failure(`${host.url}/huge.zip`)).toContain(
			'The bundle is 600 MB, more than the 512 MB a bundle may be: it was not opened.'
		);
		const silent = await startZipHost({}, { cors: true });
		await silent.close();
		expect(await failure(`${silent.url}/runs.zip`)).toContain(
			`Nothing answered at ${new URL(silent.url).host}`
		);
		dropExpectedProblems(host.url, silent.url);
	});

	it('refuses a link that is not http(s), showing it escaped', async () => {
		const text = await failure('javascript:alert(1)\u001b[2J');
		expect(text).toContain(
			'Only http:// and https:// links to a bundle can be opened: javascript:alert(1)\\u001b[2J'
		);
		// The stored runs are shown instead.
		await e2e.page.getByTestId('figure-lca-overall').waitFor();
		e2e.assertClean();
	});
});
