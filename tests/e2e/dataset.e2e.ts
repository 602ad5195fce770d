/**
 * The Dataset page in a real Chromium against the built site: the sample, a broken file,
 * hostile text, ambiguous history fields, reload, and a sub-path deployment.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
	classOf,
	DEFAULT_CATEGORIES,
	parseCategoryMap
} from '../../src/lib/core/dataset/categories';
import { loadDataset } from '../../src/lib/core/dataset/load';
import { startBrowser, type E2E } from './browser';
import { openDatasetFile } from './run-support';
import {
	ambiguousFieldsDataset,
	malformedDataset,
	validCase,
	writeFixtures,
	XSS,
	xssDataset
} from './fixtures';

const SAMPLE = resolve(import.meta.dirname, '../../static/sample/lexpilot-sample.json');
const CATEGORY_EXAMPLE = resolve(
	import.meta.dirname,
	'../../static/sample/categories-example.json'
);

interface RawMessage {
	role: string;
	content: string;
}
type RawCase = Record<string, unknown> & { case_number: string | number; cause_of_action: string };

/** The sample as a researcher would read it: counted here, independently of the loader. */
async function readSample() {
	const text = (await readFile(SAMPLE, 'utf8')).replace(/^\uFEFF/, '');
	const cases = JSON.parse(text) as RawCase[];
	// History fields by their canonical names, or by the PROTOCOL.md §1 naming rule.
	const keys = Object.keys(cases[0]);
	const completeKey =
		keys.find((k) => k === 'complete_consultation') ??
		keys.find((k) => /complete|full|gold/.test(k) && !k.includes('incomplete'))!;
	const underKey =
		keys.find((k) => k === 'underspecified_consultation') ??
		keys.find((k) => /underspecified|incomplete|partial|missing/.test(k))!;
	const lengths = cases.flatMap((c) => [
		(c[completeKey] as RawMessage[]).length,
		(c[underKey] as RawMessage[]).length
	]);
	const causes = new Set(cases.map((c) => c.cause_of_action));
	const classCounts: Record<string, number> = {};
	for (const c of cases) {
		const cls = classOf(c.cause_of_action, DEFAULT_CATEGORIES);
		classCounts[cls] = (classCounts[cls] ?? 0) + 1;
	}
	return {
		cases,
		completeKey,
		underKey,
		causes: causes.size,
		classCounts,
		minMessages: Math.min(...lengths),
		maxMessages: Math.max(...lengths)
	};
}

async function gotoDataset(page: Page, url: string) {
	await page.goto(`${url}/`);
	await page.getByRole('link', { name: 'Dataset', exact: true }).click();
	await page.getByRole('heading', { name: 'Dataset', level: 1 }).waitFor();
}

async function loadSample(page: Page) {
	await page
		.getByRole('button', { name: 'Load the sample (synthetic demo data, not LexPilot)' })
		.click();
	await page.getByTestId('summary-stats').waitFor();
}

const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();

describe('Dataset page', () => {
	let e: E2E;
	beforeAll(async () => {
		e = await startBrowser();
	});
	afterAll(async () => {
		await e?.close();
	});
	afterEach(() => {
		// Every test must leave the console clean: no errors, no CSP violations, no 404s.
		const problems = e.problems.splice(0);
		expect(problems, problems.join('\n')).toEqual([]);
	});

	it('loads the sample: counts match the file, and a case shows both histories and the hidden facts', async () => {
		const sample = await readSample();
		const { page } = e;
		await gotoDataset(page, e.url);
		await loadSample(page);

		await expect.poll(() => text(page, 'stat-cases')).toBe(String(sample.cases.length));
		expect(await text(page, 'stat-histories')).toBe(String(sample.cases.length * 2));
		expect(await text(page, 'stat-causes')).toBe(String(sample.causes));
		expect(await text(page, 'stat-classes')).toBe(String(Object.keys(sample.classCounts).length));
		expect(await text(page, 'stat-messages')).toBe(
			sample.minMessages === sample.maxMessages
				? String(sample.minMessages)
				: `${sample.minMessages}–${sample.maxMessages}`
		);
		expect(await text(page, 'field-complete')).toBe(sample.completeKey);
		expect(await text(page, 'field-underspecified')).toBe(sample.underKey);
		const classRows = await page.getByTestId('class-table').locator('tr').allInnerTexts();
		const shownClasses = Object.fromEntries(
			classRows
				.map((row) => row.split('\t').map((s) => s.trim()))
				.map(([cls, n]) => [cls, Number(n)])
		);
		expect(shownClasses).toEqual(sample.classCounts);
		await expect
			.poll(() => page.getByTestId('sample-notice').innerText())
			.toContain('Synthetic demo data');
		await e.screenshot('sample-loaded');

		// Open the case with the longest histories.
		const longest = sample.cases.reduce((a, b) =>
			(b[sample.completeKey] as RawMessage[]).length >
			(a[sample.completeKey] as RawMessage[]).length
				? b
				: a
		);
		const caseNumber = String(longest.case_number);
		await page
			.getByTestId('case-list')
			.getByRole('button')
			.filter({ hasText: caseNumber })
			.first()
			.click();
		await expect.poll(() => text(page, 'detail-case-number')).toBe(caseNumber);

		const complete = longest[sample.completeKey] as RawMessage[];
		const under = longest[sample.underKey] as RawMessage[];
		const completeBubbles = page.getByTestId('complete-message');
		const underBubbles = page.getByTestId('underspecified-message');
		expect(await completeBubbles.count()).toBe(complete.length);
		expect(await underBubbles.count()).toBe(under.length);
		for (const [i, m] of complete.entries()) {
			expect(await completeBubbles.nth(i).innerText()).toContain(m.content.trim());
		}
		for (const [i, m] of under.entries()) {
			expect(await underBubbles.nth(i).innerText()).toContain(m.content.trim());
		}

		const hidden = page.getByTestId('hidden-panel');
		expect(await hidden.innerText()).toContain('Hidden from the evaluated model');
		const focal = longest.focal_point as string | string[];
		for (const point of Array.isArray(focal) ? focal : [focal]) {
			expect(await page.getByTestId('focal-points').innerText()).toContain(point.trim());
		}
		const claimRows = await page.getByTestId('claims').locator('tbody tr').allInnerTexts();
		const claims = Object.entries(longest.result_dict as Record<string, string>);
		expect(claimRows.length).toBe(claims.length);
		// Verdicts sit beside their claims, in file order.
		for (const [i, [claim, verdict]] of claims.entries()) {
			expect(claimRows[i]).toContain(claim);
			expect(claimRows[i]).toContain(verdict);
		}
		await e.screenshot(
			'case-open',
			page.locator('section', { has: page.getByTestId('case-detail') })
		);

		// Filtering by a class lists exactly that class's cases.
		const [someClass, classSize] = Object.entries(sample.classCounts)[0];
		await page.locator('#case-class').selectOption(someClass);
		expect(await page.getByTestId('case-list').getByRole('button').count()).toBe(classSize);
		await page.locator('#case-class').selectOption('');
	});

	it('restores the last dataset after a reload, and says so', async () => {
		const { page } = e;
		await page.reload();
		await page.getByTestId('summary-stats').waitFor();
		expect(await text(page, 'restored-note')).toContain('lexpilot-sample.json');
		expect(await text(page, 'sample-notice')).toContain('Synthetic demo data');
	});

	it('applies a category map file to the class counts and warns about causes it lacks', async () => {
		const sample = await readSample();
		const map = parseCategoryMap(await readFile(CATEGORY_EXAMPLE));
		const want: Record<string, number> = {};
		for (const c of sample.cases) {
			const cls = classOf(c.cause_of_action, map);
			want[cls] = (want[cls] ?? 0) + 1;
		}
		const unmapped = new Set(sample.cases.map((c) => c.cause_of_action).filter((c) => !(c in map)));

		const { page } = e;
		await page.setInputFiles('#category-file', CATEGORY_EXAMPLE);
		await expect
			.poll(() => page.locator('.options').innerText())
			.toContain('categories-example.json');
		const rows = await page.getByTestId('class-table').locator('tr').allInnerTexts();
		const shown = Object.fromEntries(
			rows.map((row) => row.split('\t').map((s) => s.trim())).map(([cls, n]) => [cls, Number(n)])
		);
		expect(shown).toEqual(want);
		const warnings = page.getByTestId('warnings').locator('li');
		expect(await warnings.count()).toBe(unmapped.size);

		await page.getByRole('button', { name: 'use the default' }).click();
		await expect.poll(() => page.getByTestId('warnings').count()).toBe(0);
	});

	it('opens a file dropped on the drop area', async () => {
		const { page } = e;
		const file = JSON.stringify([validCase('DROP-1'), validCase('DROP-2')]);
		const dataTransfer = await page.evaluateHandle((text) => {
			const dt = new DataTransfer();
			dt.items.add(new File([text], 'dropped.json', { type: 'application/json' }));
			return dt;
		}, file);
		await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer });
		await expect
			.poll(() =>
				page
					.getByTestId('summary-file')
					.innerText()
					.catch(() => '')
			)
			.toBe('dropped.json');
		expect(await text(page, 'stat-cases')).toBe('2');
		expect(await page.getByTestId('sample-notice').count()).toBe(0);
	});

	it('lists every problem of a malformed file with its case and field', async () => {
		const { cases, planted } = malformedDataset();
		const files = await writeFixtures({ 'broken.json': cases });
		const { page } = e;
		await gotoDataset(page, e.url);
		await page.setInputFiles('#dataset-file', files['broken.json']);
		await page.getByTestId('problems').waitFor();

		const expected = await loadDataset(await readFile(files['broken.json']), {
			fileName: 'broken.json'
		});
		if (expected.ok) throw new Error('the malformed fixture validated: fix the fixture');
		const rows = (await page.getByTestId('problems').locator('tbody tr').allInnerTexts()).map((r) =>
			r.split('\t').map((s) => s.trim())
		);
		expect(await text(page, 'problem-count')).toBe(String(expected.problems.length));
		expect(rows.length).toBe(expected.problems.length);
		expect(rows.map((r) => r[4])).toEqual(expected.problems.map((p) => p.message));
		for (const p of planted) {
			const hit = rows.find(
				([caseCol, numberCol, fieldCol, messageCol]) =>
					caseCol === `#${p.caseIndex}` &&
					numberCol === p.caseNumber &&
					fieldCol.includes(p.field) &&
					(p.message === undefined || messageCol === String(p.message))
			);
			expect(hit, `no row for ${JSON.stringify(p)} in\n${rows.join('\n')}`).toBeDefined();
		}
		// The dataset opened before stays in use: the broken file only gets its report.
		const n = expected.problems.length;
		expect(await text(page, 'kept-dataset')).toBe(
			`broken.json was not opened (${n} problems, listed below). The dataset in use is still dropped.json.`
		);
		expect(await text(page, 'summary-file')).toBe('dropped.json');
		await e.screenshot('broken-file-report');
	});

	it('shows markup and script from the file as inert text', async () => {
		const files = await writeFixtures({ 'hostile.json': xssDataset() });
		const { page } = e;
		await gotoDataset(page, e.url);
		await openDatasetFile(page, files['hostile.json']);

		const detail = page.getByTestId('case-detail');
		const shown = await page.locator('main').innerText();
		for (const payload of [XSS.caseNumber, XSS.cause, XSS.content, XSS.keyDetail, XSS.claim]) {
			expect(shown).toContain(payload);
		}
		expect(await detail.locator('img, script, svg, iframe').count()).toBe(0);
		expect(await page.locator('main script, main iframe, main img').count()).toBe(0);
		expect(await page.evaluate(() => (window as { __xss?: string }).__xss)).toBeUndefined();
		await e.screenshot('hostile-text');
	});

	it('asks which fields hold the histories when detection is ambiguous, then validates', async () => {
		const files = await writeFixtures({ 'odd-fields.json': ambiguousFieldsDataset() });
		const { page } = e;
		await gotoDataset(page, e.url);
		await page.setInputFiles('#dataset-file', files['odd-fields.json']);
		await page.locator('#complete-field').waitFor();
		await e.screenshot('history-mapping');

		await page.locator('#complete-field').selectOption('history_a');
		await page.locator('#underspecified-field').selectOption('history_b');
		await page.getByRole('button', { name: 'Validate with these fields' }).click();
		// The summary of the dataset restored before (another test's) may still show meanwhile.
		await expect
			.poll(() => text(page, 'stat-cases').catch(() => ''), { timeout: 30_000 })
			.toBe('2');
		expect(await text(page, 'field-complete')).toBe('history_a');
		expect(await text(page, 'field-underspecified')).toBe('history_b');
	});
});

describe('Dataset page under a sub-path', () => {
	let e: E2E;
	beforeAll(async () => {
		e = await startBrowser({ base: '/tools/lexpilot' });
	});
	afterAll(async () => {
		await e?.close();
	});

	it('loads assets, pages and the sample relative to where the site is served', async () => {
		const { page } = e;
		await gotoDataset(page, e.url);
		expect(new URL(page.url()).pathname).toBe('/tools/lexpilot/dataset');
		await loadSample(page);
		expect(Number(await text(page, 'stat-cases'))).toBeGreaterThan(0);
		e.assertClean();
	});
});
