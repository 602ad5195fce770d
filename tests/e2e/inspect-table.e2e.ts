/**
 * The Inspect page's case table and side-by-side comparison in Chromium. Two runs of the sample
 * (another model's, with other judge labels) are written by the engine through the CLI's file
 * store, call logs included, and imported as a bundle. Then: filter to the failed DCG cases,
 * open one and read the exact prompt and the judge's raw output; the filters, search, sort and
 * case survive a reload; two runs side by side, with "where they disagree"; bad deep links say
 * so; one pass in zh-CN; hostile text in the table stays inert; screenshots at 1366 and 390 px.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallLogEntry } from '../../src/lib/core/calls/schema';
import { modelDirName } from '../../src/lib/core/layout';
import { MemoryStore } from '../../src/lib/core/store/memory-store';
import { readTree, sampleDataset, writeOutputRoot, zipFiles } from '../fixtures/bundles/folder';
import { writeRuns } from '../fixtures/bundles/runs';
import { simulatedRunFiles } from '../bench/simulated-runs';
import { startBrowser, type E2E } from './browser';
import { expectInert, hostile, shortHostile } from './security-support';

type Json = Record<string, unknown> & { case_number: string | number };

let e2e: E2E;
let files: Map<string, string>;
let keyA: string;
let keyB: string;
let hostileZip: string;
let hostileKey: string;
const HOSTILE_CASE = shortHostile('case');
let dir: string;
/** A run of 150 synthetic cases: more than the table draws at once. */
const MANY = 150;
let manyKey: string;
let manyCases: string[];

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
/** The records of one stage file of a run, as the CLI wrote them. */
function recordsOf(key: string, dirName: string, file: string): Json[] {
	const body = files.get(`${dirName}/${key}/${file}`) ?? '';
	return body
		.split('\n')
		.filter(Boolean)
		.map((l) => JSON.parse(l) as Json);
}
const caseOf = (r: Json) => String(r.case_number);
function callsOf(key: string): CallLogEntry[] {
	return recordsOf(key, 'runs', 'calls.jsonl') as unknown as CallLogEntry[];
}

/**
 * Where runs A and B differ on an outcome both have, computed from their files: the LCA label
 * per history, DCG success, each setup's "a verdict is wrong", the interaction's stop.
 */
function disagreeing(): string[] {
	const outcome = (key: string) => {
		const out = new Map<string, Record<string, unknown>>();
		const put = (c: string, k: string, v: unknown) => out.set(c, { ...out.get(c), [k]: v });
		for (const r of recordsOf(key, 'eval_results', 'LCA_results.jsonl')) {
			put(caseOf(r), `lca-${r.history_type}`, r.label);
		}
		for (const r of recordsOf(key, 'eval_results', 'DCG_results.jsonl')) {
			put(caseOf(r), 'dcg', r.success);
		}
		for (const setup of ['direct', 'gold', 'interaction']) {
			for (const r of recordsOf(key, 'eval_results', `LJP_${setup}.jsonl`)) {
				const p = r.predicted as string[];
				const g = r.gold as string[];
				put(
					caseOf(r),
					setup,
					p.some((v, i) => v !== g[i])
				);
			}
		}
		for (const r of recordsOf(key, 'AwN_gen', 'interaction.jsonl')) {
			put(caseOf(r), 'stop', r.stop_reason);
		}
		return out;
	};
	const a = outcome(keyA);
	const b = outcome(keyB);
	return [...a.keys()].filter((c) => {
		const x = a.get(c)!;
		const y = b.get(c);
		return y !== undefined && Object.keys(x).some((k) => k in y && x[k] !== y[k]);
	});
}

beforeAll(async () => {
	// Seeds whose judge labels differ between the runs (see fixtures/bundles/runs.ts).
	const root = await writeOutputRoot([
		{ runId: 'alpha', seed: 'run1' },
		{ runId: 'beta', model: 'sim-model-b', seed: 'run2' }
	]);
	files = new Map([...(await readTree(root))].map(([p, b]) => [p, text(b)]));
	keyA = `alpha/${await modelDirName('sim-model-a')}`;
	keyB = `beta/${await modelDirName('sim-model-b')}`;
	dir = await mkdtemp(join(tmpdir(), 'lexpilot-e2e-table-'));
	await writeFile(join(dir, 'runs.zip'), zipFiles(files));

	// A run whose causes, class names, case number and responses carry markup and script.
	const sample = await sampleDataset();
	const cases = sample.cases.slice(0, 4).map((c, i) => ({
		...c,
		...(i === 0 && { case_number: HOSTILE_CASE, case_number_value: HOSTILE_CASE }),
		cause_of_action: hostile(`cause${i}`),
		complete: [
			{ role: 'user' as const, content: `${hostile(`history${i}`)} ${c.complete[0].content}` },
			...c.complete.slice(1)
		]
	}));
	const categories = Object.fromEntries(
		cases.map((c) => [c.cause_of_action, shortHostile('class')])
	);
	const store = new MemoryStore();
	await writeRuns(store, { ...sample, cases, categories }, [{ runId: 'hostile', seed: '' }]);
	const [run] = await store.listRuns();
	hostileKey = `${run.runId}/${run.modelDir}`;
	hostileZip = join(dir, 'hostile.zip');
	await writeFile(hostileZip, zipFiles(store.toFiles()));

	const many = await simulatedRunFiles(MANY);
	const manifestPath = [...many.keys()].find((p) => p.endsWith('/manifest.json'))!;
	manyKey = manifestPath.split('/').slice(1, 3).join('/');
	manyCases = (
		JSON.parse(many.get(manifestPath)!) as { dataset: { selected_case_numbers: unknown[] } }
	).dataset.selected_case_numbers.map(String);
	await writeFile(join(dir, 'many.zip'), zipFiles(many));

	e2e = await startBrowser({ viewport: { width: 1366, height: 900 } });
});

afterAll(async () => {
	await e2e?.close();
});

async function importZip(page: Page, path: string) {
	await page.goto(`${e2e.url}/bundles`);
	await page.getByRole('heading', { name: 'Bundles', level: 1 }).waitFor();
	await page.locator('#bundle-file').setInputFiles(path);
	await page.getByTestId('bundle-outcome').filter({ hasText: 'Imported' }).waitFor();
}

const inspectUrl = (query: string) => `${e2e.url}/inspect?${query}`;

/** The case numbers the table lists, in order (every row is drawn at 14 cases). */
async function listed(page: Page): Promise<string[]> {
	return page
		.getByTestId('case-table')
		.locator('tbody tr[data-case]')
		.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-case')!));
}

/** A query as the page writes it: URLSearchParams' encoding, parameters in the page's order. */
const qs = (...params: [string, string][]) => new URLSearchParams(params).toString();

/** Waits until the table shows the rows of `query` (the page writes it on the table). */
async function tableShows(page: Page, query: string) {
	await page.waitForFunction(
		(q) => document.querySelector('[data-testid="case-table"]')?.getAttribute('data-query') === q,
		query
	);
}

describe('the case table', () => {
	it('filters to the failed DCG cases; one opens with its exact prompt and raw judge output', async () => {
		const { page } = e2e;
		await importZip(page, join(dir, 'runs.zip'));
		await page.goto(inspectUrl(`run=${encodeURIComponent(keyA)}`));
		await page.getByTestId('case-table').waitFor();
		const all = recordsOf(keyA, 'eval_results', 'DCG_results.jsonl');
		expect(await listed(page)).toEqual(all.map(caseOf));

		const failed = all.filter((r) => r.success === false).map(caseOf);
		expect(failed.length).toBeGreaterThan(0);
		expect(failed.length).toBeLessThan(all.length);
		await page.getByTestId('filter-dcg').selectOption('yes');
		await tableShows(page, 'dcg=yes');
		expect(await listed(page)).toEqual(failed);
		await expect(page.getByTestId('case-count').innerText()).resolves.toBe(
			`${failed.length} of ${all.length} cases`
		);
		// Each listed row says so in its DCG cell.
		const marks = await page
			.locator('tbody tr[data-case] td[data-outcome="dcg"]')
			.evaluateAll((tds) => tds.map((td) => td.getAttribute('data-flag')));
		expect(marks).toEqual(failed.map(() => 'true'));
		await page.waitForURL((url) => url.searchParams.get('dcg') === 'yes');

		const chosen = failed[failed.length - 1];
		await page.locator(`tbody tr[data-case="${chosen}"] a`).click();
		await expect.poll(() => page.getByTestId('case-number').innerText()).toBe(chosen);
		expect(new URL(page.url()).searchParams.get('case')).toBe(chosen);
		expect(new URL(page.url()).searchParams.get('dcg')).toBe('yes');
		await expect(page.getByTestId('dcg-success').innerText()).resolves.toBe('no success');

		const calls = callsOf(keyA).filter((c) => String(c.case_number) === chosen);
		const ask = calls.find((c) => c.task === 'force_ask' && c.round === 1)!;
		const judge = calls.find((c) => c.task === 'judge_dcg' && c.round === 1)!;
		const first = page.getByTestId('dcg').getByTestId('model-response').first();
		const details = first.getByTestId('call-details');
		await details.locator(':scope > summary').click();
		if (ask.prompt.length > 4000) {
			await details
				.getByRole('button', { name: /Show all/ })
				.first()
				.click();
		}
		expect((await details.getByTestId('call-prompt').innerText()).trim()).toBe(ask.prompt.trim());
		expect((await details.getByTestId('judge-raw').innerText()).trim()).toBe(
			(judge.raw_content ?? judge.response ?? '').trim()
		);
		// Previous and Next go through the filtered list: the last failed case has no next one.
		expect(await page.getByRole('button', { name: 'Next →' }).isDisabled()).toBe(true);
		if (failed.length > 1) {
			await page.getByRole('button', { name: '← Previous' }).click();
			await expect
				.poll(() => page.getByTestId('case-number').innerText())
				.toBe(failed[failed.length - 2]);
		}
		await e2e.screenshot('inspect-table-1366');
		await e2e.screenshot('inspect-table-card-1366', page.getByTestId('case-table-card'));
		e2e.assertClean();
	});

	it('keeps the filters, search, sort and case in the URL, and a reload restores them', async () => {
		const { page } = e2e;
		await page.goto(inspectUrl(`run=${encodeURIComponent(keyA)}`));
		await page.getByTestId('case-table').waitFor();
		const lca = recordsOf(keyA, 'eval_results', 'LCA_results.jsonl');
		const cause = String(lca[0].cause_of_action);
		await page.getByTestId('filter-lca_complete').selectOption('no');
		await page.getByTestId('sort-cause').click();
		await page.getByTestId('sort-cause').click();
		await page.getByTestId('case-search').fill(cause);
		const query = qs(['q', cause], ['lca_complete', 'no'], ['sort', '-cause']);
		await tableShows(page, query);
		const rows = await listed(page);
		expect(rows.length).toBeGreaterThan(0);
		await page.locator(`tbody tr[data-case="${rows[0]}"] a`).click();
		await expect.poll(() => page.getByTestId('case-number').innerText()).toBe(rows[0]);
		await page.waitForURL((url) => url.searchParams.get('q') === cause);

		await page.reload();
		await page.getByTestId('case-table').waitFor();
		await tableShows(page, query);
		expect(await listed(page)).toEqual(rows);
		expect(await page.getByTestId('case-search').inputValue()).toBe(cause);
		expect(await page.getByTestId('filter-lca_complete').inputValue()).toBe('no');
		expect(await page.getByTestId('sort-cause').locator('..').getAttribute('aria-sort')).toBe(
			'descending'
		);
		await expect.poll(() => page.getByTestId('case-number').innerText()).toBe(rows[0]);

		// Back to the unfiltered view: Clear filters empties the URL's query too.
		await page.getByTestId('clear-filters').click();
		await page.waitForURL((url) => !url.searchParams.has('q'));
		expect(new URL(page.url()).searchParams.get('lca_complete')).toBeNull();
		e2e.assertClean();
	});

	it('compares two runs on a case side by side, and lists where they disagree', async () => {
		const { page } = e2e;
		const differ = disagreeing();
		expect(differ.length).toBeGreaterThan(0);
		await page.goto(inspectUrl(`run=${encodeURIComponent(keyA)}`));
		await page.getByTestId('vs-select').selectOption(keyB);
		await page.getByTestId('compare').waitFor();
		await page.getByTestId('filter-disagree').check();
		await tableShows(page, 'disagree=yes');
		expect(await listed(page)).toEqual(differ);

		// A case where DCG success differs: both runs' labels side by side, the difference marked.
		const dcgA = new Map(
			recordsOf(keyA, 'eval_results', 'DCG_results.jsonl').map((r) => [caseOf(r), r])
		);
		const dcgB = recordsOf(keyB, 'eval_results', 'DCG_results.jsonl');
		const split = dcgB.find((r) => dcgA.get(caseOf(r))?.success !== r.success);
		const kase = split ? caseOf(split) : differ[0];
		await page.locator(`tbody tr[data-case="${kase}"] a`).click();
		await expect.poll(() => page.getByTestId('case-number').innerText()).toBe(kase);
		const compare = page.getByTestId('compare');
		await expect(compare.getByTestId('compare-summary').innerText()).resolves.toMatch(
			/A and B differ on \d+ of the \d+ outcomes both have/
		);
		const sides = compare.getByTestId('compare-dcg').locator('.cell');
		expect(await sides.count()).toBe(2);
		if (split) {
			const successes = await compare
				.getByTestId('compare-dcg')
				.getByTestId('dcg-success')
				.evaluateAll((els) => els.map((el) => [el.textContent, el.getAttribute('data-differs')]));
			expect(successes).toEqual([
				[dcgA.get(kase)!.success ? 'success' : 'no success', 'true'],
				[split.success ? 'success' : 'no success', 'true']
			]);
			expect(await compare.getByTestId('compare-differences').innerText()).toContain('DCG success');
		}
		// Each side's responses are the runs' own.
		const a1 = (key: string) =>
			recordsOf(key, 'AwN_gen', 'a1.jsonl').find(
				(r) => caseOf(r) === kase && r.history_type === 'complete'
			)!.response as string;
		const texts = await compare
			.getByTestId('compare-a1-complete')
			.locator('.cell [data-testid="model-response"] > .text')
			.allInnerTexts();
		expect(texts.map((t) => t.trim())).toEqual([a1(keyA).trim(), a1(keyB).trim()]);
		// The table shows B's outcome beside A's, highlighted where they differ.
		expect(await page.locator('tbody td.differs').count()).toBeGreaterThan(0);
		await e2e.screenshot('inspect-compare-1366');
		await e2e.screenshot('inspect-compare-part-1366', compare);
		await e2e.screenshot('inspect-compare-table-1366', page.getByTestId('case-table-card'));

		await page.reload();
		await page.getByTestId('compare').waitFor();
		expect(await page.getByTestId('filter-disagree').isChecked()).toBe(true);
		expect(await listed(page)).toEqual(differ);
		e2e.assertClean();
	});

	it('says plainly when a link names a run, a case or a value that is not there', async () => {
		const { page } = e2e;
		await page.goto(inspectUrl('run=no-such-run%2Fmodel-00000000&case=LP-S-001'));
		const issues = page.getByTestId('link-issues');
		await issues.waitFor();
		await expect(issues.innerText()).resolves.toContain(
			'This link names the run no-such-run/model-00000000, which is not in this browser'
		);
		expect(await page.getByTestId('case-select').count()).toBe(0);
		expect(await page.getByTestId('case-head').count()).toBe(0);
		expect(await page.locator('main').innerText()).not.toMatch(/\(0 of 0\)/);

		await page.goto(inspectUrl(`run=${encodeURIComponent(keyA)}&case=NOPE-9&dcg=maybe`));
		await page.getByTestId('case-table').waitFor();
		await expect(page.getByTestId('link-issues').innerText()).resolves.toMatch(
			/has no case NOPE-9 among its 14 selected cases[\s\S]*dcg=maybe is not understood/
		);
		expect(await page.getByTestId('case-head').count()).toBe(0);
		expect(await listed(page)).toHaveLength(14);
		expect(await page.locator('main').innerText()).not.toMatch(/\(0 of 0\)/);

		await page.goto(inspectUrl(`run=${encodeURIComponent(keyA)}&vs=${encodeURIComponent(keyA)}`));
		await expect(page.getByTestId('link-issues').innerText()).resolves.toContain(
			'is the run shown; choose another run to compare with'
		);
		await page.getByTestId('case-head').waitFor();
		await e2e.screenshot('inspect-bad-link');

		await page.goto(inspectUrl(`run=${encodeURIComponent(keyA)}&disagree=yes`));
		await expect(page.getByTestId('link-issues').innerText()).resolves.toContain(
			'names no run to compare with, so every case is listed'
		);
		await page.getByTestId('case-table').waitFor();
		expect(await listed(page)).toHaveLength(14);
		e2e.assertClean();
	});

	it('works in Chinese', async () => {
		const { page } = e2e;
		await page.goto(inspectUrl(`run=${encodeURIComponent(keyA)}&vs=${encodeURIComponent(keyB)}`));
		await page.getByTestId('language').selectOption('zh-CN');
		await page.getByRole('heading', { name: '案例查看器', level: 1 }).waitFor();
		await page.getByRole('heading', { name: '本次运行的案例' }).waitFor();
		await page.getByRole('heading', { name: '并排对比' }).waitFor();
		await page.getByTestId('filter-budget').selectOption('yes');
		await tableShows(page, 'budget=yes');
		const budget = recordsOf(keyA, 'AwN_gen', 'interaction.jsonl')
			.filter((r) => r.stop_reason === 'budget')
			.map(caseOf);
		expect(await listed(page)).toEqual(budget);
		await expect(page.getByTestId('case-count').innerText()).resolves.toBe(
			`共 14 个案例，显示 ${budget.length} 个`
		);
		const options = await page.getByTestId('filter-dcg').locator('option').allInnerTexts();
		expect(options).toEqual(['不限', '失败', '成功']);
		await expect(page.getByTestId('compare-summary').innerText()).resolves.toMatch(/A 与 B/);
		await e2e.screenshot('inspect-zh');
		await page.getByTestId('language').selectOption('en');
		await page.getByRole('heading', { name: 'Case inspector', level: 1 }).waitFor();
		e2e.assertClean();
	});

	it('renders hostile causes, class names, case numbers and histories inert, and finds them by search', async () => {
		const { page } = e2e;
		await importZip(page, hostileZip);
		await page.goto(inspectUrl(`run=${encodeURIComponent(hostileKey)}`));
		await page.getByTestId('case-table').waitFor();
		const card = page.getByTestId('case-table-card');
		await expectInert(page, card, [HOSTILE_CASE, shortHostile('class')]);
		// Cells are cut to one line on screen; the whole text is there.
		const causes = await card.locator('td.cause').allInnerTexts();
		expect(causes).toEqual([0, 1, 2, 3].map((i) => hostile(`cause${i}`)));
		await page.getByTestId('case-search').fill(`window.__xss='history2'`);
		await tableShows(page, qs(['q', `window.__xss='history2'`]));
		expect(await listed(page)).toHaveLength(1);
		await page.getByTestId('case-search').fill('<img src=x');
		await tableShows(page, qs(['q', '<img src=x']));
		expect(await listed(page)).toHaveLength(4);
		await page.locator('tbody tr[data-case] a').first().click();
		await page.getByTestId('case-head').waitFor();
		await expect.poll(() => page.getByTestId('case-number').innerText()).toBe(HOSTILE_CASE);
		await expectInert(page, page.locator('main'), [HOSTILE_CASE, hostile('cause0')]);
		e2e.assertClean();
	});

	it('draws only the rows in view of a long run, fills them as the box scrolls, and scrolls to a linked case', async () => {
		const { page } = e2e;
		await importZip(page, join(dir, 'many.zip'));
		const late = manyCases[120];
		await page.goto(
			inspectUrl(`run=${encodeURIComponent(manyKey)}&case=${encodeURIComponent(late)}`)
		);
		await page.locator(`[data-testid="case-table"][data-count="${MANY}"]`).waitFor();
		await expect.poll(() => page.getByTestId('case-number').innerText()).toBe(late);
		// The linked case is drawn, marked and within the box's view.
		const row = page.locator(`tbody tr[data-case="${late}"]`);
		await row.waitFor();
		expect(await row.getAttribute('aria-current')).toBe('true');
		const inView = () =>
			page.evaluate((c) => {
				const box = document.querySelector('[data-testid="case-table"]')!.parentElement!;
				const r = document.querySelector(`tbody tr[data-case="${c}"]`)!.getBoundingClientRect();
				const b = box.getBoundingClientRect();
				return r.top >= b.top && r.bottom <= b.bottom;
			}, late);
		expect(await inView()).toBe(true);
		const drawn = await listed(page);
		expect(drawn.length).toBeLessThan(60);
		// The rows drawn are the run's, in order, around the linked one.
		const at = manyCases.indexOf(drawn[0]);
		expect(drawn).toEqual(manyCases.slice(at, at + drawn.length));
		expect(drawn).toContain(late);

		// Scrolled to the top, the first cases are drawn; to the bottom, the last ones.
		const box = page.getByTestId('case-table').locator('..');
		await box.evaluate((el) => (el.scrollTop = 0));
		await expect.poll(async () => (await listed(page))[0]).toBe(manyCases[0]);
		await box.evaluate((el) => (el.scrollTop = el.scrollHeight));
		await expect.poll(async () => (await listed(page)).at(-1)).toBe(manyCases[MANY - 1]);
		// The row count is announced to assistive technology as the whole list.
		expect(await page.getByTestId('case-table').getAttribute('aria-rowcount')).toBe(
			String(MANY + 1)
		);

		// A filter starts the list at its top again.
		await page.getByTestId('case-search').fill(manyCases[3]);
		await tableShows(page, qs(['q', manyCases[3]]));
		expect((await listed(page))[0]).toBe(manyCases[3]);
		e2e.assertClean();
	});

	it('fits a phone: the table scrolls in its own box, the two runs stack', async () => {
		const { page } = e2e;
		await page.setViewportSize({ width: 390, height: 844 });
		try {
			await page.goto(inspectUrl(`run=${encodeURIComponent(keyA)}&vs=${encodeURIComponent(keyB)}`));
			await page.getByTestId('compare').waitFor();
			const overflow = await page.evaluate(() => ({
				scroll: document.documentElement.scrollWidth,
				client: document.documentElement.clientWidth
			}));
			expect(overflow.scroll).toBeLessThanOrEqual(overflow.client);
			await e2e.screenshot('inspect-table-390');
			await e2e.screenshot('inspect-table-box-390', page.getByTestId('case-table-card'));
		} finally {
			await page.setViewportSize({ width: 1366, height: 900 });
		}
		e2e.assertClean();
	});
});
