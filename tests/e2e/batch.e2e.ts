/**
 * Batch mode on the Run page in Chromium (PROTOCOL.md §3, batch mode): a run of the sample sent
 * in rounds to the fake provider's Batch API, the page reloaded while a round is out (the round
 * is polled after the reload, never submitted again), ending with the records of an interactive
 * run; and files mode once by hand: the round's input file downloaded, answered by this test
 * playing the cluster, its output uploaded, and a file of another round refused by name and line.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/lib/core/dataset/load';
import { startBrowser, type E2E } from './browser';
import { LAPTOP, PHONE } from './i18n-support';
import { controlsOffScreen, settled } from './phone-support';
import { answerFile, batchState, recordsOf, settledStatus, waitForRound } from './batch-support';
import {
	fillRunForm,
	loadSampleDataset,
	readSample,
	startLexPilotFake,
	useEndpoint,
	waitForRunStatus,
	type LexPilotFake
} from './run-support';

const CASES = 2;

describe('Run page in batch mode', () => {
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

	it('sends rounds to the Batch API, polls a round again after a reload, and saves the interactive records', async () => {
		const fake = await startLexPilotFake(sample, { batch: { delayMs: 1500 } });
		fakes.push(fake);
		const { page } = e;
		await loadSampleDataset(page, e.url);
		await useEndpoint(page, fake.server.baseURL);

		// The same run, interactive: the records batch mode must give.
		await fillRunForm(page, { runId: 'inter', limit: CASES });
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'done', 120_000);
		const interactive = await recordsOf(page, 'inter');
		expect(Object.keys(interactive).length).toBeGreaterThan(3);
		const interactiveCalls = fake.server.chatRequests.length;
		expect(fake.server.batches.lines).toHaveLength(0);

		await fillRunForm(page, { runId: 'batched', limit: CASES });
		await page.getByTestId('batch-provider').check();
		await page.getByTestId('start').click();
		// Round 2 out: one round answered before the reload, one to poll after it.
		const out = await waitForRound(page, 'submitted');
		expect(out).toBeGreaterThanOrEqual(1);
		expect(await page.getByTestId('batch-round-requests').innerText()).toMatch(/^\d+$/);
		// The rounds to expect: those sent before the round out, and the longest chain it heads.
		const expected = page.getByTestId('batch-expect');
		const saved = (await batchState(page, 'batched'))!.rounds.at(-1)!;
		expect(Number(await expected.getAttribute('data-count'))).toBe(out - 1 + saved.chain_ahead!);
		expect(await expected.innerText()).toMatch(
			/^up to (\d+) rounds\s+if no request fails;.*24-hour window/
		);
		await e.screenshot('batch-provider-submitted');
		const before = fake.server.batches.batches.size;
		await page.reload();
		// Taken up again by itself once the dataset is back: polled, then on to the end.
		await waitForRunStatus(page, 'done', 240_000);
		// No model call went out interactively in batch mode.
		expect(fake.server.chatRequests.length).toBe(interactiveCalls);
		const state = await batchState(page, 'batched');
		expect(state?.rounds.every((r) => r.status === 'answered')).toBe(true);
		// One batch per round (one model and endpoint): the round out at the reload was not made again.
		expect(fake.server.batches.batches.size).toBe(state!.rounds.length);
		expect(before).toBeGreaterThanOrEqual(out);
		const ids = fake.server.batches.lines.map((l) => l.customId);
		expect(new Set(ids).size).toBe(ids.length);
		expect(await recordsOf(page, 'batched')).toEqual(interactive);
	});

	it('offers a files round for download, takes its output back, and passes over a file of a round imported before', async () => {
		const fake = await startLexPilotFake(sample);
		fakes.push(fake);
		const { page } = e;
		await useEndpoint(page, fake.server.baseURL);
		await fillRunForm(page, { runId: 'files', limit: 1, stages: ['gen'] });
		await page.getByTestId('batch-files').check();
		await page.getByTestId('start').click();

		let first: { name: string; text: string } | null = null;
		for (let round = 1; ; round++) {
			const now = await settledStatus(page);
			if (now === 'done') break;
			expect(now).toBe('waiting');
			expect(await waitForRound(page, 'written')).toBe(round);
			if (round === 1) {
				// gen heads the longest chain the protocol allows: 11 rounds (BATCH.md, "Rounds").
				expect(await page.getByTestId('batch-expect').getAttribute('data-count')).toBe('11');
				await e.screenshot('batch-files-waiting');
			}
			const downloads = page.getByTestId('batch-download');
			expect(await downloads.count()).toBe(1);
			const [download] = await Promise.all([page.waitForEvent('download'), downloads.click()]);
			const input = await readFile((await download.path())!, 'utf8');
			expect(input.split('\n').filter(Boolean).length).toBeGreaterThan(0);
			const name = `${download.suggestedFilename().replace(/\.jsonl$/, '')}.output.jsonl`;
			const output = { name, text: await answerFile(input, fake.server.baseURL) };
			if (first) {
				// Round 1's output again: lines the run took before, passed over (an import run twice
				// is harmless), nothing saved, and this round still waits for its own output.
				await page.getByTestId('batch-upload').setInputFiles({
					name: first.name,
					mimeType: 'application/jsonl',
					buffer: Buffer.from(first.text)
				});
				const note = page.locator('[data-testid="batch-upload-note"][data-already="true"]');
				await note.waitFor({ timeout: 30_000 });
				expect(await note.innerText()).toContain(
					'were taken in round 1 before; nothing saved again'
				);
				expect((await batchState(page, 'files'))?.rounds.at(-1)?.status).toBe('written');
				await e.screenshot('batch-files-already');
				first = null;
			}
			if (round === 1) first = output;
			await page.getByTestId('batch-upload').setInputFiles({
				name: output.name,
				mimeType: 'application/jsonl',
				buffer: Buffer.from(output.text)
			});
			// Taken: the run goes on, to the next round or to its end.
			await page.waitForFunction(
				(round) => {
					const s = document
						.querySelector('[data-testid="run-status"]')
						?.getAttribute('data-status');
					const r = document.querySelector('[data-testid="batch-round-status"]');
					return s === 'done' || s === 'failed' || Number(r?.getAttribute('data-round')) > round;
				},
				round,
				{ timeout: 90_000, polling: 100 }
			);
		}
		const state = await batchState(page, 'files');
		expect(state!.rounds.length).toBeGreaterThanOrEqual(2);
		expect(state!.rounds.every((r) => r.status === 'answered')).toBe(true);
		expect(fake.server.batches.batches.size).toBe(0);
	});

	it('keeps the batch choice and a waiting round inside a 390 px screen, in both languages', async () => {
		const { page } = e;
		await fillRunForm(page, { runId: 'phone', limit: 1, stages: ['gen'] });
		await page.getByTestId('batch-files').check();
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'waiting');
		await page.getByTestId('batch-download').waitFor();
		for (const locale of ['zh-CN', 'en']) {
			await page.getByTestId('language').selectOption(locale);
			await page.waitForFunction((l) => document.documentElement.lang === l, locale);
			await page.setViewportSize(PHONE);
			await settled(page);
			expect(await controlsOffScreen(page)).toEqual([]);
			const wide = await page.evaluate(() =>
				['batch-choice', 'batch-round']
					.map((id) => document.querySelector(`[data-testid="${id}"]`)!.getBoundingClientRect())
					.filter((box) => box.right > document.documentElement.clientWidth + 1)
					.map((box) => box.right)
			);
			expect(wide).toEqual([]);
			await e.screenshot(`batch-${locale}-390`);
			await e.screenshot(`batch-${locale}-390-progress`, page.getByTestId('run-progress'));
			await e.screenshot(`batch-${locale}-390-choice`, page.getByTestId('batch-choice'));
			await page.setViewportSize(LAPTOP);
			await settled(page);
			await e.screenshot(`batch-${locale}-1366`);
		}
	});

	it('stops a files round waiting for its outputs, offers it again after a reload, and dismisses it', async () => {
		const { page } = e;
		// The waiting run of the test before ('phone', gen of one case, round 1 written).
		await waitForRunStatus(page, 'waiting');
		const download = async () => {
			const [file] = await Promise.all([
				page.waitForEvent('download'),
				page.getByTestId('batch-download').click()
			]);
			return readFile((await file.path())!, 'utf8');
		};
		const input = await download();
		expect(await page.getByTestId('run-dismiss').isVisible()).toBe(true);
		await page.getByTestId('stop').click();
		await waitForRunStatus(page, 'stopped');
		// Stopped waiting: the files are no longer offered, the round stays saved.
		expect(await page.getByTestId('batch-download').count()).toBe(0);
		const note = page.getByTestId('batch-waiting-stopped');
		expect(await note.innerText()).toContain('Round 1 stays saved');
		expect((await batchState(page, 'phone'))?.rounds.map((r) => r.status)).toEqual(['written']);
		const plans = () =>
			page.evaluate(
				() =>
					JSON.parse(localStorage.getItem('lexpilot.run-plans.v1') ?? '[]') as {
						runId: string;
						status: string;
					}[]
			);
		expect((await plans()).find((p) => p.runId === 'phone')?.status).toBe('stopped');
		await page.getByTestId('language').selectOption('zh-CN');
		await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
		expect(await note.innerText()).toContain('第 1 轮仍然保存着');
		await e.screenshot('batch-files-stopped-zh-CN', page.getByTestId('run-progress'));
		await page.getByTestId('language').selectOption('en');
		await page.waitForFunction(() => document.documentElement.lang === 'en');
		await e.screenshot('batch-files-stopped-en', page.getByTestId('run-progress'));

		// After a reload it is listed, not taken up; Resume there offers the same round's file.
		await page.reload();
		// Resume asks for the dataset the run was made with: once it is loaded again.
		await page.getByTestId('ready-dataset').getByText('lexpilot-sample.json').waitFor();
		await page.getByTestId('resume-phone').click();
		await waitForRunStatus(page, 'waiting');
		expect(await waitForRound(page, 'written')).toBe(1);
		expect(await download()).toBe(input);

		// Dismissed: the card goes and the run is forgotten here; its saved round stays.
		await page.getByTestId('run-dismiss').click();
		await page.getByTestId('run-progress').waitFor({ state: 'detached' });
		expect((await plans()).some((p) => p.runId === 'phone')).toBe(false);
		expect(await page.getByTestId('unfinished-phone').count()).toBe(0);
		expect((await batchState(page, 'phone'))?.rounds.map((r) => r.status)).toEqual(['written']);
	});
});
