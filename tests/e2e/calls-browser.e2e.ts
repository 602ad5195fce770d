/**
 * A run made in the browser keeps its call log: a simulated run of the sample on the Run page
 * (every stage, in the run's worker, through the store view the Run page hands the engine) →
 * exported from Bundles → its `calls.jsonl` has one line per model call, as many as the CLI's
 * `run --simulated` writes for the same cases and settings → Inspect shows the exact prompt of
 * one of the run's responses from that log.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallLogEntry } from '../../src/lib/core/calls/schema';
import { lexpilot, readTree, SAMPLE_PATH } from '../fixtures/bundles/folder';
import { startBrowser, type E2E } from './browser';
import { exportRun } from './page-support';
import { fillRunForm, loadSampleDataset, waitForRunStatus } from './run-support';

const LIMIT = 4;
const RUN_ID = 'browser-calls';
let e2e: E2E;
let cliLines: string[];
let browserCalls: CallLogEntry[];
let callsPath: string;
const tmp = () => mkdtemp(join(tmpdir(), 'lexpilot-e2e-browser-calls-'));
const lines = (bytes: Uint8Array) => new TextDecoder().decode(bytes).split('\n').filter(Boolean);

beforeAll(async () => {
	// The CLI's count for the same simulated run: the sample, its first LIMIT cases, every stage.
	const root = await tmp();
	await lexpilot(
		[
			'run',
			'--simulated',
			'--dataset',
			SAMPLE_PATH,
			'--output-root',
			root,
			'--run-id',
			'cli'
		].concat(['--limit', String(LIMIT)])
	);
	const tree = await readTree(root);
	const cliCalls = [...tree].filter(([path]) => path.endsWith('/calls.jsonl'));
	expect(cliCalls).toHaveLength(1);
	cliLines = lines(cliCalls[0][1]);
	e2e = await startBrowser();
});

afterAll(async () => {
	await e2e?.close();
});

describe('a run made in the browser keeps its call log', () => {
	it('runs the sample on the Run page with the simulated provider', async () => {
		const { page } = e2e;
		await loadSampleDataset(page, e2e.url);
		await page.getByRole('link', { name: 'Models', exact: true }).click();
		await page.getByTestId('mode-simulated').check();
		await fillRunForm(page, { runId: RUN_ID, limit: LIMIT });
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'done', 120_000);
		e2e.assertClean();
	});

	it('exports calls.jsonl with one line per model call, as many as the CLI logs', async () => {
		const { page } = e2e;
		const saved = await exportRun(page, new RegExp(`^Select ${RUN_ID}`), await tmp());
		const files = unzipSync(new Uint8Array(await readFile(saved)));
		const logs = Object.keys(files).filter((p) => p.endsWith('/calls.jsonl'));
		expect(logs).toEqual([
			expect.stringMatching(new RegExp(`^runs/${RUN_ID}/[^/]+/calls\\.jsonl$`))
		]);
		callsPath = logs[0];
		const exported = lines(files[callsPath]);
		browserCalls = exported.map((line) => JSON.parse(line) as CallLogEntry);
		expect(exported.length).toBeGreaterThan(0);
		expect(exported).toHaveLength(cliLines.length);
		// The same calls, not only as many: stage, task, case and round of each, in any order.
		const shape = (c: CallLogEntry) =>
			`${c.stage} ${c.task} ${String(c.case_number)} ${c.history_type ?? ''} ${c.round ?? ''}`;
		const cli = cliLines.map((line) => shape(JSON.parse(line) as CallLogEntry)).sort();
		expect(browserCalls.map(shape).sort()).toEqual(cli);
		e2e.assertClean();
	});

	it('Inspect shows the exact prompt of a response of the browser-made run', async () => {
		const { page } = e2e;
		const key = callsPath.split('/').slice(1, 3).join('/');
		const first = browserCalls.find((c) => c.task === 'lexawn' && c.history_type === 'complete')!;
		await page.goto(
			`${e2e.url}/inspect?run=${encodeURIComponent(key)}&case=${encodeURIComponent(String(first.case_number))}`
		);
		await page.getByTestId('first-responses').waitFor();
		const details = page.getByTestId('first-responses').getByTestId('call-details').first();
		await details.locator(':scope > summary').click();
		if (first.prompt.length > 4000) {
			await details
				.getByRole('button', { name: /Show all/ })
				.first()
				.click();
		}
		expect((await details.getByTestId('call-prompt').innerText()).trim()).toBe(first.prompt.trim());
		expect(await page.getByTestId('no-calls').count()).toBe(0);
		e2e.assertClean();
	});
});
