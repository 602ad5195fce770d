/**
 * The Run page never shows stale or misleading state: the Unfinished list
 * follows the stored records and locks, a run id of other inputs is named before Start and never
 * touched by it, elapsed time stands still while paused, and the page in Chinese.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/lib/core/dataset/load';
import { startBrowser, type E2E } from './browser';
import {
	fillRunForm,
	loadSampleDataset,
	openDatasetFile,
	readSample,
	SAMPLE_PATH,
	savedRecords,
	startLexPilotFake,
	useEndpoint,
	waitForRunStatus,
	type LexPilotFake
} from './run-support';

const PLANS_KEY = 'lexpilot.run-plans.v1';

let e: E2E | undefined;
let sample: Dataset;
const fakes: LexPilotFake[] = [];

beforeAll(async () => {
	sample = await readSample();
});
afterEach(async () => {
	await e?.close();
	e = undefined;
	for (const f of fakes.splice(0)) await f.server.close();
});

/** Runs until at least `atLeast` cases of gen are saved. */
async function untilSaved(page: Page, runId: string, atLeast: number) {
	await expect
		.poll(async () => (await savedRecords(page, runId)).interaction?.length ?? 0, {
			timeout: 60_000,
			interval: 50
		})
		.toBeGreaterThanOrEqual(atLeast);
}

/** The browser's own problems, less the calls a stop or a reload cut on purpose. */
function unexpected(fake: LexPilotFake): string[] {
	const cut = `request failed: ${fake.server.baseURL}/chat/completions (net::ERR_ABORTED)`;
	return e!.problems.splice(0).filter((p) => p !== cut);
}

describe('Unfinished runs: the stored truth', () => {
	it('leaves out a finished run whose plan still says running, and the run this page resumes or pauses', async () => {
		const fake = await startLexPilotFake(sample, { delayMs: 120 });
		fakes.push(fake);
		e = await startBrowser();
		const { page } = e;
		await loadSampleDataset(page, e.url);
		await useEndpoint(page, fake.server.baseURL);
		await page.getByTestId('setting-concurrency').fill('2');

		// A run that finished...
		await fillRunForm(page, { runId: 'finished', limit: 2, stages: ['gen'] });
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'done');
		// ...and one stopped after some cases.
		await fillRunForm(page, { runId: 'cut', limit: 6, stages: ['gen'] });
		await page.getByTestId('start').click();
		await untilSaved(page, 'cut', 1);
		await page.getByTestId('stop').click();
		await waitForRunStatus(page, 'stopped');

		// The tab that finished `finished` closed before it wrote "done": its plan says running.
		await page.evaluate((key) => {
			const plans = JSON.parse(localStorage.getItem(key) ?? '[]') as Array<{
				runId: string;
				status: string;
			}>;
			for (const p of plans) if (p.runId === 'finished') p.status = 'running';
			localStorage.setItem(key, JSON.stringify(plans));
		}, PLANS_KEY);
		await page.reload();
		const cut = page.getByTestId('unfinished-cut');
		await cut.waitFor();
		expect(await cut.innerText()).toContain('stopped');
		// Every case of `finished` is saved: it is no unfinished run, whatever its plan says.
		expect(await page.getByTestId('unfinished-finished').count()).toBe(0);
		await e.screenshot('run-truth-unfinished');

		// Resumed here, the run is in Progress with live counts, and nowhere else: not while it
		// runs, not while it is paused.
		const saved = (await savedRecords(page, 'cut')).interaction.length;
		await page.getByTestId('resume-cut').click();
		await waitForRunStatus(page, 'running');
		expect(await cut.count()).toBe(0);
		await untilSaved(page, 'cut', saved + 1);
		await page.getByTestId('pause').click();
		await waitForRunStatus(page, 'paused');
		expect(await page.getByTestId('unfinished-runs').count()).toBe(0);
		await e.screenshot('run-truth-paused');
		await page.getByTestId('resume').click();
		await waitForRunStatus(page, 'done');
		expect(await page.getByTestId('unfinished-runs').count()).toBe(0);
		expect(unexpected(fake)).toEqual([]);
	});
});

describe('A run id that holds a run of other inputs', () => {
	it('says before Start what differs, counts every case, keeps Start off and the run’s own state', async () => {
		// The run fails on its own: a judge that never answers in JSON.
		const fake = await startLexPilotFake(sample, {
			override: { judge_lca: () => ({ content: '我认为这个回答属于澄清。' }) }
		});
		fakes.push(fake);
		e = await startBrowser();
		const { page } = e;
		await loadSampleDataset(page, e.url);
		await useEndpoint(page, fake.server.baseURL);
		await fillRunForm(page, { runId: 'taken', limit: 2, stages: ['gen'] });
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'failed');
		const plan = async () =>
			page.evaluate(
				(key) =>
					(JSON.parse(localStorage.getItem(key) ?? '[]') as Array<{ runId: string }>).find(
						(p) => p.runId === 'taken'
					),
				PLANS_KEY
			);
		const before = await plan();
		expect(before).toMatchObject({ status: 'failed', datasetName: 'lexpilot-sample.json' });

		// Another dataset: the sample's first ten cases, in a file of its own.
		const dir = await mkdtemp(join(tmpdir(), 'lexpilot-other-'));
		const other = join(dir, 'other-cases.json');
		const cases = JSON.parse(await readFile(SAMPLE_PATH, 'utf8')) as unknown[];
		await writeFile(other, JSON.stringify(cases.slice(0, 10), null, 2));
		await page.getByRole('link', { name: 'Dataset', exact: true }).click();
		await openDatasetFile(page, other);
		await fillRunForm(page, { runId: 'taken', limit: 2, stages: ['gen'] });

		const note = page.getByTestId('run-id-note');
		await page.waitForFunction(
			() =>
				document.querySelector('[data-testid="run-id-note"]')?.getAttribute('data-kind') ===
				'refused'
		);
		const said = await note.innerText();
		expect(said).toContain('Run id taken already holds a run of fake-model with other inputs');
		expect(said).toContain('Dataset: the run used lexpilot-sample.json');
		expect(said).toContain('the loaded dataset is other-cases.json');
		expect(said).not.toContain('--run-id');
		expect(await page.getByTestId('start').isDisabled()).toBe(true);
		expect(await page.getByTestId('start-problems').innerText()).toContain(
			'Run id taken holds a run with other inputs'
		);
		// No estimate that counts the other dataset's records.
		expect(await page.getByTestId('call-estimate').count()).toBe(0);
		await e.screenshot('run-truth-taken');
		expect(await plan()).toEqual(before);

		// A new run id is a new run: the estimate counts its 2 cases, and Start is on.
		await page.getByTestId('run-id').fill('taken-2');
		await page.getByTestId('estimate-total').waitFor();
		expect(await page.getByTestId('estimate-total').innerText()).toBe('8–24');
		expect(await page.getByTestId('start').isDisabled()).toBe(false);
		expect(await note.count()).toBe(0);

		// After a reload the run is listed with its own status and error, as it failed.
		await page.reload();
		const row = page.getByTestId('unfinished-taken');
		await row.waitFor();
		expect(await row.locator('[data-state]').getAttribute('data-state')).toBe('failed');
		// Its own error (whichever of its two cases the judge failed on first), not a refusal.
		const first2 = sample.cases.slice(0, 2).map((c) => c.case_number);
		const error = /case_number (\S+)\): .*judge_lca/.exec(await row.innerText());
		expect(first2).toContain(error?.[1]);
		e.assertClean();
	});
});

describe('Elapsed time', () => {
	it('stands still while the run is paused and goes on after it resumes', async () => {
		const fake = await startLexPilotFake(sample, { delayMs: 120 });
		fakes.push(fake);
		e = await startBrowser();
		const { page } = e;
		await page.clock.install();
		await loadSampleDataset(page, e.url);
		await useEndpoint(page, fake.server.baseURL);
		await page.getByTestId('setting-concurrency').fill('1');
		await fillRunForm(page, { runId: 'clock', limit: 4, stages: ['gen'] });
		await page.getByTestId('start').click();
		await untilSaved(page, 'clock', 1);
		await page.getByTestId('pause').click();
		await waitForRunStatus(page, 'paused');
		// The Elapsed column of gen's row. It is redrawn at the page's once-a-second tick: let one
		// tick pass, so it shows the time the run stood at when it paused (read before that tick it
		// may still show the second before, as CI once saw: '1 s' then '2 s').
		const elapsed = page.getByTestId('progress-gen').locator('td').nth(6);
		await page.clock.fastForward(1000);
		await page.evaluate(() => new Promise(requestAnimationFrame));
		const atPause = await elapsed.innerText();

		// Ten minutes pass while paused (the page's clock and its once-a-second tick with them).
		await page.clock.fastForward('10:00');
		await page.evaluate(() => new Promise(requestAnimationFrame));
		expect(await elapsed.innerText()).toBe(atPause);

		await page.getByTestId('resume').click();
		await waitForRunStatus(page, 'done');
		// The stage ran for seconds, not for the ten minutes it stood paused.
		expect(await elapsed.innerText()).toMatch(/^\d+ s$/);
		expect(unexpected(fake)).toEqual([]);
	});
});

describe('The Run page in Chinese', () => {
	it('runs a simulated run in zh-CN: headings, buttons and status in Chinese, the data as it is', async () => {
		e = await startBrowser();
		const { page } = e;
		await loadSampleDataset(page, e.url);
		await page.getByRole('link', { name: 'Models', exact: true }).click();
		await page.getByTestId('mode-simulated').check();
		await fillRunForm(page, { runId: 'zh-run', limit: 3 });
		await page.getByTestId('language').selectOption('zh-CN');

		await page.getByRole('heading', { name: '运行', level: 1 }).waitFor();
		expect(await page.title()).toBe('运行 · LexPilot 工作台');
		await page.getByRole('heading', { name: '新建运行', level: 2 }).waitFor();
		const start = page.getByRole('button', { name: '开始运行' });
		expect(await page.getByRole('button', { name: '建议' }).count()).toBe(1);
		expect(await page.getByTestId('call-estimate').innerText()).toContain('次模型调用');
		await start.click();
		await waitForRunStatus(page, 'done', 90_000);
		await page.getByRole('heading', { name: /^进度/, level: 2 }).waitFor();
		expect(await page.getByTestId('run-status').innerText()).toBe('已完成');
		expect(await page.getByTestId('run-done').innerText()).toContain('运行完成');
		const table = await page.getByTestId('progress-table').innerText();
		for (const word of ['阶段', '已用时间', '剩余时间', '完成']) expect(table).toContain(word);
		expect(table).toContain('3 / 3');
		// The dataset is data: its file name and its case numbers are as the file has them.
		expect(await page.getByTestId('ready-dataset').innerText()).toContain('lexpilot-sample.json');
		const first3 = sample.cases.slice(0, 3).map((c) => c.case_number);
		expect([...new Set((await savedRecords(page, 'zh-run')).interaction)].sort()).toEqual(
			[...first3].sort()
		);
		// No English left in what the Run page itself says.
		const text = await page.locator('main').innerText();
		for (const english of ['Progress', 'New run', 'Start run', 'Elapsed', 'Stage', 'Done']) {
			expect(text).not.toContain(english);
		}
		await e.screenshot('run-zh-done');
		e.assertClean();
	});
});
