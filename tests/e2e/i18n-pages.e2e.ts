/**
 * The Dataset, Models and Bundles pages in Chinese: a Chinese browser loads the sample, opens a
 * broken file, configures the simulated provider and an endpoint (Test connection against the
 * fake server), and imports a CLI output folder. Each page must speak Chinese (headings,
 * buttons, labels, the texts the state builds), keep case numbers and dataset text as they are,
 * and show no English interface text: the visible text of the page (data and code left out; the
 * validator's problems and the connection diagnosis included) is compared with the English
 * messages of the three areas and of the core's texts.
 * Then the header switches to English and every page follows at once; screenshots of each page
 * in both languages at 1366 and 390 px, none scrolling sideways.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTING_LIMITS } from '../../src/lib/core/run-config';
import { startFakeOpenAI, type FakeOpenAI } from '../fake-openai/server';
import { SAMPLE_PATH, writeOutputRoot } from '../fixtures/bundles/folder';
import { startBrowser, type E2E } from './browser';
import { malformedDataset } from './fixtures';
import {
	languageChecker,
	go,
	LAPTOP,
	nextFrame,
	PHONE,
	sidewaysOverflow,
	type LanguageCheck
} from './i18n-support';

interface SampleCase {
	case_number: string;
	cause_of_action: string;
	focal_point: string[];
	complete_consultation: Array<{ content: string }>;
}
let sample: SampleCase[] = [];

let e: E2E;
let fake: FakeOpenAI;
let outputRoot: string;
let brokenPath: string;
let check: LanguageCheck;
const broken = malformedDataset();

beforeAll(async () => {
	// The core's texts (validator problems, the connection diagnosis) are said in Chinese too.
	check = await languageChecker(['dataset', 'models', 'bundles', 'core']);
	sample = JSON.parse(await readFile(SAMPLE_PATH, 'utf8')) as SampleCase[];
	outputRoot = await writeOutputRoot([{ runId: 'done', limit: 4 }]);
	brokenPath = join(await mkdtemp(join(tmpdir(), 'lexpilot-i18n-')), 'broken.json');
	await writeFile(brokenPath, JSON.stringify(broken.cases));
	fake = await startFakeOpenAI();
	// A Chinese browser on its first visit: the interface starts in Chinese by itself.
	e = await startBrowser({ locale: 'zh-CN', viewport: LAPTOP });
	await e.page.goto(`${e.url}/`);
});

afterAll(async () => {
	await e?.close();
	await fake?.close();
});

const englishLeft = (page: Page, data: string[] = []) => check.englishLeft(page, data);

const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();

describe('the Dataset, Models and Bundles pages in Chinese', () => {
	it('Dataset: loads the sample and reports a broken file in Chinese, the data untouched', async () => {
		const { page } = e;
		await go(page, '数据集', '数据集');
		expect(await page.title()).toBe('数据集 · LexPilot 工作台');
		await page.getByRole('button', { name: '加载示例（合成演示数据，并非 LexPilot）' }).click();
		await page.getByTestId('summary-stats').waitFor();
		expect(await text(page, 'stat-cases')).toBe(String(sample.length));
		await page.getByRole('heading', { name: '概要', level: 2 }).waitFor();
		expect(await text(page, 'sample-notice')).toContain('合成演示数据。');
		expect(await text(page, 'listed-count')).toBe(
			`共 ${sample.length} 个，匹配 ${sample.length} 个`
		);

		// Case numbers, causes, messages and focal points are shown as the file has them.
		// textContent: rows out of view skip rendering (content-visibility), so innerText omits them.
		const list = (await page.getByTestId('case-list').textContent()) ?? '';
		for (const c of sample) expect(list).toContain(c.case_number);
		const first = sample[0];
		expect(await text(page, 'detail-case-number')).toBe(first.case_number);
		expect(
			await page.getByTestId('case-detail').getByRole('heading', { level: 3 }).first().innerText()
		).toContain('案例 #0');
		expect(await page.getByTestId('complete-message').first().innerText()).toContain(
			first.complete_consultation[0].content.trim()
		);
		expect(await text(page, 'focal-points')).toContain(first.focal_point[0]);
		expect(await text(page, 'hidden-panel')).toContain('对被评估模型隐藏');
		expect(await text(page, 'case-detail')).toContain(first.cause_of_action);
		expect(await englishLeft(page, ['lexpilot-sample.json'])).toEqual([]);

		// A broken file: refused, the sample stays, the report's frame in Chinese.
		await page.setInputFiles('#dataset-file', brokenPath);
		await page.getByTestId('kept-dataset').waitFor();
		const count = Number(await text(page, 'problem-count'));
		expect(count).toBeGreaterThan(1);
		expect(await text(page, 'kept-dataset')).toBe(
			`broken.json 未打开（有 ${count} 个问题，见下方列表）。当前使用的数据集仍是 lexpilot-sample.json。`
		);
		expect(await page.locator('#report-title').innerText()).toBe(`${count} 个问题：broken.json`);
		expect(await page.getByTestId('problems').locator('thead th').allInnerTexts()).toEqual([
			'案例',
			'case_number',
			'字段',
			'消息',
			'问题'
		]);
		await page.getByRole('button', { name: '复制全部问题' }).waitFor();
		const rows = await page.getByTestId('problems').locator('tbody').innerText();
		for (const p of broken.planted) expect(rows).toContain(p.caseNumber);
		// The validator's problems in Chinese; field names as the file has them, its own labels translated.
		expect(rows).toContain('判决 "全部支持" 不是 支持、部分支持和驳回 之一');
		const fields = await page.getByTestId('problems').locator('td.field').allInnerTexts();
		expect(fields).toEqual(
			expect.arrayContaining(['result_dict', 'focal_point', '信息缺失历史', '两段历史'])
		);
		expect(
			await page.getByTestId('problems').locator('td.problem').first().getAttribute('title')
		).toMatch(/^案例 #0（case_number 2023-001）result_dict：/);
		expect(await text(page, 'stat-cases')).toBe(String(sample.length));
		expect(await englishLeft(page, ['lexpilot-sample.json', 'broken.json'])).toEqual([]);
		await e.screenshot('i18n-dataset-zh');
		e.assertClean();
	});

	it('Models: the simulated provider and an endpoint, Test connection in Chinese', async () => {
		const { page } = e;
		await go(page, '模型', '模型与设置');
		await page.getByTestId('mode-simulated').check();
		for (const role of ['被评估模型', '用户模型', '评审模型']) {
			await page.getByRole('heading', { name: role, level: 2 }).waitFor();
		}
		const offline = page.getByTestId('role-judge').locator('.offline');
		expect(await offline.innerText()).toBe('由模拟接口离线作答：不会向任何地方发送数据。');

		// A settings problem is worded in Chinese too.
		await page.getByTestId('setting-retries').fill('99');
		await expect
			.poll(() => page.locator('.numbers .field-error').innerText())
			.toBe(
				`重试次数必须是 ${SETTING_LIMITS.retries.min} 到 ${SETTING_LIMITS.retries.max} 之间的整数。`
			);
		expect(await englishLeft(page)).toEqual([]);
		await page.getByRole('button', { name: '恢复协议默认值' }).click();
		expect(await page.getByTestId('setting-retries').inputValue()).toBe('3');

		await page.getByText('兼容 OpenAI 的接口').click();
		await page.getByRole('heading', { name: '默认接口', level: 2 }).waitFor();
		await page.getByTestId('preset-default').selectOption('custom');
		await page.getByTestId('base-url-default').fill(fake.baseURL);
		await page.getByTestId('model-evaluated').fill('fake-model');
		await page.getByRole('button', { name: '测试连接' }).first().click();
		const result = page.getByTestId('role-evaluated').getByTestId('connection-result');
		await expect.poll(() => result.getAttribute('data-status'), { timeout: 30_000 }).toBe('ok');
		expect(await result.innerText()).toContain('连接正常');
		expect(await result.getByTestId('connection-message').innerText()).toMatch(
			new RegExp(`^${fake.baseURL.replace(/\./g, '\\.')} 上的 fake-model 在 \\d+ 毫秒内作答。$`)
		);
		expect(fake.chatRequests.at(-1)?.model).toBe('fake-model');
		const card = page.getByTestId('role-evaluated');
		for (const label of ['模型 ID', '与默认接口使用相同的接口地址', '与默认接口使用相同的密钥']) {
			await card.getByText(label, { exact: true }).waitFor();
		}
		expect(await page.getByTestId('default-endpoint').innerText()).toContain(
			'任何支持 OpenAI Chat Completions API 的服务'
		);
		expect(await englishLeft(page, ['fake-model'])).toEqual([]);
		await e.screenshot('i18n-models-zh');
		e.assertClean();
	});

	it('Bundles: imports a CLI output folder, outcome and table in Chinese', async () => {
		const { page } = e;
		await go(page, '数据包', '数据包');
		await page.locator('#bundle-folder').setInputFiles(outputRoot);
		const outcome = page.getByTestId('bundle-outcome');
		await outcome.filter({ hasText: '导入' }).waitFor();
		const said = await outcome.innerText();
		expect(said).toContain(`已从 ${basename(outputRoot)} 导入 1 个运行`);
		expect(said).toContain('done · sim-model-a：4 个案例');
		await outcome.getByRole('link', { name: '查看其结果' }).waitFor();

		const table = page.getByTestId('stored-runs');
		// The select-all box's label (visually hidden on a wide screen, read by a screen reader).
		expect(await table.locator('thead th').allInnerTexts()).toEqual([
			'选择全部运行',
			'运行',
			'被评估模型',
			'案例数',
			'阶段',
			'记录数',
			''
		]);
		expect(await table.locator('tbody').innerText()).toContain('sim-model-a');
		const exportButton = page.getByRole('button', { name: /导出为 \.zip/ });
		expect(await exportButton.innerText()).toBe('将选中的运行导出为 .zip');
		await page.getByRole('checkbox', { name: '选择全部运行' }).check();
		expect(await exportButton.innerText()).toBe('将选中的 1 个运行导出为 .zip');
		expect(await englishLeft(page, [basename(outputRoot), 'done', 'sim-model-a'])).toEqual([]);
		await e.screenshot('i18n-bundles-zh');
		e.assertClean();
	});

	it('follows a switch to English at once; fits 1366 and 390 px in both languages', async () => {
		const { page } = e;
		const pages = [
			{ name: 'dataset', zh: ['数据集', '数据集'], en: ['Dataset', 'Dataset'] },
			{ name: 'models', zh: ['模型', '模型与设置'], en: ['Models', 'Models & settings'] },
			{ name: 'bundles', zh: ['数据包', '数据包'], en: ['Bundles', 'Bundles'] }
		] as const;
		for (const locale of ['zh-CN', 'en'] as const) {
			await page.setViewportSize(LAPTOP);
			await page.getByTestId('language').selectOption(locale);
			for (const p of pages) {
				const [link, heading] = locale === 'en' ? p.en : p.zh;
				await go(page, link, heading);
				await e.screenshot(`i18n-${p.name}-${locale}-1366`);
				if (locale === 'en') {
					// The checker finds English where there is some, so its empty answers above mean it.
					expect((await englishLeft(page)).length).toBeGreaterThan(3);
				}
				await page.setViewportSize(PHONE);
				await nextFrame(page);
				const overflow = await sidewaysOverflow(page);
				expect(
					overflow.scrollWidth,
					`${p.name} ${locale}: ${overflow.wide.join('; ')}`
				).toBeLessThanOrEqual(overflow.clientWidth);
				await e.screenshot(`i18n-${p.name}-${locale}-390`);
				await page.setViewportSize(LAPTOP);
			}
		}
		// Texts the state built in Chinese read in English now, without reopening anything.
		await go(page, 'Dataset', 'Dataset');
		expect(await text(page, 'kept-dataset')).toMatch(
			/^broken\.json was not opened \(\d+ problems, listed below\)\. The dataset in use is still lexpilot-sample\.json\.$/
		);
		await go(page, 'Models', 'Models & settings');
		expect(
			await page.getByTestId('role-evaluated').getByTestId('connection-result').innerText()
		).toContain('Works');
		await go(page, 'Bundles', 'Bundles');
		expect(await text(page, 'bundle-outcome')).toContain(
			`Imported 1 run from ${basename(outputRoot)}`
		);
		e.assertClean();
	});
});
