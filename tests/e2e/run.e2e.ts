/**
 * The Run page in Chromium against a fake OpenAI server over real HTTP: a full run of every
 * stage, a reload in the middle of a run and its resume, and the offline simulated provider.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/lib/core/dataset/load';
import { DEFAULT_PROMPT_PACK, taskOfPrompt } from '../../src/lib/core/prompts';
import { STAGE_FILE_NAMES } from '../../src/lib/core/records';
import { startBrowser, type E2E } from './browser';
import {
	fillRunForm,
	loadSampleDataset,
	readSample,
	savedManifest,
	savedRecords,
	startLexPilotFake,
	useEndpoint,
	waitForRunStatus,
	type LexPilotFake
} from './run-support';

describe('Run page', () => {
	let e: E2E;
	let sample: Dataset;
	const fakes: LexPilotFake[] = [];

	beforeAll(async () => {
		sample = await readSample();
		e = await startBrowser();
	});
	afterAll(async () => {
		await e?.close();
		for (const f of fakes) await f.server.close();
	});
	afterEach(() => {
		const problems = e.problems.splice(0);
		expect(problems, problems.join('\n')).toEqual([]);
	});

	it('runs every stage on the first 3 cases against an OpenAI-compatible server and saves every record', async () => {
		const fake = await startLexPilotFake(sample);
		fakes.push(fake);
		const { page } = e;
		await loadSampleDataset(page, e.url);
		await useEndpoint(page, fake.server.baseURL);
		await page.getByTestId('test-judge').click();
		await expect
			.poll(() => page.getByTestId('connection-result').first().getAttribute('data-status'))
			.toBe('ok');
		await e.screenshot('models-page');

		await fillRunForm(page, { runId: 'e2e-full', limit: 3 });
		await page.getByTestId('stages-together').waitFor();
		// Before starting: gen's range plus the fixed counts of the other stages, for 3 cases.
		expect(await page.getByTestId('estimate-total').innerText()).toBe('42–66');
		await e.screenshot('run-before-start');
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'done');
		await e.screenshot('run-done');

		for (const stage of ['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction']) {
			expect(await page.getByTestId(`done-${stage}`).innerText()).toBe('3 / 3');
		}
		// The whole run: every call the server answered, of a total that is now exact.
		const answered = fake.server.chatRequests.filter((r) => r.prompt !== 'ping').length;
		const calls = page.getByTestId('overall-calls');
		expect(await calls.getAttribute('data-done')).toBe(String(answered));
		expect(await calls.getAttribute('data-total')).toBe(String(answered));
		expect(await page.getByTestId('overall-cases').innerText()).toBe('3 / 3');
		expect(await page.getByTestId('overall-concurrency').getAttribute('data-max')).toBe('4');
		const first3 = sample.cases.slice(0, 3).map((c) => c.case_number);
		const records = await savedRecords(page, 'e2e-full');
		for (const file of STAGE_FILE_NAMES) {
			const paired = file === 'a1' || file === 'LCA_results';
			expect([...new Set(records[file])].sort(), file).toEqual([...first3].sort());
			expect(records[file], file).toHaveLength(paired ? 6 : 3);
		}
		const manifest = await savedManifest(page, 'e2e-full');
		expect(manifest).toMatchObject({
			run_id: 'e2e-full',
			simulated: false,
			models: { evaluated: 'fake-model', user: 'fake-model', judge: 'fake-model' },
			endpoints: {
				evaluated: fake.server.baseURL,
				user: fake.server.baseURL,
				judge: fake.server.baseURL
			},
			// The sample's third case_number is an integer and stays one (PROTOCOL.md §5).
			dataset: {
				sha256: sample.sha256,
				selected_case_numbers: sample.cases.slice(0, 3).map((c) => c.case_number_value)
			}
		});
		// Every model call went to the fake server and served one of the 3 selected cases.
		const served = fake.casesOf();
		expect(served.length).toBeGreaterThanOrEqual(42);
		expect(new Set(served)).toEqual(new Set(first3));
		// The stages ran together (one scheduler), not one after another: dcg's first forced
		// question went out before gen's last call.
		const tasks = fake.server.chatRequests.map((r) =>
			taskOfPrompt(r.prompt ?? '', DEFAULT_PROMPT_PACK)
		);
		const lastGen = tasks.findLastIndex((t) => t === 'user_standard' || t === 'judge_lca');
		expect(tasks.indexOf('force_ask')).toBeGreaterThan(-1);
		expect(tasks.indexOf('force_ask')).toBeLessThan(lastGen);
	});

	it('resumes after a reload in the middle of a run without repeating finished cases', async () => {
		// Once two cases are saved the server stops answering, so the reload finds the others
		// under way, whatever the machine's speed.
		let held: Promise<void> | undefined;
		let answer = () => {};
		const fake = await startLexPilotFake(sample, { delayMs: 50, hold: () => held });
		fakes.push(fake);
		const { page } = e;
		await loadSampleDataset(page, e.url);
		await useEndpoint(page, fake.server.baseURL);
		await page.getByTestId('setting-concurrency').fill('2');
		await fillRunForm(page, { runId: 'e2e-reload', limit: 6, stages: ['gen'] });
		await page.getByTestId('start').click();

		await expect
			.poll(async () => (await savedRecords(page, 'e2e-reload')).interaction?.length ?? 0, {
				timeout: 60_000,
				interval: 50
			})
			.toBeGreaterThanOrEqual(2);
		// From here no call is answered before the reload, so no case can finish after `before`.
		held = new Promise<void>((resolve) => (answer = resolve));
		const before = fake.server.requests.length;
		await page.reload();
		held = undefined;
		answer();
		const finished = (await savedRecords(page, 'e2e-reload')).interaction;
		expect(finished.length).toBeGreaterThanOrEqual(2);
		expect(finished.length).toBeLessThan(6);
		// The reload cuts the calls in flight; nothing else may go wrong.
		for (const problem of e.problems.splice(0)) {
			expect(problem).toBe(
				`request failed: ${fake.server.baseURL}/chat/completions (net::ERR_ABORTED)`
			);
		}

		// After the reload the dataset comes back from this browser, and the run is listed.
		await page.getByTestId('ready-dataset').getByText('lexpilot-sample.json').waitFor();
		const row = page.getByTestId('unfinished-e2e-reload');
		await row.waitFor();
		expect(await row.innerText()).toContain('interrupted');
		expect(await page.getByTestId('unfinished-runs').innerText()).toContain(
			'Keys are not remembered'
		);
		await e.screenshot('run-unfinished');
		// A rate-limited run resumes with more patience (PROTOCOL.md §6): retries from the Models page.
		await page.getByRole('link', { name: 'Models', exact: true }).click();
		await page.getByTestId('setting-retries').fill('7');
		await page.getByRole('link', { name: 'Run', exact: true }).click();
		await page.getByTestId('resume-e2e-reload').click();
		await waitForRunStatus(page, 'done');
		const manifest = (await savedManifest(page, 'e2e-reload')) as {
			settings: { retries: number };
			operational_history: { retries: number }[];
		};
		expect(manifest.settings.retries).toBe(3);
		expect(manifest.operational_history.map((h) => h.retries)).toEqual([3, 7]);

		const after = fake.casesOf(fake.server.requests.slice(before));
		for (const caseNumber of finished) {
			expect(
				after.filter((c) => c === caseNumber),
				`requests for finished ${caseNumber}`
			).toEqual([]);
		}
		const six = sample.cases.slice(0, 6).map((c) => c.case_number);
		const unfinished = six.filter((c) => !finished.includes(c));
		expect(unfinished.every((c) => after.includes(c))).toBe(true);
		const records = await savedRecords(page, 'e2e-reload');
		expect([...records.interaction].sort()).toEqual([...six].sort());
		expect(records.a1).toHaveLength(12);
		const resumedText = await page.getByTestId('progress-gen').innerText();
		expect(resumedText).toContain('6 / 6');
		expect(resumedText).toMatch(new RegExp(`\\((\\d+) resumed\\)`));
		const resumed = Number(/\((\d+) resumed\)/.exec(resumedText)![1]);
		expect(resumed).toBeGreaterThanOrEqual(finished.length);
		// A finished run leaves the list.
		expect(await page.getByTestId('unfinished-e2e-reload').count()).toBe(0);
	});

	it('runs the whole sample offline with the simulated provider, with the banner on every page', async () => {
		const { page } = e;
		const foreign: string[] = [];
		const watch = (req: { url(): string }) => {
			if (!req.url().startsWith(e.url)) foreign.push(req.url());
		};
		page.on('request', watch);
		await loadSampleDataset(page, e.url);
		await page.getByRole('link', { name: 'Models', exact: true }).click();
		await page.getByTestId('mode-simulated').check();
		const banner = page.getByTestId('simulated-banner');
		expect(await banner.innerText()).toContain('Simulated provider (offline demo)');
		await e.screenshot('models-simulated');
		await fillRunForm(page, { runId: 'e2e-sim' });
		expect(await banner.isVisible()).toBe(true);
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'running');
		await e.screenshot('run-simulated-running');
		await waitForRunStatus(page, 'done', 90_000);
		await e.screenshot('run-simulated-done');
		page.off('request', watch);

		const n = sample.cases.length;
		for (const stage of ['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction']) {
			expect(await page.getByTestId(`done-${stage}`).innerText()).toBe(`${n} / ${n}`);
		}
		const manifest = await savedManifest(page, 'e2e-sim');
		expect(manifest).toMatchObject({
			simulated: true,
			models: { evaluated: 'simulated' },
			endpoints: {
				evaluated: 'simulated://offline',
				user: 'simulated://offline',
				judge: 'simulated://offline'
			}
		});
		expect((await savedRecords(page, 'e2e-sim')).LJP_interaction).toHaveLength(n);
		expect(foreign).toEqual([]);
		// Back to real endpoints: the banner goes away.
		await page.getByRole('link', { name: 'Models', exact: true }).click();
		await page.getByText('OpenAI-compatible endpoints').click();
		expect(await banner.count()).toBe(0);
	});

	it('pause lets cases under way finish and starts none until resumed; stop keeps what is saved', async () => {
		const fake = await startLexPilotFake(sample, { delayMs: 150 });
		fakes.push(fake);
		const { page } = e;
		await loadSampleDataset(page, e.url);
		await useEndpoint(page, fake.server.baseURL);
		await page.getByTestId('setting-concurrency').fill('2');
		await fillRunForm(page, { runId: 'e2e-pause', limit: 6, stages: ['gen'] });
		await page.getByTestId('start').click();
		await expect
			.poll(async () => (await savedRecords(page, 'e2e-pause')).interaction?.length ?? 0, {
				timeout: 60_000,
				interval: 50
			})
			.toBeGreaterThanOrEqual(1);
		await page.getByTestId('pause').click();
		await waitForRunStatus(page, 'paused');
		await e.screenshot('run-paused');

		// Paused: every case that had started is saved, and no call is made.
		const calls = fake.server.chatRequests.length;
		const started = new Set(fake.casesOf());
		const saved = (await savedRecords(page, 'e2e-pause')).interaction;
		expect(new Set(saved)).toEqual(started);
		// Paused once the cases under way have ended: the session admits no new case, so the page
		// shows none in flight, with at least two cases left, and no call reached the provider.
		expect(started.size).toBeLessThanOrEqual(4);
		expect(await page.getByTestId('progress-gen').locator('td').nth(2).innerText()).toBe('0');
		expect(fake.server.chatRequests.length).toBe(calls);

		await page.getByTestId('resume').click();
		await expect
			.poll(async () => (await savedRecords(page, 'e2e-pause')).interaction.length, {
				timeout: 60_000,
				interval: 50
			})
			.toBeGreaterThan(saved.length);
		await page.getByTestId('stop').click();
		await waitForRunStatus(page, 'stopped');
		const kept = (await savedRecords(page, 'e2e-pause')).interaction;
		expect(kept.length).toBeLessThan(6);
		expect(new Set(kept).size).toBe(kept.length);
		// Stopping aborts the calls in flight; nothing else may go wrong.
		for (const problem of e.problems.splice(0)) {
			expect(problem).toBe(
				`request failed: ${fake.server.baseURL}/chat/completions (net::ERR_ABORTED)`
			);
		}
	});

	it('shows the case, the provider’s words and the raw output when a judge never answers in JSON', async () => {
		const fake = await startLexPilotFake(sample, {
			override: { judge_lca: () => ({ content: '我认为这个回答属于澄清，因为它提出了问题。' }) }
		});
		fakes.push(fake);
		const { page } = e;
		await loadSampleDataset(page, e.url);
		await useEndpoint(page, fake.server.baseURL);
		await page.getByTestId('setting-concurrency').fill('1');
		await fillRunForm(page, { runId: 'e2e-judge', limit: 1, stages: ['gen'] });
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'failed');
		const panel = page.getByTestId('run-error');
		expect(await panel.getAttribute('data-kind')).toBe('invalid_output');
		expect(await panel.getByTestId('error-case').innerText()).toBe(sample.cases[0].case_number);
		expect(await panel.innerText()).toContain('judge (judge_lca)');
		expect(await panel.getByTestId('error-raw').innerText()).toBe(
			'我认为这个回答属于澄清，因为它提出了问题。'
		);
		await e.screenshot('run-judge-error');
		expect((await savedRecords(page, 'e2e-judge')).interaction ?? []).toEqual([]);
	});
});
