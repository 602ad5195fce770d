/**
 * A run plan in batch mode from the Run page in Chromium (PROTOCOL.md §3, batch mode; §6, run
 * plans): 2 models on the fake provider × 2 repetitions sent in rounds to its Batch API, every run
 * at once, the page reloaded while rounds are out (every run's round is polled after the reload,
 * never made again), ending with the records of the same plan run interactively in this page; and
 * files mode once: every run's round files downloaded, answered by this test playing the cluster,
 * uploaded all at once (a line of a run outside the plan refused by file and line, nothing saved),
 * on to the end. Its card is checked in both languages at 390 and 1366 px.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/lib/core/dataset/load';
import { startBrowser, type E2E } from './browser';
import { LAPTOP, PHONE, planStatus } from './i18n-support';
import { controlsOffScreen, settled } from './phone-support';
import {
	fillRunForm,
	loadSampleDataset,
	readSample,
	startLexPilotFake,
	storedRows,
	useEndpoint,
	type LexPilotFake
} from './run-support';
import { answerFile } from './batch-support';

const DB = 'lexpilot-workbench';
const MODELS = ['model-a', 'model-b'];
const REPS = [1, 2];

/** Every run's stage files of the plan `prefix`, by model folder, repetition and file, run id made neutral. */
async function planRecords(page: Page, prefix: string): Promise<Record<string, string[]>> {
	const rows = await storedRows<{
		runId: string;
		modelDir: string;
		file: string;
		seq: number;
		json: string;
	}>(page, DB, 'records');
	const out: Record<string, string[]> = {};
	const mine = rows.filter((r) => new RegExp(`^${prefix}\\d$`).test(r.runId));
	for (const row of mine.sort((a, b) => a.seq - b.seq)) {
		const rep = row.runId.slice(prefix.length);
		const json = row.json.replaceAll(`"run_id":"${row.runId}"`, '"run_id":"R"');
		(out[`${row.modelDir}/${rep}/${row.file}`] ??= []).push(json);
	}
	return out;
}

interface SavedRound {
	round: number;
	status: string;
	files: { name: string }[];
}

/** Every run's saved rounds of the plan `prefix`. */
async function planRounds(page: Page, prefix: string): Promise<SavedRound[][]> {
	const rows = await storedRows<{ runId: string; json: string }>(page, DB, 'batch_states');
	return rows
		.filter((r) => r.runId.startsWith(prefix))
		.map((r) => (JSON.parse(r.json) as { rounds: SavedRound[] }).rounds);
}

/** The plan's form: the fake's two models, 2 repetitions, run id prefix `runId`. */
async function planForm(page: Page, runId: string, limit: number, stages?: string[]) {
	await fillRunForm(page, { runId, limit, stages });
	for (const [i, model] of MODELS.entries()) {
		if (i > 0 && (await page.getByTestId(`plan-model-id-${i}`).count()) === 0) {
			await page.getByTestId('plan-add-model').click();
		}
		await page.getByTestId(`plan-model-id-${i}`).fill(model);
	}
	await page.getByTestId('plan-repetitions').fill(String(REPS.length));
}

describe('a run plan in batch mode on the Run page', () => {
	let e: E2E;
	let sample: Dataset;
	const fakes: LexPilotFake[] = [];

	beforeAll(async () => {
		sample = await readSample();
		e = await startBrowser({ viewport: LAPTOP });
	});
	afterAll(async () => {
		await e?.close();
		for (const f of fakes) await f.server.close();
	});
	afterEach(() => {
		const problems = e.problems.splice(0);
		expect(problems, problems.join('\n')).toEqual([]);
	});

	it('sends every run’s rounds to the Batch API, polls them again after a reload, and saves the interactive plan’s records', async () => {
		const fake = await startLexPilotFake(sample, { batch: { delayMs: 1500 } });
		fakes.push(fake);
		const { page } = e;
		await loadSampleDataset(page, e.url);
		await useEndpoint(page, fake.server.baseURL);

		// The same plan, interactive: the records batch mode must give.
		await planForm(page, 'inter', 2);
		await page.getByTestId('batch-interactive').check();
		await page.getByTestId('start').click();
		await page.getByTestId(`plan-row-${MODELS[0]}-inter1`).waitFor({ timeout: 60_000 });
		expect(await planStatus(page, ['done', 'failed'], 180_000)).toBe('done');
		const interactive = await planRecords(page, 'inter');
		expect(Object.keys(interactive).length).toBeGreaterThan(4 * 3);
		const interactiveCalls = fake.server.chatRequests.length;
		expect(fake.server.batches.lines).toHaveLength(0);

		await planForm(page, 'bat', 2);
		await page.getByTestId('batch-provider').check();
		await page.getByTestId('start').click();
		await page.getByTestId(`plan-batch-row-${MODELS[0]}-bat1`).waitFor({ timeout: 60_000 });
		expect(await page.getByTestId('plan-batch-mode').getAttribute('data-mode')).toBe('provider');
		// Every run has round 2 or later out: rounds answered before the reload, more to poll after it.
		await page.waitForFunction(
			() => {
				const rows = [...document.querySelectorAll('[data-testid^="plan-batch-row-"]')];
				return (
					rows.length === 4 &&
					rows.every(
						(r) =>
							Number(r.getAttribute('data-round')) >= 2 &&
							r.getAttribute('data-round-status') === 'submitted'
					)
				);
			},
			null,
			{ timeout: 120_000, polling: 100 }
		);
		// No concurrency or ETA figures in batch mode: each row has its round's requests and sent time.
		expect(await page.getByTestId('plan-figures').count()).toBe(0);
		for (const model of MODELS)
			for (const rep of REPS) {
				const row = page.getByTestId(`plan-batch-row-${model}-bat${rep}`);
				expect(await row.locator('time').count()).toBe(1);
				expect(await row.locator('td').nth(6).innerText()).toMatch(/^\d+$/);
			}
		await e.screenshot('plan-batch-provider-out');
		const before = fake.server.batches.batches.size;
		await page.reload();
		// Taken up again by itself once the dataset is back: polled, then on to the end.
		expect(await planStatus(page, ['done', 'failed', 'stopped'], 300_000)).toBe('done');
		await e.screenshot('plan-batch-provider-done');
		for (const model of MODELS)
			for (const rep of REPS) {
				const row = page.getByTestId(`plan-batch-row-${model}-bat${rep}`);
				expect(await row.getAttribute('data-status')).toBe('done');
			}
		// No model call went out interactively in batch mode.
		expect(fake.server.chatRequests.length).toBe(interactiveCalls);
		const rounds = await planRounds(page, 'bat');
		expect(rounds).toHaveLength(4);
		expect(rounds.flat().every((r) => r.status === 'answered')).toBe(true);
		// One batch per file of each round: none out at the reload was made again.
		const files = rounds.flat().reduce((n, r) => n + r.files.length, 0);
		expect(fake.server.batches.batches.size).toBe(files);
		expect(before).toBeGreaterThanOrEqual(8);
		const ids = fake.server.batches.lines.map((l) => l.customId);
		expect(new Set(ids).size).toBe(ids.length);
		expect(await planRecords(page, 'bat')).toEqual(interactive);
		expect(await page.getByTestId('unfinished-plan').count()).toBe(0);
	});

	it('offers every run’s files, takes one upload for all of them, refuses a line of another run, and goes on to the end', async () => {
		const fake = await startLexPilotFake(sample);
		fakes.push(fake);
		const { page } = e;
		await useEndpoint(page, fake.server.baseURL);
		await planForm(page, 'files', 1, ['gen']);
		await page.getByTestId('batch-files').check();
		await page.getByTestId('start').click();
		// This plan's card, not the last plan's (done) still shown while this one starts.
		await page.getByTestId(`plan-batch-row-${MODELS[0]}-files1`).waitFor({ timeout: 60_000 });

		for (let round = 1; ; round++) {
			const now = await planStatus(page, ['waiting', 'done', 'failed', 'stopped'], 180_000);
			if (now === 'done') break;
			expect(now).toBe('waiting');
			// Every run waits with its own files, grouped by run.
			const groups = page.getByTestId('plan-batch-run-files');
			await groups.first().waitFor();
			expect(await groups.count()).toBe(4);
			const downloads = page.getByTestId('plan-batch-download');
			const inputs: string[] = [];
			for (let i = 0; i < (await downloads.count()); i++) {
				const [download] = await Promise.all([
					page.waitForEvent('download'),
					downloads.nth(i).click()
				]);
				// Named after its run first: two repetitions of a model have files of one name.
				const run = await downloads.nth(i).getAttribute('data-run');
				expect(download.suggestedFilename()).toMatch(
					new RegExp(`^${run}-round-${round}-.*\\.jsonl$`)
				);
				inputs.push(await readFile((await download.path())!, 'utf8'));
			}
			expect(inputs.length).toBeGreaterThanOrEqual(4);
			const text = await answerFile(inputs.join(''), fake.server.baseURL);
			if (round === 1) {
				await e.screenshot('plan-batch-files-waiting');
				// A line of a run outside the plan (its run hash changed): refused by file and line.
				const [first, ...rest] = text.split('\n');
				const other = first.replace(
					/"custom_id":"lp1\.[0-9a-f]{8}\./,
					'"custom_id":"lp1.00000000.'
				);
				const saved = await planRounds(page, 'files');
				await page.getByTestId('plan-batch-upload').setInputFiles({
					name: 'cluster.output.jsonl',
					mimeType: 'application/jsonl',
					buffer: Buffer.from([other, ...rest].join('\n'))
				});
				const note = page.locator('[data-testid="plan-batch-upload-note"][data-ok="false"]');
				await note.waitFor({ timeout: 30_000 });
				expect(await note.innerText()).toContain('cluster.output.jsonl, line 1');
				expect(await planRounds(page, 'files')).toEqual(saved);
				await e.screenshot('plan-batch-files-refused');
			}
			// The whole round's outputs of every run, in one upload of two files.
			const lines = text.split('\n').filter(Boolean);
			const half = Math.ceil(lines.length / 2);
			await page.getByTestId('plan-batch-upload').setInputFiles(
				[lines.slice(0, half), lines.slice(half)].map((part, i) => ({
					name: `part-${i}.output.jsonl`,
					mimeType: 'application/jsonl',
					buffer: Buffer.from(part.map((l) => `${l}\n`).join(''))
				}))
			);
			await page
				.locator('[data-testid="plan-batch-upload-note"][data-ok="true"]')
				.waitFor({ timeout: 30_000 });
			// Taken: the plan goes on, to the next round of every run or to its end.
			await page.waitForFunction(
				(round) => {
					const s = document
						.querySelector('[data-testid="plan-status"]')
						?.getAttribute('data-status');
					const rows = [...document.querySelectorAll('[data-testid^="plan-batch-row-"]')];
					return (
						s === 'done' ||
						s === 'failed' ||
						(s === 'waiting' && rows.every((r) => Number(r.getAttribute('data-round')) > round))
					);
				},
				round,
				{ timeout: 90_000, polling: 100 }
			);
		}
		const rounds = await planRounds(page, 'files');
		expect(rounds).toHaveLength(4);
		expect(rounds.every((r) => r.length >= 2)).toBe(true);
		expect(rounds.flat().every((r) => r.status === 'answered')).toBe(true);
		expect(fake.server.batches.batches.size).toBe(0);
	});

	it('keeps the plan’s batch card inside a 390 px screen, in both languages', async () => {
		const { page } = e;
		await planForm(page, 'phone', 1, ['gen']);
		await page.getByTestId('batch-files').check();
		await page.getByTestId('start').click();
		await page.getByTestId(`plan-batch-row-${MODELS[0]}-phone1`).waitFor({ timeout: 60_000 });
		expect(await planStatus(page, ['waiting', 'failed'])).toBe('waiting');
		await page.getByTestId('plan-batch-download').first().waitFor();
		for (const locale of ['zh-CN', 'en']) {
			await page.getByTestId('language').selectOption(locale);
			await page.waitForFunction((l) => document.documentElement.lang === l, locale);
			const words = JSON.parse(
				await readFile(`messages/planbatch/${locale}.json`, 'utf8')
			) as Record<string, string>;
			expect(await page.getByTestId('plan-status').innerText()).toBe(
				words.planbatch_status_waiting
			);
			const batchWords = JSON.parse(
				await readFile(`messages/batch/${locale}.json`, 'utf8')
			) as Record<string, string>;
			const row = page.getByTestId(`plan-batch-row-${MODELS[0]}-phone1`);
			expect(await row.locator('td').nth(4).innerText()).toBe(batchWords.batch_status_written);
			await page.setViewportSize(PHONE);
			await settled(page);
			expect(await controlsOffScreen(page)).toEqual([]);
			const wide = await page.evaluate(
				() =>
					document.querySelector('[data-testid="plan-batch-progress"]')!.getBoundingClientRect()
						.right
			);
			expect(wide).toBeLessThanOrEqual(PHONE.width + 1);
			// Each run a block of labelled lines: no row of column heads above them.
			const heads = page.getByTestId('plan-batch-progress').locator('thead');
			expect(await heads.isVisible()).toBe(false);
			await e.screenshot(`plan-batch-${locale}-390`, page.getByTestId('plan-batch-progress'));
			await page.setViewportSize(LAPTOP);
			await settled(page);
			await e.screenshot(`plan-batch-${locale}-1366`, page.getByTestId('plan-batch-progress'));
		}
	});

	it('stops a plan waiting for its outputs, goes on with the same rounds, and dismisses it', async () => {
		const { page } = e;
		// The waiting plan of the test before ('phone', round 1 of every run written).
		expect(await planStatus(page, ['waiting'])).toBe('waiting');
		const row = page.getByTestId(`plan-batch-row-${MODELS[0]}-phone1`);
		// gen heads the longest chain the protocol allows: round 1 of up to 11.
		expect(await row.locator('td').nth(3).getAttribute('data-expect')).toBe('11');
		expect(await row.locator('td').nth(3).innerText()).toMatch(/^1\s*of up to 11$/);
		const before = await planRounds(page, 'phone');
		await page.getByTestId('plan-stop').click();
		expect(await planStatus(page, ['stopped'])).toBe('stopped');
		expect(await page.getByTestId('plan-batch-download').count()).toBe(0);
		expect(await planRounds(page, 'phone')).toEqual(before);
		await e.screenshot('plan-batch-files-stopped', page.getByTestId('plan-batch-progress'));

		// Resume: every run waits again on its saved round 1, its files offered.
		await page.getByTestId('plan-restart').click();
		expect(await planStatus(page, ['waiting', 'failed'])).toBe('waiting');
		await page.getByTestId('plan-batch-download').first().waitFor();
		expect(await planRounds(page, 'phone')).toEqual(before);

		await page.getByTestId('plan-dismiss').click();
		await page.getByTestId('plan-batch-progress').waitFor({ state: 'detached' });
		const stored = await page.evaluate(() =>
			Object.values(
				JSON.parse(localStorage.getItem('lexpilot.plan-specs.v1') ?? '{}') as Record<
					string,
					{ spec: { runId: string } }
				>
			).map((p) => p.spec.runId)
		);
		expect(stored).not.toContain('phone');
		expect(await planRounds(page, 'phone')).toEqual(before);
	});
});
