/**
 * One writer per run: a second tab of the same browser that tries to run a run the first tab is
 * writing is refused with a message that says why, and nothing it does disturbs the first.
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

describe('A second tab on a running run', () => {
	let e: E2E;
	let sample: Dataset;
	let fake: LexPilotFake;

	beforeAll(async () => {
		sample = await readSample();
		fake = await startLexPilotFake(sample, { delayMs: 200 });
		e = await startBrowser();
	});
	afterAll(async () => {
		await e?.close();
		await fake?.server.close();
	});

	it('is refused with a clear message, by Resume and by Start alike, and the first run finishes intact', async () => {
		const first = e.page;
		await loadSampleDataset(first, e.url);
		await useEndpoint(first, fake.server.baseURL);
		await fillRunForm(first, { runId: 'e2e-two', limit: 4, stages: ['gen'] });
		await first.getByTestId('start').click();
		await waitForRunStatus(first, 'running');

		const second = await e.context.newPage();
		await second.goto(`${e.url}/run`);
		await second.getByTestId('ready-dataset').getByText('lexpilot-sample.json').waitFor();
		const row = second.getByTestId('unfinished-e2e-two');
		await row.waitFor();
		expect(await row.innerText()).toContain('running in another tab');

		await second.getByTestId('resume-e2e-two').click();
		const refusal = second.getByTestId('run-error');
		await refusal.waitFor();
		expect(await refusal.getAttribute('data-kind')).toBe('locked');
		const message = await refusal.innerText();
		expect(message).toContain('This run is being written in another tab');
		expect(message).toContain('run e2e-two');
		expect(message).toContain('Close that tab or wait for its run to finish');
		await e.screenshot('second-tab-refused', second);

		// Starting the same run id and model from the form is refused the same way.
		await second.getByTestId('run-id').fill('e2e-two');
		await second.getByTestId('run-limit').fill('4');
		await second.getByTestId('start').click();
		await expect
			.poll(() => second.getByTestId('run-status').getAttribute('data-status'))
			.toBe('failed');
		expect(await second.getByTestId('run-error').getAttribute('data-kind')).toBe('locked');
		await second.close();

		// The first tab was not disturbed: its run finishes with each case saved once.
		await waitForRunStatus(first, 'done');
		const records = await savedRecords(first, 'e2e-two');
		const four = sample.cases.slice(0, 4).map((c) => c.case_number);
		expect([...records.interaction].sort()).toEqual([...four].sort());
		expect(records.a1).toHaveLength(8);
		expect(e.problems).toEqual([]);
	});
});
