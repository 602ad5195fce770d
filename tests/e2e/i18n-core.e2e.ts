/**
 * The core's own texts in a Chinese browser: Test connection against a wrong key and against a
 * server that is down, a run stopped by a provider failure (its error panel), and a bundle with
 * a bad line. Each is said in Chinese, with the places (case, file, line) and what the provider
 * or the file said kept as they came; screenshots of each.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fake-openai/server';
import { readTree, writeOutputRoot, zipFiles } from '../fixtures/bundles/folder';
import { startBrowser, type E2E } from './browser';
import { go } from './i18n-support';

let e: E2E;
const servers: FakeOpenAI[] = [];
const KEY = 'the-right-key-5150';

beforeAll(async () => {
	e = await startBrowser({ locale: 'zh-CN', viewport: { width: 1366, height: 900 } });
	await e.page.goto(`${e.url}/`);
});

afterAll(async () => {
	await e?.close();
	for (const s of servers) await s.close();
});

/**
 * The refused key and the closed port show up as failed requests (expected here); anything else
 * the browser reports is a defect.
 */
function onlyExpectedFailures() {
	for (const problem of e.problems.splice(0)) {
		expect(problem).toMatch(
			/status of 401 \(|HTTP 401 for http:\/\/127\.0\.0\.1:\d+\/v1\/|ERR_CONNECTION_REFUSED/
		);
	}
}

/** Two or more English words in a row that are not data: the translation missed a sentence. */
function englishIn(text: string, data: string[]): string[] {
	let rest = text;
	for (const d of data) rest = rest.split(d).join(' ');
	rest = rest.replace(/case_number \S+/g, ' ');
	return [...rest.matchAll(/[A-Za-z][\w.'-]*(?:[ ]+[A-Za-z][\w.'-]*)+/g)]
		.map((m) => m[0])
		.filter((words) => !/^(?:Base URL|API|OpenAI|CORS)$/.test(words));
}

async function useEndpoint(page: Page, baseURL: string, key: string) {
	await go(page, '模型', '模型与设置');
	await page.getByText('兼容 OpenAI 的接口').click();
	await page.getByRole('heading', { name: '默认接口', level: 2 }).waitFor();
	await page.getByTestId('preset-default').selectOption('custom');
	await page.getByTestId('base-url-default').fill(baseURL);
	await page.getByTestId('key-default').fill(key);
	for (const role of ['evaluated', 'user', 'judge']) {
		await page.getByTestId(`model-${role}`).fill('fake-model');
	}
}

describe('the core’s texts in Chinese', () => {
	it('Test connection: a wrong key, then a server that is down', async () => {
		const { page } = e;
		const fake = await startFakeOpenAI({ requireKey: KEY });
		servers.push(fake);
		await useEndpoint(page, fake.baseURL, 'sk-wrong-key-0000');
		const card = page.getByTestId('role-evaluated');
		await card.getByRole('button', { name: '测试连接' }).click();
		const result = card.getByTestId('connection-result');
		await expect.poll(() => result.getAttribute('data-status'), { timeout: 30_000 }).toBe('auth');
		const message = await card.getByTestId('connection-message').innerText();
		const hint = await card.getByTestId('connection-hint').innerText();
		expect(message).toMatch(new RegExp(`^${fake.baseURL.replace(/\./g, '\\.')} 拒绝了密钥（401：`));
		expect(hint).toBe('请检查该角色的 API 密钥（可能缺失、输错，或属于另一家服务商）。');
		expect(await result.innerText()).not.toContain('sk-wrong-key-0000');
		// What the server said is quoted as it came; the rest is Chinese.
		expect(englishIn(message.replace(/（401：.*）。$/, ''), [fake.baseURL])).toEqual([]);
		await e.screenshot('i18n-core-connection-auth', result);

		const down = await startFakeOpenAI();
		await down.close();
		await page.getByTestId('base-url-default').fill(down.baseURL);
		await card.getByRole('button', { name: '测试连接' }).click();
		await expect
			.poll(() => result.getAttribute('data-status'), { timeout: 30_000 })
			.toBe('unreachable');
		const said = await result.innerText();
		expect(said).toContain(`无法连接到 ${down.baseURL}。`);
		expect(said).toContain('请检查服务器是否在运行、主机和端口是否正确');
		expect(
			englishIn(await card.getByTestId('connection-message').innerText(), [down.baseURL])
		).toEqual([]);
		expect(
			englishIn(await card.getByTestId('connection-hint').innerText(), [down.baseURL])
		).toEqual([]);
		await e.screenshot('i18n-core-connection-unreachable', result);
		onlyExpectedFailures();
	});

	it('Run: a run stopped by a refused key shows its error panel in Chinese', async () => {
		const { page } = e;
		const fake = await startFakeOpenAI({
			handler: () => ({
				status: 401,
				body: { error: { message: 'Incorrect API key provided: sk-wr****' } }
			})
		});
		servers.push(fake);
		await go(page, '数据集', '数据集');
		await page.getByRole('button', { name: '加载示例（合成演示数据，并非 LexPilot）' }).click();
		await page.getByTestId('summary-stats').waitFor();
		await useEndpoint(page, fake.baseURL, 'sk-wrong-key-0000');

		await go(page, '运行', '运行');
		await page.getByTestId('run-id').fill('zh-failure');
		await page.getByTestId('run-limit').fill('1');
		for (const stage of ['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction']) {
			await page.getByTestId(`stage-${stage}`).setChecked(stage === 'gen');
		}
		await page.getByTestId('start').click();
		const panel = page.getByTestId('run-error');
		await panel.waitFor({ timeout: 60_000 });
		expect(await panel.getAttribute('data-kind')).toBe('auth');
		const text = await page.getByTestId('error-message').innerText();
		expect(text).toMatch(
			/^gen 停在案例 #0（case_number [^）]+）：案例 \S+，被评估模型 fake-model（/
		);
		expect(text).toContain(
			'：401 未授权（服务商：“Incorrect API key provided: sk-wr****”）— 密钥被拒绝：请检查设置中被评估模型的密钥。'
		);
		expect(text).toMatch(/已保存 0\/1 个案例/);
		expect(text).not.toContain('sk-wrong-key-0000');
		expect(
			englishIn(text, [fake.baseURL, 'Incorrect API key provided: sk-wr****', 'fake-model'])
		).toEqual([]);
		await e.screenshot('i18n-core-run-error', panel);

		// After a reload the failed run waits under "Unfinished runs", its error still in Chinese.
		await page.reload();
		const row = page.getByTestId('unfinished-zh-failure');
		await row.waitFor({ timeout: 30_000 });
		const listed = row.locator('.err');
		await expect
			.poll(() => listed.innerText())
			.toMatch(/^gen 停在案例 #0（case_number [^）]+）：案例 /);
		expect(await listed.getAttribute('title')).toMatch(/已保存 0\/1 个案例/);
		onlyExpectedFailures();
	});

	it('Bundles: a bundle with an empty line names the file and the line in Chinese', async () => {
		const { page } = e;
		const root = await writeOutputRoot([{ runId: 'badline', limit: 3 }]);
		const files = await readTree(root);
		const path = [...files.keys()].find((p) => p.endsWith('/a1.jsonl'))!;
		const lines = new TextDecoder().decode(files.get(path)).split('\n');
		lines.splice(1, 0, '');
		files.set(path, new TextEncoder().encode(lines.join('\n')));
		const zip = join(await mkdtemp(join(tmpdir(), 'lexpilot-i18n-core-')), 'badline.zip');
		await writeFile(zip, zipFiles(files));

		await go(page, '数据包', '数据包');
		await page.locator('#bundle-file').setInputFiles(zip);
		const outcome = page.getByTestId('bundle-outcome');
		await outcome.filter({ hasText: '无法导入' }).waitFor();
		const said = await outcome.innerText();
		expect(said).toContain(`badline.zip: ${path}，第 2 行：空行`);
		expect(englishIn(said, ['badline.zip', path])).toEqual([]);
		await e.screenshot('i18n-core-bundle-bad-line', outcome);
		e.assertClean();
	});
});
