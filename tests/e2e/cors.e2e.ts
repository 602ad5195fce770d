/**
 * An endpoint that sends no CORS headers, as most hosted providers do for web pages: Test
 * connection and a run must both say it is CORS (not "unreachable"), give the fix, and offer the
 * CLI command, which never contains the key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/lib/core/dataset/load';
import { startBrowser, type E2E } from './browser';
import {
	fillRunForm,
	loadSampleDataset,
	readSample,
	savedRecords,
	startLexPilotFake,
	useEndpoint,
	waitForRunStatus,
	type LexPilotFake
} from './run-support';

const KEY = 'sk-e2e-cors-secret-0123456789';

describe('CORS-blocked endpoint', () => {
	let e: E2E;
	let sample: Dataset;
	let fake: LexPilotFake;

	beforeAll(async () => {
		sample = await readSample();
		fake = await startLexPilotFake(sample, { cors: false });
		e = await startBrowser();
	});
	afterAll(async () => {
		await e?.close();
		await fake?.server.close();
	});

	/** The browser logs each refused call; nothing else may go wrong. */
	function expectOnlyCorsProblems() {
		for (const problem of e.problems.splice(0)) {
			const refused =
				problem.includes('blocked by CORS policy') ||
				problem.endsWith('Failed to load resource: net::ERR_FAILED') ||
				(problem.startsWith(`request failed: ${fake.server.url}/`) &&
					/\(net::ERR_(FAILED|ABORTED)\)$/.test(problem));
			expect(refused, problem).toBe(true);
		}
	}

	it('Test connection says CORS, gives the fix and the CLI command without the key', async () => {
		const { page } = e;
		await loadSampleDataset(page, e.url);
		await useEndpoint(page, fake.server.baseURL);
		await page.getByTestId('key-default').fill(KEY);
		await page.getByTestId('test-evaluated').click();
		const result = page.getByTestId('role-evaluated').getByTestId('connection-result');
		await expect.poll(() => result.getAttribute('data-status'), { timeout: 30_000 }).toBe('cors');
		const text = await result.innerText();
		expect(text).toContain('Blocked by CORS');
		expect(text).toContain('does not allow calls from this page (CORS)');
		expect(text).toContain(`Access-Control-Allow-Origin for ${e.url.replace(/\/$/, '')}`);
		const cli = await result.getByTestId('cli-command').innerText();
		expect(cli).toContain(`export OPENAI_BASE_URL=${fake.server.baseURL}`);
		expect(cli).toContain(`export OPENAI_API_KEY='<your key>'`);
		expect(cli).toContain('npm run lexpilot -- run --dataset static/sample/lexpilot-sample.json');
		expect(cli).not.toContain(KEY);
		// The server was up (the preflight and the probe reached it), but the browser let no chat
		// call through.
		expect(fake.server.requests.some((r) => r.method === 'OPTIONS')).toBe(true);
		expect(fake.server.chatRequests).toEqual([]);
		await e.screenshot('models-cors', page.getByTestId('role-evaluated'));
		expectOnlyCorsProblems();
	});

	it('a run stops at once with the CORS explanation, names the case, and saves nothing', async () => {
		const { page } = e;
		await fillRunForm(page, { runId: 'e2e-cors', limit: 2, stages: ['gen'] });
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'failed', 30_000);
		const panel = page.getByTestId('run-error');
		expect(await panel.getAttribute('data-kind')).toBe('cors');
		const text = await panel.innerText();
		expect(text).toContain('The endpoint does not allow calls from this page (CORS)');
		expect(text).toContain("refused this page's origin (CORS)");
		expect(text).toContain(sample.cases[0].case_number);
		expect(await panel.getByTestId('cli-command').innerText()).toContain(
			'npm run lexpilot -- gen --dataset static/sample/lexpilot-sample.json --run-id e2e-cors'
		);
		expect(text).not.toContain(KEY);
		expect(await page.locator('body').innerText()).not.toContain(KEY);
		await e.screenshot('run-cors');
		expect((await savedRecords(page, 'e2e-cors')).interaction ?? []).toEqual([]);
		// A refused origin is not retried: retrying cannot help.
		const gen = page.getByTestId('progress-gen');
		expect(await gen.getAttribute('data-status')).toBe('failed');
		expect(await gen.locator('td').nth(3).innerText()).toBe('0');
		expectOnlyCorsProblems();
	});
});
