/**
 * The Results page in Chinese: a Chinese browser imports a CLI output folder (two comparable
 * runs, a shorter one, a run stopped after gen), and the page must speak Chinese throughout —
 * headings, figures and their tables, notes the core writes in English, the paired comparison
 * and its refusal, the call totals — with no English interface text left (metric names of the
 * paper, run and model ids are kept). A switch to English is followed at once, texts built by
 * the state included. Exports follow the language chosen for them, not the interface's.
 * Screenshots at 1366 and 390 px in both languages, none scrolling sideways.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeOutputRoot } from '../fixtures/bundles/folder';
import { startBrowser, type E2E } from './browser';
import {
	languageChecker,
	go,
	LAPTOP,
	nextFrame,
	PAPER_TERMS,
	PHONE,
	sidewaysOverflow,
	type LanguageCheck
} from './i18n-support';

let e: E2E;
let check: LanguageCheck;

/** Data and the paper's terms, which stay as they are in Chinese. */
const KEPT = [...PAPER_TERMS, 'sim-model-a', 'sim-model-b', 'run1', 'run2', 'short'];

beforeAll(async () => {
	check = await languageChecker(['results']);
	const root = await writeOutputRoot([
		{ runId: 'run1' },
		{ runId: 'run2' },
		{ runId: 'short', limit: 6 },
		{ runId: 'run1', model: 'sim-model-b', stages: ['gen'] }
	]);
	e = await startBrowser({ locale: 'zh-CN', viewport: LAPTOP });
	await e.page.goto(`${e.url}/`);
	await go(e.page, '数据包', '数据包');
	await e.page.locator('#bundle-folder').setInputFiles(root);
	await e.page.getByTestId('bundle-outcome').filter({ hasText: '导入' }).waitFor();
});

afterAll(async () => {
	await e?.close();
});

const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();
const heading = (page: Page, name: string) =>
	page.getByRole('heading', { name, level: 2, exact: true }).waitFor();

/** A figure's title (its heading holds the badges too). */
const figureTitle = (page: Page, id: string) =>
	page.getByTestId(`figure-${id}`).locator('h3').first().innerText();

async function intervalsReady(page: Page) {
	await expect
		.poll(() => page.getByTestId('ci-status').getAttribute('data-status'), { timeout: 30_000 })
		.toBe('ready');
}

async function downloadText(page: Page, click: () => Promise<void>): Promise<[string, string]> {
	const [download] = await Promise.all([page.waitForEvent('download'), click()]);
	return [download.suggestedFilename(), await readFile((await download.path())!, 'utf8')];
}

describe('the Results page in Chinese', () => {
	it('speaks Chinese throughout: figures, notes, comparison, call totals', async () => {
		const { page } = e;
		await go(page, '结果', '结果');
		expect(await page.title()).toBe('结果 · LexPilot 工作台');
		await intervalsReady(page);
		for (const h of [
			'运行',
			'法律澄清意识（LCA）',
			'动态澄清生成（DCG）',
			'法律判决预测（LJP）',
			'LJP 混淆矩阵',
			'配对比较',
			'比较两次运行（配对）',
			'模型调用'
		]) {
			await heading(page, h);
		}
		expect(await figureTitle(page, 'lca-overall')).toMatch(/^LCA：追问还是作答/);
		expect(await figureTitle(page, 'dcg-overall')).toMatch(/^DCG：追问能否问出缺失的事实？/);
		expect(await text(page, 'ci-status')).toBe(
			'置信区间已就绪（少于 10 个案例的类别和运行不计算置信区间）。'
		);
		expect(await text(page, 'uncertainty')).toContain('95% 案例 bootstrap 置信区间');
		expect(await text(page, 'simulated-notice')).toContain('模拟运行。');
		// Comparable runs are averaged: the mode, badges and table corner say so in Chinese.
		expect(
			await page
				.getByRole('radiogroup', { name: '数据系列' })
				.getByText('可比运行的均值 ± 标准差')
				.count()
		).toBe(1);
		const lca = page.getByTestId('figure-lca-overall');
		expect(await lca.locator('.badge').allInnerTexts()).toEqual(['均值 ± 标准差', '95% 置信区间']);
		expect(await lca.locator('thead th').first().innerText()).toBe('模型（运行）');
		expect(await lca.locator('tbody th').allInnerTexts()).toContain('sim-model-a（run1, run2）');
		const dcg = page.getByTestId('figure-dcg-overall');
		expect(await dcg.locator('thead th').allInnerTexts()).toEqual([
			'模型（运行）',
			'成功率',
			'第 1 轮成功率',
			'第 2 轮成功率'
		]);
		const byClass = page.getByTestId('figure-lca-class');
		expect(await byClass.locator('thead th').first().innerText()).toBe('类别');
		expect(await byClass.locator('thead th').nth(1).innerText()).toBe('案例 · 诉请');
		await byClass.getByRole('button', { name: '复制为 LaTeX' }).waitFor();
		// Groups of one model that cannot be averaged, and the core's notes, in Chinese.
		expect(await text(page, 'group-differences')).toMatch(
			/^sim-model-a：运行 run1, run2 与 short 不可比（二者在 所选案例 上不同）/
		);
		await page.getByText('注释', { exact: true }).click();
		const notes = await page.locator('.notes-card').innerText();
		expect(notes).toContain('sim-model-b · run1：DCG_results：尚无此文件');

		// The paired comparison: refused for other cases, then B − A with its power.
		await page.getByTestId('compare-a').selectOption({ label: 'sim-model-a · run1' });
		await page.getByTestId('compare-b').selectOption({ label: 'sim-model-a · short' });
		await page.getByRole('button', { name: '比较', exact: true }).click();
		expect(await text(page, 'compare-refused')).toMatch(
			/^这两次运行无法比较：它们选定的案例不同（A 有 14 个，B 有 6 个；仅 A 有：8 \(/
		);
		expect(await englishLeftHere(page)).toEqual([]);
		await e.screenshot('i18n-results-refused-zh');

		await page.getByTestId('compare-b').selectOption({ label: 'sim-model-a · run2' });
		await page.getByRole('button', { name: '比较', exact: true }).click();
		const table = page.getByTestId('compare-table');
		await table.waitFor();
		expect(await table.locator('thead th').allInnerTexts()).toEqual([
			'指标',
			'A',
			'B',
			'B − A',
			'B − A 的 95% 置信区间',
			'p'
		]);
		expect(await table.locator('tbody th').allInnerTexts()).toContain('DCG 成功率');
		expect(await text(page, 'compare-who')).toMatch(
			/14 个配对案例（重抽样 2000 次，随机种子 \d+）/
		);
		expect(await text(page, 'compare-power')).toContain('最坏情况（比率为 0.5，两次运行互不相关）');
		expect(await page.getByTestId('compare-panel').innerText()).toContain(
			'两次运行的模型、代码和影响结果的设置都相同'
		);
		const calls = page.getByTestId('calls-section');
		expect(await calls.locator('thead th').first().innerText()).toBe('阶段');
		expect(await englishLeftHere(page)).toEqual([]);
		// The opposite check finds Chinese here, so its empty answers on English pages mean it.
		expect((await check.chineseLeft(page, KEPT)).length).toBeGreaterThan(3);
		await e.screenshot('i18n-results-zh');
		e.assertClean();
	});

	it('writes copies, images and the report in the export language, not the interface one', async () => {
		const { page } = e;
		const report = () => page.getByTestId('download-report').click();
		const [name, zh] = await downloadText(page, report);
		expect(name).toBe('lexpilot-report.html');
		expect(zh).toContain('<html lang="zh-CN">');
		expect(zh).toContain('<h2>不确定性</h2>');

		await page.getByTestId('export-language').selectOption('en');
		const [, en] = await downloadText(page, report);
		expect(en).toContain('<html lang="en">');
		expect(en).toContain('<h2>Uncertainty</h2>');
		expect(en).toContain('LCA: ask or answer');
		expect(en).not.toMatch(/不确定性|追问还是作答|案例 · 诉请/);
		const [svgName, svg] = await downloadText(page, () =>
			page
				.getByTestId('figure-dcg-overall')
				.getByRole('button', { name: 'SVG', exact: true })
				.click()
		);
		expect(svgName).toBe('lexpilot-dcg-overall.svg');
		expect(svg).toContain('<title>DCG: do the questions find the missing facts?</title>');
		// The page itself stays Chinese.
		expect(await figureTitle(page, 'dcg-overall')).toMatch(/^DCG：追问能否问出缺失的事实？/);
		await page.getByTestId('export-language').selectOption('ui');
		const [, again] = await downloadText(page, report);
		expect(again).toContain('<html lang="zh-CN">');
		e.assertClean();
	});

	it('follows a switch to English at once; fits 1366 and 390 px in both languages', async () => {
		const { page } = e;
		for (const locale of ['zh-CN', 'en'] as const) {
			await page.setViewportSize(LAPTOP);
			await page.getByTestId('language').selectOption(locale);
			await page
				.getByRole('heading', { name: locale === 'en' ? 'Results' : '结果', level: 1 })
				.waitFor();
			await e.screenshot(`i18n-results-${locale}-1366`);
			await page.setViewportSize(PHONE);
			await nextFrame(page);
			const overflow = await sidewaysOverflow(page);
			expect(
				overflow.scrollWidth,
				`results ${locale}: ${overflow.wide.join('; ')}`
			).toBeLessThanOrEqual(overflow.clientWidth);
			await e.screenshot(`i18n-results-${locale}-390`);
		}
		await page.setViewportSize(LAPTOP);
		// Everything the page and its state built in Chinese reads in English now.
		expect(await page.title()).toBe('Results · LexPilot Workbench');
		await heading(page, 'Legal clarification awareness (LCA)');
		expect(await figureTitle(page, 'lca-overall')).toMatch(/^LCA: ask or answer/);
		expect(await text(page, 'ci-status')).toBe(
			'Intervals ready (classes and runs under 10 cases get none).'
		);
		const dcg = page.getByTestId('figure-dcg-overall');
		expect(await dcg.locator('thead th').allInnerTexts()).toEqual([
			'Model (runs)',
			'Success',
			'Round 1',
			'Round 2'
		]);
		expect(await text(page, 'group-differences')).toMatch(
			/^sim-model-a: runs run1, run2 and short are not comparable \(they differ in selected cases\)/
		);
		expect(await page.getByTestId('compare-table').locator('thead th').nth(4).innerText()).toBe(
			'95% CI of B − A'
		);
		expect(await page.getByTestId('compare-panel').innerText()).toContain(
			'the runs differ in no model, code or result-affecting setting'
		);
		// The checker finds English where there is some, so its empty answers above mean it.
		expect((await englishLeftHere(page)).length).toBeGreaterThan(3);
		e.assertClean();
	});
	it('names a linked run that is not here in Chinese', async () => {
		const { page } = e;
		await page.getByTestId('language').selectOption('zh-CN');
		const here = new URL(page.url());
		await page.goto(`${here.origin}${here.pathname}?runs=gone/x,run1/y`);
		await page.getByTestId('link-missing').waitFor();
		expect(await text(page, 'link-missing')).toBe(
			'链接中有 2 次运行不在本浏览器中：gone/x, run1/y。请在“数据包”页面导入，即可在此查看。'
		);
		expect(await englishLeftHere(page)).toEqual([]);
		e.assertClean();
	});
});

function englishLeftHere(page: Page) {
	return check.englishLeft(page, KEPT);
}
