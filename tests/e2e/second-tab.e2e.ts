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
	/** The first tab's run stays in flight until the test lets the server answer. */
	let release!: () => void;

	beforeAll(async () => {
		sample = await readSample();
		const held = new Promise<void>((resolve) => (release = resolve));
		fake = await startLexPilotFake(sample, { hold: () => held });
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
		await fillRunForm(first, { runId: 'e2e-two', limit: 6, stages: ['gen'] });
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
		expect(await second.getByTestId('run-progress').count()).toBe(0);
		await e.screenshot('second-tab-refused', second);

		// Starting the same run id and model from the form (in a third tab) is refused the same way,
		// and the refused start shows no progress of its own.
		await second.close();
		const third = await e.context.newPage();
		await third.goto(`${e.url}/run`);
		await third.getByTestId('ready-dataset').getByText('lexpilot-sample.json').waitFor();
		await third.getByTestId('run-id').fill('e2e-two');
		await third.getByTestId('run-limit').fill('6');
		await third.getByTestId('stage-dcg').uncheck();
		expect(await first.getByTestId('run-status').getAttribute('data-status')).toBe('running');
		await third.getByTestId('start').click();
		const refused = third.getByTestId('run-error');
		await refused.waitFor();
		expect(await refused.getAttribute('data-kind')).toBe('locked');
		expect(await third.getByTestId('run-progress').count()).toBe(0);
		expect(await third.getByTestId('unfinished-e2e-two').innerText()).toContain(
			'running in another tab'
		);
		await third.close();

		// The first tab was not disturbed: its run finishes with each case saved once.
		release();
		await waitForRunStatus(first, 'done');
		const records = await savedRecords(first, 'e2e-two');
		const six = sample.cases.slice(0, 6).map((c) => c.case_number);
		expect([...records.interaction].sort()).toEqual([...six].sort());
		expect(records.a1).toHaveLength(12);
		expect(e.problems).toEqual([]);
	});
});
