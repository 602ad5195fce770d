/**
 * Large and hostile-sized datasets on the Dataset page: a file of tens of MB loads in the worker
 * with progress, and is restored after a reload (how long the page's longest task is while it
 * loads is a figure of the bench, tests/bench/dataset-browser.bench.ts, not a check here: a loaded
 * machine made it fail); an invalid second
 * file keeps the first; a 5 MB message is drawn cut with "Show all"; a file with thousands of
 * problems lists the first ones and counts the rest by kind.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { loadDataset } from '../../src/lib/core/dataset/load';
import { SAVED_DATASET_DB } from '../../src/lib/state/saved-dataset';
import { writeLargeDataset } from '../bench/synthetic-dataset';
import { startBrowser, type E2E } from './browser';
import { go } from './page-support';
import { storedRows } from './run-support';
import { validCase } from './fixtures';

const LARGE_CASES = 60_000;

const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();

/**
 * The file name of the dataset the page remembers in IndexedDB, once its save has committed
 * (the "Remembered" line reads the same before and after the save, so it cannot tell).
 */
const remembered = (page: Page) =>
	storedRows<{ fileName?: string }>(page, SAVED_DATASET_DB, 'last').then(
		(rows) => rows[0]?.fileName ?? null,
		() => null // the store is made at the first save
	);

async function gotoDataset(page: Page, url: string) {
	await page.goto(`${url}/dataset`);
	await page.getByRole('heading', { name: 'Dataset', level: 1 }).waitFor();
}

describe('Dataset page with large files', () => {
	let e: E2E;
	let dir: string;
	let largePath: string;
	let largeBytes: number;
	beforeAll(async () => {
		dir = await mkdtemp(join(tmpdir(), 'lexpilot-large-'));
		largePath = join(dir, 'large.json');
		largeBytes = await writeLargeDataset(largePath, { cases: LARGE_CASES });
		e = await startBrowser();
	});
	afterAll(async () => {
		await e?.close();
		if (dir) await rm(dir, { recursive: true, force: true });
	});
	afterEach(() => {
		const problems = e.problems.splice(0);
		expect(problems, problems.join('\n')).toEqual([]);
	});

	it(`loads a ${LARGE_CASES.toLocaleString('en')}-case file with progress and a capped case list`, async () => {
		expect(largeBytes).toBeGreaterThan(20e6);
		const { page } = e;
		await gotoDataset(page, e.url);
		await page.setInputFiles('#dataset-file', largePath);
		await page.getByTestId('load-progress').waitFor();
		await expect
			.poll(() => text(page, 'load-progress-text').catch(() => ''), { timeout: 60_000 })
			.toMatch(/^(reading the file: [\d.]+ of [\d.]+ MB|checking cases: [\d,]+ of [\d,]+)$/);
		await page.getByTestId('summary-stats').waitFor({ timeout: 100_000 });
		expect(await text(page, 'stat-cases')).toBe(String(LARGE_CASES));
		// Saving the file in IndexedDB happens after the summary: the window ends once it is saved.
		await expect.poll(() => remembered(page), { timeout: 100_000 }).toBe('large.json');

		// The list is drawn capped, the rest counted (a page the worker answers: polled).
		const rows = page.getByTestId('case-list').getByRole('button', { name: /LARGE-/ });
		await expect.poll(() => rows.count()).toBe(200);
		expect(await text(page, 'cases-more')).toContain(
			`${(LARGE_CASES - 200).toLocaleString('en')} more`
		);
		await page.getByRole('button', { name: 'Show 200 more' }).click();
		await expect.poll(() => rows.count()).toBe(400);
		// Search still reaches every case.
		await page.locator('#case-search').fill(`LARGE-${LARGE_CASES}`);
		await expect.poll(() => text(page, 'detail-case-number')).toBe(`LARGE-${LARGE_CASES}`);
		await page.locator('#case-search').fill('');
	});

	it('keeps the large dataset when an invalid file is opened next, and restores it after a reload', async () => {
		const { page } = e;
		const broken = join(dir, 'broken.json');
		await writeFile(
			broken,
			JSON.stringify([validCase('B-1', { result_dict: { 判令: '全部支持' } })])
		);
		await page.setInputFiles('#dataset-file', broken);
		await page.getByTestId('kept-dataset').waitFor();
		expect(await text(page, 'kept-dataset')).toMatch(
			/^broken\.json was not opened \(1 problem, listed below\)\. The dataset in use is still large\.json\.$/
		);
		expect(await text(page, 'problem-count')).toBe('1');
		expect(await text(page, 'stat-cases')).toBe(String(LARGE_CASES));
		expect(await text(page, 'dataset-status')).toContain('large.json');

		await page.reload();
		await page.getByTestId('summary-stats').waitFor({ timeout: 100_000 });
		expect(await text(page, 'restored-note')).toContain('large.json');
		expect(await text(page, 'stat-cases')).toBe(String(LARGE_CASES));
		expect(await page.getByTestId('kept-dataset').count()).toBe(0);
	});

	it('names a file dropped while another is read as not opened, and opens it when dropped again', async () => {
		const { page } = e;
		const drop = async () => {
			const dataTransfer = await page.evaluateHandle(
				(text) => {
					const dt = new DataTransfer();
					dt.items.add(new File([text], 'small.json', { type: 'application/json' }));
					return dt;
				},
				JSON.stringify([validCase('SMALL-1')])
			);
			await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer });
		};
		await expect.poll(() => page.locator('#dataset-file').isEnabled()).toBe(true);
		await page.setInputFiles('#dataset-file', largePath);
		await page.getByTestId('load-progress').waitFor();
		await drop();
		const note = page.getByTestId('drop-not-opened');
		expect(await note.innerText()).toBe(
			'small.json was not opened: drop it again once the current task has finished.'
		);
		// The file being read goes on and is opened; the note stays until a file is taken.
		await expect
			.poll(() => page.getByTestId('load-progress').count(), { timeout: 100_000 })
			.toBe(0);
		expect(await text(page, 'summary-file')).toBe('large.json');
		expect(await note.count()).toBe(1);
		await drop();
		await expect.poll(() => text(page, 'summary-file').catch(() => '')).toBe('small.json');
		expect(await note.count()).toBe(0);
	});

	it('draws a 5 MB message cut, with "Show all" giving the whole text', async () => {
		const { page } = e;
		const content = `开头${'很长的咨询内容。'.repeat(655_360)}结尾`;
		const huge = join(dir, 'huge-message.json');
		const kase = validCase('HUGE-1');
		(kase.complete_consultation as Array<{ content: string }>)[0].content = content;
		await writeFile(huge, JSON.stringify([kase]));
		await page.setInputFiles('#dataset-file', huge);
		await expect.poll(() => text(page, 'detail-case-number'), { timeout: 60_000 }).toBe('HUGE-1');

		const bubble = page.getByTestId('complete-message').first();
		const shown = await bubble.locator('.content').innerText();
		expect(shown.startsWith('开头很长的咨询内容')).toBe(true);
		expect(shown).not.toContain('结尾');
		expect(shown.length).toBeLessThan(5000);
		expect(shown).toContain(`(4,000 of ${content.length.toLocaleString('en')} characters shown)`);

		await bubble.getByTestId('show-all').click();
		await expect
			.poll(() => bubble.locator('.content').evaluate((el) => el.textContent?.length ?? 0))
			.toBeGreaterThanOrEqual(content.length);
		expect(
			await bubble.locator('.content').evaluate((el) => el.textContent?.includes('结尾'))
		).toBe(true);
		await bubble.getByRole('button', { name: 'Show less' }).click();
		expect((await bubble.locator('.content').innerText()).length).toBeLessThan(5000);
	});

	it('lists the first problems of a file with thousands, and counts the rest by kind', async () => {
		const { page } = e;
		const many = join(dir, 'many-problems.json');
		await writeFile(many, JSON.stringify(Array.from({ length: 3000 }, () => ({}))));
		const expected = await loadDataset(await readFile(many), { fileName: 'many-problems.json' });
		if (expected.ok) throw new Error('expected problems');
		await page.setInputFiles('#dataset-file', many);
		await page.getByTestId('problems').waitFor();
		expect(await text(page, 'problem-count')).toBe(String(expected.problemCount));
		expect(await page.getByTestId('problems').locator('tbody tr').count()).toBe(200);
		const more = await text(page, 'problems-more');
		expect(more).toContain(`${(expected.problemCount - 200).toLocaleString('en')} more`);
		// The loader lists its first 500 and counts the rest by kind; the page names every kind.
		const fields = new Set([
			...expected.problems.slice(200, 500).map((p) => p.field ?? 'file'),
			...Object.keys(expected.moreProblems)
		]);
		for (const field of fields) expect(more).toContain(`× ${field}`);
		await page.getByRole('button', { name: 'Show 200 more' }).click();
		expect(await page.getByTestId('problems').locator('tbody tr').count()).toBe(400);
	});
	// Last: the Run page holds every case afterwards.
	it('brings the cases of a large dataset to the Run page, which says so while they come', async () => {
		const { page } = e;
		await gotoDataset(page, e.url);
		// The file remembered last (the 5 MB message) is restored first; the file picker is
		// disabled until it is.
		await expect
			.poll(() => text(page, 'stat-cases').catch(() => ''), { timeout: 100_000 })
			.toBe('1');
		await expect.poll(() => page.locator('#dataset-file').isEnabled()).toBe(true);
		await page.setInputFiles('#dataset-file', largePath);
		await expect
			.poll(() => text(page, 'stat-cases').catch(() => ''), { timeout: 100_000 })
			.toBe(String(LARGE_CASES));
		// The Run page restores the dataset remembered last: wait until that is this one.
		await expect.poll(() => remembered(page), { timeout: 100_000 }).toBe('large.json');
		await page.goto(`${e.url}/run`);
		const problems = page.getByTestId('start-problems');
		// First restored (no dataset yet), then its cases come from the worker; Start then asks
		// only for what is still missing (the model settings).
		await expect
			.poll(
				async () => {
					const said = await problems.innerText({ timeout: 1000 }).catch(() => '');
					const waiting = /Load a valid dataset|cases are coming to this page|could not be brought/;
					return said !== '' && !waiting.test(said);
				},
				{ timeout: 100_000 }
			)
			.toBe(true);
		expect(await text(page, 'dataset-status')).toContain('large.json');

		// The worker has let go of the cases now on the page: the Dataset page lists them from here.
		await go(page, 'Dataset', 'Dataset');
		const rows = page.getByTestId('case-list').getByRole('button', { name: /LARGE-/ });
		await expect.poll(() => rows.count()).toBe(200);
		await page.locator('#case-search').fill(`LARGE-${LARGE_CASES}`);
		await expect.poll(() => text(page, 'detail-case-number')).toBe(`LARGE-${LARGE_CASES}`);
	});
});
