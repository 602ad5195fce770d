/**
 * Every page on a 390 × 844 phone, in Chinese and in English, in every state a user meets: empty,
 * a dataset loaded (and a broken one refused), prompts edited and a reset being confirmed, a
 * connection tested (a real endpoint, the simulated provider, a port the browser blocks, which
 * Start refuses too), a run running (and Results while it is written), paused, stopped and listed
 * as unfinished after a reload, failed (an endpoint on a closed port), finished (the simulated
 * provider), two runs compared, a case inspected and compared with another run, the review queue
 * offered and started, a deletion being confirmed, a bundle import refused, and a bundle opened
 * from a `?bundle=` link. In each state no control leaves the window sideways (inside scroll
 * boxes too), no table or badge runs over its card, each table keeps its rows' names and its main
 * column in view, and the page speaks its language only, without careless writing (raw ISO
 * times, "n/r", "1 cases"). With SHOTS=<dir> every state is also shot at 390 and 1366 px into
 * that folder.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../fake-openai/server';
import { readTree, writeOutputRoot, zipFiles } from '../fixtures/bundles/folder';
import { startBrowser, type E2E } from './browser';
import { malformedDataset } from './fixtures';
import {
	LAPTOP,
	languageChecker,
	message,
	PAPER_TERMS,
	PHONE,
	type LanguageCheck
} from './i18n-support';
import {
	cellsOutOfView,
	controlsOffScreen,
	settled,
	boxesOverrun,
	tablesHidingMainColumn,
	tablesLosingRowNames,
	visibleLabel,
	visit,
	writingSlips
} from './phone-support';
import { startZipHost, type ZipHost } from './zip-host';
import {
	readSample,
	savedRecords,
	startLexPilotFake,
	waitForRunStatus,
	type LexPilotFake
} from './run-support';

const PAGES = ['/', '/dataset', '/models', '/prompts', '/run', '/results', '/inspect', '/bundles'];
const AREAS = [
	...['', 'dataset', 'models', 'run', 'results', 'inspect', 'bundles', 'core'],
	// The parts of those pages with their own catalogues.
	...['leaderboard', 'plans', 'rejudge', 'review', 'share']
];
/** The run held, paused, stopped and resumed: a long id, as a table beside a chart meets one. */
const HELD = 'phone_held_then_resumed_run';
/** An endpoint on a port the browser itself refuses to connect to. */
const BLOCKED = 'http://127.0.0.1:9/v1';
/** Data the pages show as it is: file names, run and model ids, the paper's metric names. */
const KEPT = [
	...PAPER_TERMS,
	'lexpilot-sample.json',
	'broken.json',
	'phone-sim',
	HELD,
	'phone-down',
	'phone-linked',
	'linked.zip',
	'hostile.zip',
	'../../outside.txt',
	'notes/readme.txt',
	BLOCKED,
	'fake-model',
	'simulated',
	// The SDK's and the browser's own words for a refused connection, quoted as they came.
	'Connection error. (Failed to fetch)'
];
const SHOTS = process.env.SHOTS;

let fake: LexPilotFake;
/** Held calls wait for this; `release` lets them (and every later call) answer. */
let gate: Promise<void> | undefined;
let release = () => {};
let deadURL: string;
let brokenPath: string;
let hostilePath: string;
/** Serves a bundle zip, with CORS, for Results' `?bundle=` link. */
let zipHost: ZipHost;
let checker: LanguageCheck;

beforeAll(async () => {
	checker = await languageChecker(AREAS, [], 'body');
	// Case numbers are the dataset's own.
	KEPT.push(...(await readSample()).cases.map((c) => c.case_number));
	fake = await startLexPilotFake(await readSample(), { hold: () => gate });
	const closed = await startFakeOpenAI();
	deadURL = closed.baseURL;
	await closed.close();
	brokenPath = join(await mkdtemp(join(tmpdir(), 'lexpilot-phone-')), 'broken.json');
	await writeFile(brokenPath, JSON.stringify(malformedDataset().cases));
	const files = await readTree(await writeOutputRoot([{ runId: 'phone-linked', limit: 3 }]));
	zipHost = await startZipHost({ '/linked.zip': { body: zipFiles(files) } }, { cors: true });
	const x = new TextEncoder().encode('x');
	files.set('../../outside.txt', x);
	files.set('notes/readme.txt', x);
	hostilePath = join(dirname(brokenPath), 'hostile.zip');
	await writeFile(hostilePath, zipFiles(files));
	if (SHOTS) await mkdir(SHOTS, { recursive: true });
});

afterAll(async () => {
	release();
	await fake?.server.close();
	await zipHost?.close();
});

describe.each(['zh-CN', 'en'] as const)('every page at 390 px in %s', (locale) => {
	let e: E2E;
	const t = (area: string, key: string, values?: Record<string, string | number>) =>
		message(area, locale, key, values);
	const failures: string[] = [];

	beforeAll(async () => {
		e = await startBrowser({ locale, viewport: PHONE });
		await e.page.goto(`${e.url}/`);
		await e.page.waitForFunction((locale) => document.documentElement.lang === locale, locale);
	});

	afterAll(async () => {
		await e?.close();
	});

	beforeEach(() => {
		failures.length = 0;
	});

	/** Checks the page as it is now; `state` names it in failures and screenshots. */
	async function check(page: Page, state: string) {
		const path = new URL(page.url()).pathname;
		const name = `${path === '/' ? 'home' : path.slice(1)}-${state}`;
		await settled(page);
		const words =
			locale === 'zh-CN'
				? await checker.englishLeft(page, KEPT)
				: await checker.chineseLeft(page, KEPT);
		for (const w of words) failures.push(`${name}: other language: ${w}`);
		for (const c of await controlsOffScreen(page)) failures.push(`${name}: off screen: ${c}`);
		for (const c of await tablesLosingRowNames(page)) failures.push(`${name}: ${c}`);
		for (const c of await tablesHidingMainColumn(page)) failures.push(`${name}: ${c}`);
		for (const c of await boxesOverrun(page)) failures.push(`${name}: ${c}`);
		for (const w of await writingSlips(page, locale === 'zh-CN')) failures.push(`${name}: ${w}`);
		if (SHOTS) {
			await page.screenshot({ path: join(SHOTS, `${locale}-390-${name}.png`), fullPage: true });
			await page.setViewportSize(LAPTOP);
			await settled(page);
			await page.screenshot({ path: join(SHOTS, `${locale}-1366-${name}.png`), fullPage: true });
			await page.setViewportSize(PHONE);
			await settled(page);
		}
	}

	/** What a page draws once it has read that there is no run yet (the dataset or not). */
	async function noRunsDrawn(page: Page, path: string) {
		const drawn: Record<string, () => Promise<Locator>> = {
			'/run': async () => page.getByTestId('run-id'),
			'/results': async () => page.getByTestId('results-empty'),
			'/inspect': async () =>
				page.getByRole('heading', { name: await t('inspect', 'inspect_no_runs'), level: 2 }),
			'/bundles': async () => page.getByTestId('no-runs')
		};
		await (await drawn[path]?.())?.waitFor();
	}

	async function everyPage(state: string) {
		for (const path of PAGES) {
			await visit(e.page, e.url, path);
			await noRunsDrawn(e.page, path);
			await check(e.page, state);
		}
	}

	/** On a laptop every table beside its chart shows all its columns. */
	async function tablesFitOnALaptop(page: Page, view: string) {
		await page.setViewportSize(LAPTOP);
		await settled(page);
		const cut = await page
			.getByTestId('metric-table')
			.evaluateAll((tables) =>
				tables
					.filter((t) => t.parentElement!.scrollWidth > t.parentElement!.clientWidth + 1)
					.map((t) => t.closest('section')?.getAttribute('data-testid'))
			);
		expect(cut, `tables cut at 1366 px in the ${view} view`).toEqual([]);
		// No stub of a line under a last row's name cell alone.
		const stubs = await page
			.locator('main table.data > tbody > tr:last-child > :first-child')
			.evaluateAll(
				(cells) => cells.filter((c) => parseFloat(getComputedStyle(c).borderBottomWidth) > 0).length
			);
		expect(stubs, `last rows with a line under their name in the ${view} view`).toBe(0);
		await page.setViewportSize(PHONE);
	}

	/** Chooses the Models page's endpoint mode with `baseURL` for every role. */
	async function endpoint(page: Page, baseURL: string) {
		await visit(page, e.url, '/models');
		await page.locator('input[name="mode"][value="api"]').check();
		await page.getByTestId('preset-default').selectOption('custom');
		await page.getByTestId('base-url-default').fill(baseURL);
		for (const role of ['evaluated', 'user', 'judge'])
			await page.getByTestId(`model-${role}`).fill('fake-model');
		// One case at a time: a pause leaves cases to run.
		await page.getByTestId('setting-concurrency').fill('1');
	}

	/** Fills the Run form (`stages` only, else all) and starts the run. */
	async function start(page: Page, runId: string, limit: number, stages?: string[]) {
		await visit(page, e.url, '/run');
		await page.getByTestId('run-id').fill(runId);
		await page.getByTestId('run-limit').fill(String(limit));
		for (const stage of ['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction'])
			await page.getByTestId(`stage-${stage}`).setChecked(stages?.includes(stage) ?? true);
		await page.getByTestId('start').click();
	}

	it('empty, loaded, and a broken dataset refused', async () => {
		const { page } = e;
		await everyPage('empty');
		await visit(page, e.url, '/dataset');
		await page.getByRole('button', { name: await t('dataset', 'dataset_load_sample') }).click();
		await page.getByTestId('summary-stats').waitFor();
		await everyPage('loaded');
		await visit(page, e.url, '/dataset');
		await page.setInputFiles('#dataset-file', brokenPath);
		await page.getByTestId('kept-dataset').waitFor();
		await check(page, 'refused');

		// Prompts: one template edited, then Reset all asks before it discards the edit.
		await visit(page, e.url, '/prompts');
		await page.getByTestId('template-force_judge').click();
		const text = page.getByTestId('template-text');
		const before = await text.inputValue();
		await text.fill(`${locale === 'zh-CN' ? '请认真阅读。' : 'Read carefully. '}${before}`);
		await page.getByTestId('template-save').click();
		await page.getByTestId('pack-status').waitFor();
		await check(page, 'edited');
		await page.getByTestId('pack-reset').click();
		await page.getByTestId('pack-reset-confirm').waitFor();
		await check(page, 'reset-confirm');
		await page.getByTestId('pack-reset-yes').click();
		await page.getByTestId('pack-reset-confirm').waitFor({ state: 'detached' });
		expect(failures).toEqual([]);
	});

	it('a run finished, running, paused, stopped, unfinished after a reload, failed', async () => {
		const { page } = e;
		// Finished, offline.
		await visit(page, e.url, '/models');
		await page.getByTestId('mode-simulated').check();
		await check(page, 'simulated');
		// The concurrency field's help goes under it on a phone, not in a narrow column beside it.
		const field = (await page.getByTestId('setting-concurrency').boundingBox())!;
		const help = (await page.getByTestId('concurrency-help').boundingBox())!;
		expect(help.y).toBeGreaterThanOrEqual(field.y + field.height);
		await page.getByTestId('test-user').click();
		await page.getByTestId('role-user').getByTestId('connection-message').waitFor();
		await check(page, 'simulated-tested');
		await start(page, 'phone-sim', 3);
		await waitForRunStatus(page, 'done', 90_000);
		await check(page, 'finished');

		// Running: every call held at the fake endpoint.
		gate = new Promise((ok) => (release = ok));
		await endpoint(page, BLOCKED);
		await page.getByTestId('test-evaluated').click();
		await page.getByTestId('role-evaluated').getByTestId('connection-result').waitFor();
		await check(page, 'port-blocked');
		// Start says so too, before any case is sent.
		await visit(page, e.url, '/run');
		await page.getByTestId('start-problems').getByText(BLOCKED).waitFor();
		await check(page, 'port-blocked');
		await endpoint(page, fake.server.baseURL);
		await check(page, 'endpoint');
		await page.getByTestId('test-evaluated').click();
		await page.getByTestId('role-evaluated').getByTestId('connection-result').waitFor();
		await check(page, 'tested');
		await start(page, HELD, 4, ['gen']);
		await waitForRunStatus(page, 'running');
		await expect.poll(() => fake.server.chatRequests.length).toBeGreaterThan(0);
		await check(page, 'running');
		// Results while the run is being written, then back to the Run page to pause it.
		await visit(page, e.url, '/results');
		await page.getByTestId('run-picker').getByText(HELD).waitFor();
		await check(page, 'writing');
		await visit(page, e.url, '/run');
		// Paused: the calls under way answer, no new case starts.
		await page.getByTestId('pause').click();
		release();
		gate = undefined;
		await waitForRunStatus(page, 'paused');
		await check(page, 'paused');
		await page.getByTestId('stop').click();
		await waitForRunStatus(page, 'stopped');
		await check(page, 'stopped');
		expect((await savedRecords(page, HELD)).interaction?.length ?? 0).toBeLessThan(4);

		// A reload: the run is listed as unfinished, with its Resume.
		await page.reload();
		await page.getByTestId(`unfinished-${HELD}`).waitFor();
		await check(page, 'unfinished');

		// Failed: nothing listens on the endpoint's port.
		await endpoint(page, deadURL);
		await start(page, 'phone-down', 1, ['gen']);
		await waitForRunStatus(page, 'failed', 90_000);
		await check(page, 'failed');
		expect(failures).toEqual([]);
	});

	it('results of two runs compared, a case inspected, a deletion confirmed', async () => {
		const { page } = e;
		// A second finished run to compare with.
		await endpoint(page, fake.server.baseURL);
		await start(page, HELD, 4, ['gen']);
		await waitForRunStatus(page, 'done', 90_000);
		await visit(page, e.url, '/results');
		await page.getByTestId('compare-panel').waitFor();
		// The intervals' brackets widen every cell.
		await page.waitForFunction(
			() =>
				document.querySelector('[data-testid="ci-status"]')?.getAttribute('data-status') ===
				'ready',
			null,
			{ timeout: 60_000, polling: 100 }
		);
		await check(page, 'compared');
		await tablesFitOnALaptop(page, 'runs');
		await page.locator('label:has(> input[name="mode"][value="groups"])').click();
		await check(page, 'groups');
		await tablesFitOnALaptop(page, 'groups');

		await visit(page, e.url, '/inspect');
		await page.getByTestId('case-table').waitFor();
		await check(page, 'table');
		await page.getByTestId('case-table').locator('tbody tr[data-case] a').first().click();
		await page.getByTestId('case-number').waitFor();
		await check(page, 'case');

		// The case compared with the other finished run: two marks a cell.
		await visit(page, e.url, '/inspect');
		const vs = page.getByTestId('vs-select');
		const other = await vs
			.locator('option:not([disabled])')
			.evaluateAll(
				(options, ids) =>
					options
						.map((o) => o as HTMLOptionElement)
						.find((o) => ids.some((id) => o.text.includes(id)))?.value,
				['phone-sim', HELD]
			);
		expect(other).toBeTruthy();
		await vs.selectOption(other!);
		await page.getByTestId('case-table').waitFor();
		await check(page, 'table-compared');
		await page.getByTestId('case-table').locator('tbody tr[data-case] a').first().click();
		await page.getByTestId('compare').waitFor();
		await check(page, 'case-compared');

		// Inspect's review queue of the simulated run, offered and then started.
		await visit(page, e.url, '/inspect');
		const runs = page.getByTestId('run-select');
		const sim = await runs
			.locator('option')
			.evaluateAll(
				(options) =>
					options.map((o) => o as HTMLOptionElement).find((o) => o.text.includes('phone-sim'))
						?.value
			);
		await runs.selectOption(sim!);
		await page.getByTestId('review-section').waitFor();
		await check(page, 'review-offered');
		await page.getByTestId('reviewer').fill('R');
		await page.getByRole('button', { name: await t('review', 'review_start') }).click();
		await page.getByTestId('review-decision').waitFor();
		await check(page, 'review');
		// The review heading names the LJP setup as the rest of the page does ("Gold", not "gold").
		const heading = await page.getByTestId('review-decision').locator('h3').innerText();
		expect(heading).not.toMatch(
			locale === 'zh-CN'
				? /\b(direct|gold|interaction|complete|underspecified)\b/
				: /\((direct|gold|interaction)\)/
		);

		// A case of the simulated run: each claim's name and its verdicts, every setup, in view.
		await page.getByTestId('case-table').locator('tbody tr[data-case] a').first().click();
		await page.getByTestId('ljp-table').waitFor();
		await check(page, 'case-ljp');
		const ljp = '[data-testid="ljp-table"] tbody td';
		expect(await page.locator(ljp).count()).toBeGreaterThan(0);
		expect(await cellsOutOfView(page, ljp)).toEqual([]);

		await visit(page, e.url, '/bundles');
		// The select-all box says what it does, on a phone too.
		expect(
			await visibleLabel(page, '[data-testid="stored-runs"] thead input[type="checkbox"]')
		).toBe(await t('bundles', 'bundles_select_all'));
		await page
			.getByRole('button', { name: await t('bundles', 'bundles_delete_ask') })
			.first()
			.click();
		await page
			.getByRole('button', { name: await t('bundles', 'bundles_keep'), exact: true })
			.waitFor();
		await check(page, 'confirming');
		// On a laptop too: the question wraps inside its row, Delete and Keep stay in view.
		await page.setViewportSize(LAPTOP);
		await settled(page);
		for (const c of await controlsOffScreen(page))
			failures.push(`bundles-confirming at 1366: ${c}`);
		await page.setViewportSize(PHONE);
		await settled(page);
		await page
			.getByRole('button', { name: await t('bundles', 'bundles_keep'), exact: true })
			.click();

		// An import refused whole, naming each problem.
		await page.locator('#bundle-file').setInputFiles(hostilePath);
		await page.getByTestId('bundle-outcome').waitFor();
		await check(page, 'import-refused');
		expect(failures).toEqual([]);
	});

	it('a bundle opened from a ?bundle= link, asked for, then shown read-only', async () => {
		const { page } = e;
		await page.goto(`${e.url}/results?bundle=${encodeURIComponent(`${zipHost.url}/linked.zip`)}`);
		await page.getByTestId('bundle-confirm').waitFor();
		await check(page, 'bundle-confirm');
		await page.getByTestId('bundle-confirm').getByRole('button').first().click();
		await page.getByTestId('bundle-read-only').waitFor();
		await page.getByTestId('figure-lca-overall').locator('td[data-series]').first().waitFor();
		await check(page, 'bundle-open');
		expect(failures).toEqual([]);
	});
});
