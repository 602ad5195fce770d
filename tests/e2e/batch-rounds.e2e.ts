/**
 * The single run's rounds on the Run page in Chromium (PROTOCOL.md §3, batch mode): the Progress
 * card shows rounds instead of rate, time left and concurrency (both languages, 390 and 1366 px);
 * Stop while a provider round is out cancels its batch at the provider and marks it cancelled,
 * and a later Start sends its requests in a new round, ending with the records and call log of an
 * uninterrupted run; a waiting files round is offered for download again after a reload.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/lib/core/dataset/load';
import { startBrowser, type E2E } from './browser';
import { LAPTOP, PHONE } from './i18n-support';
import { controlsOffScreen, settled } from './phone-support';
import {
	answerFile,
	batchState,
	DB,
	recordsOf,
	settledStatus,
	waitForRound
} from './batch-support';
import {
	fillRunForm,
	loadSampleDataset,
	readSample,
	startLexPilotFake,
	storedRows,
	useEndpoint,
	waitForRunStatus,
	type LexPilotFake
} from './run-support';

const TIMING = ['session', 'seq', 'started_at', 'latency_ms', 'delay_ms'];

/** The run's call-log lines, less what tells one start or moment from another. */
async function callsOf(page: Page, runId: string): Promise<string[]> {
	const rows = await storedRows<{ runId: string; json: string }>(page, DB, 'calls');
	return rows
		.filter((r) => r.runId === runId)
		.map((r) => {
			const entry = JSON.parse(r.json);
			for (const key of TIMING) delete entry[key];
			for (const a of entry.attempts) for (const key of TIMING) delete a[key];
			return JSON.stringify(entry).replaceAll(runId, 'R');
		})
		.sort();
}

/** Each round as `<round>:<status>`. */
function roundsOf(state: Awaited<ReturnType<typeof batchState>>) {
	return state!.rounds.map((r) => `${r.round}:${r.status}`);
}

/** Checks the card and the whole page fit 390 px and 1366 px in both languages; screenshots. */
async function fits(e: E2E, name: string): Promise<void> {
	const { page } = e;
	for (const locale of ['zh-CN', 'en']) {
		await page.getByTestId('language').selectOption(locale);
		await page.waitForFunction((l) => document.documentElement.lang === l, locale);
		for (const [size, width] of [
			[PHONE, 390],
			[LAPTOP, 1366]
		] as const) {
			await page.setViewportSize(size);
			await settled(page);
			expect(await controlsOffScreen(page)).toEqual([]);
			const wide = await page.evaluate(() => {
				const box = document.querySelector('[data-testid="run-progress"]')!.getBoundingClientRect();
				return box.right > document.documentElement.clientWidth + 1 ? box.right : null;
			});
			expect(wide).toBeNull();
			await e.screenshot(`${name}-${locale}-${width}`, page.getByTestId('run-progress'));
		}
	}
}

describe('Run page: a run’s batch rounds', () => {
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

	it('Stop cancels the round out at the provider; Start sends it again in a new round and ends as an uninterrupted run', async () => {
		// The second batch (round 2) is held until cancelled; every other answers at once.
		const fake = await startLexPilotFake(sample, {
			batch: { delayMs: (i) => (i === 1 ? 600_000 : 200) }
		});
		fakes.push(fake);
		const { page } = e;
		await loadSampleDataset(page, e.url);
		await useEndpoint(page, fake.server.baseURL);

		await fillRunForm(page, { runId: 'whole', limit: 1 });
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'done', 120_000);
		const interactive = {
			records: await recordsOf(page, 'whole'),
			calls: await callsOf(page, 'whole')
		};
		expect(interactive.calls.length).toBeGreaterThan(5);

		await fillRunForm(page, { runId: 'stopped', limit: 1 });
		await page.getByTestId('batch-provider').check();
		await page.getByTestId('start').click();
		expect(await waitForRound(page, 'submitted')).toBe(1);
		// Round 2 out and polled: the card says so, and what rounds mean instead of rate and ETA.
		await page.waitForFunction(
			() => {
				const el = document.querySelector('[data-testid="batch-round-status"]');
				return el?.getAttribute('data-round') === '2' && el.getAttribute('data-polled') !== '';
			},
			null,
			{ timeout: 90_000, polling: 100 }
		);
		expect(await page.getByTestId('run-overall').count()).toBe(0);
		expect(await page.getByTestId('overall-eta').count()).toBe(0);
		const answered = page.getByTestId('batch-answered');
		expect(Number(await answered.getAttribute('data-count'))).toBeGreaterThan(0);
		await page.waitForFunction(
			() =>
				document.querySelector('[data-testid="batch-chain"]')?.getAttribute('data-count') === '1',
			null,
			{ timeout: 30_000, polling: 100 }
		);
		expect(await page.getByTestId('batch-next').innerText()).toContain('Stop');
		await fits(e, 'batchui-provider-polling');

		await page.getByTestId('stop').click();
		await waitForRunStatus(page, 'stopped', 60_000);
		expect(await waitForRound(page, 'cancelled', 30_000)).toBe(2);
		expect(fake.server.batches.cancels).toEqual(['batch_2']);
		expect(fake.server.batches.batches.get('batch_2')?.status).toBe('cancelled');
		expect(roundsOf(await batchState(page, 'stopped'))).toEqual(['1:answered', '2:cancelled']);
		await page.getByTestId('batch-next').waitFor();
		await fits(e, 'batchui-provider-cancelled');

		// Start again: round 2's requests go out in round 3, and the run ends.
		await fillRunForm(page, { runId: 'stopped', limit: 1 });
		await page.getByTestId('batch-provider').check();
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'done', 240_000);
		const state = await batchState(page, 'stopped');
		expect(state!.rounds[1]).toMatchObject({ round: 2, status: 'cancelled' });
		expect(state!.rounds[2]).toMatchObject({ round: 3, requests: state!.rounds[1].requests });
		expect(state!.rounds.slice(2).every((r) => r.status === 'answered')).toBe(true);
		// The held batch never ran: every request a batch ran, once.
		const ids = fake.server.batches.lines.map((l) => l.customId);
		expect(new Set(ids).size).toBe(ids.length);
		expect(await recordsOf(page, 'stopped')).toEqual(interactive.records);
		expect(await callsOf(page, 'stopped')).toEqual(interactive.calls);
		await fits(e, 'batchui-provider-done');
	});

	it('offers a waiting files round for download again after a reload, and goes on', async () => {
		const fake = await startLexPilotFake(sample);
		fakes.push(fake);
		const { page } = e;
		await useEndpoint(page, fake.server.baseURL);
		await fillRunForm(page, { runId: 'files-whole', limit: 1, stages: ['gen'] });
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'done', 120_000);
		const interactive = await recordsOf(page, 'files-whole');

		await fillRunForm(page, { runId: 'files-reload', limit: 1, stages: ['gen'] });
		await page.getByTestId('batch-files').check();
		await page.getByTestId('start').click();
		for (let round = 1; ; round++) {
			const now = await settledStatus(page);
			if (now === 'done') break;
			expect(now).toBe('waiting');
			expect(await waitForRound(page, 'written')).toBe(round);
			if (round <= 2) {
				// The tab that wrote the round is gone: the reloaded page offers its files again.
				await page.reload();
				await waitForRunStatus(page, 'waiting', 90_000);
				expect(await waitForRound(page, 'written')).toBe(round);
			}
			const downloads = page.getByTestId('batch-download');
			await downloads.first().waitFor({ timeout: 30_000 });
			if (round === 1) await fits(e, 'batchui-files-waiting');
			expect(await downloads.count()).toBe(1);
			const [download] = await Promise.all([page.waitForEvent('download'), downloads.click()]);
			const input = await readFile((await download.path())!, 'utf8');
			const lines = input.split('\n').filter(Boolean).length;
			expect(String(lines)).toBe(await page.getByTestId('batch-round-requests').innerText());
			const name = `${download.suggestedFilename().replace(/\.jsonl$/, '')}.output.jsonl`;
			await page.getByTestId('batch-upload').setInputFiles({
				name,
				mimeType: 'application/jsonl',
				buffer: Buffer.from(await answerFile(input, fake.server.baseURL))
			});
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
		const state = await batchState(page, 'files-reload');
		expect(state!.rounds.length).toBeGreaterThanOrEqual(2);
		expect(state!.rounds.every((r) => r.status === 'answered')).toBe(true);
		expect(await recordsOf(page, 'files-reload')).toEqual(interactive);
	});
});
