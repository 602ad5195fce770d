/**
 * The Models and Prompts pages in Chromium: Test connection's outcomes against real HTTP
 * servers, where keys are (and are not) stored, and editing, exporting, importing and resetting
 * the prompt pack with its hashes.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
	DEFAULT_PROMPT_PACK,
	parsePromptPack,
	promptsSha256,
	type PromptPack
} from '../../src/lib/core/prompts';
import { startFakeOpenAI, type FakeOpenAI } from '../fake-openai/server';
import { startBrowser, type E2E } from './browser';
import { writeFixtures } from './fixtures';
import { go } from './page-support';

const KEY = 'sk-e2e-models-secret-42';

async function gotoModels(page: Page) {
	await go(page, 'Models', 'Models & settings');
}

async function testResult(page: Page, role: string) {
	await page.getByTestId(`test-${role}`).click();
	const result = page.getByTestId(`role-${role}`).getByTestId('connection-result');
	await result.waitFor({ timeout: 30_000 });
	return { status: await result.getAttribute('data-status'), text: await result.innerText() };
}

/** Every localStorage value of the page, one after another. */
const localStorageText = (page: Page) =>
	page.evaluate(() => Object.values({ ...localStorage }).join('\n'));

describe('Models page', () => {
	let e: E2E;
	const servers: FakeOpenAI[] = [];

	beforeAll(async () => {
		e = await startBrowser();
		await e.page.goto(`${e.url}/`);
	});
	afterAll(async () => {
		await e?.close();
		for (const s of servers) await s.close();
	});
	afterEach(() => {
		// The refused key, the unknown model and the closed port show up as failed requests;
		// anything else is a defect.
		for (const problem of e.problems.splice(0)) {
			expect(problem).toMatch(
				/status of (401|404) \(|HTTP (401|404) for http:\/\/127\.0\.0\.1:\d+\/v1\/|ERR_CONNECTION_REFUSED/
			);
		}
	});

	it('Test connection tells a working endpoint from a wrong key, an unknown model and no server', async () => {
		const { page } = e;
		const guarded = await startFakeOpenAI({
			requireKey: KEY,
			knownModels: ['qwen2.5:7b', 'llama3.1:8b']
		});
		servers.push(guarded);
		await gotoModels(page);
		await page.getByTestId('preset-default').selectOption('custom');
		await page.getByTestId('base-url-default').fill(guarded.baseURL);
		await page.getByTestId('model-evaluated').fill('qwen2.5:7b');
		await page.getByTestId('model-judge').fill('no-such-model');

		// No key yet: the server refuses it.
		let r = await testResult(page, 'evaluated');
		expect(r.status).toBe('auth');
		expect(r.text).toContain('Key refused');
		expect(r.text).toContain('Incorrect API key provided');

		await page.getByTestId('key-default').fill(KEY);
		// Editing the endpoint clears results that no longer apply.
		expect(await page.getByTestId('connection-result').count()).toBe(0);
		r = await testResult(page, 'evaluated');
		expect(r.status).toBe('ok');
		expect(r.text).toMatch(/Works\s+\d+ ms/);
		// The key went to the server as the bearer token, and is not shown on the page.
		expect(guarded.chatRequests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
		expect(await page.locator('body').innerText()).not.toContain(KEY);

		r = await testResult(page, 'judge');
		expect(r.status).toBe('not_found');
		expect(r.text).toContain('Unknown model');
		expect(r.text).toContain('Models it lists: qwen2.5:7b, llama3.1:8b');

		// A role with its own base URL where nothing listens.
		const closed = await startFakeOpenAI();
		const deadURL = closed.baseURL;
		await closed.close();
		await page.getByTestId('same-url-user').uncheck();
		await page.getByTestId('base-url-user').fill(deadURL);
		expect(await page.getByTestId('resolved-user').innerText()).toContain(deadURL);
		r = await testResult(page, 'user');
		expect(r.status).toBe('unreachable');
		expect(r.text).toContain(`Could not connect to ${deadURL}`);
		await e.screenshot('models-test-results');
	});

	it('keeps keys in memory unless remembered, and never in the settings entry', async () => {
		const { page } = e;
		await gotoModels(page);
		await page.getByTestId('key-default').fill(KEY);
		await page.getByTestId('setting-temperature').fill('0.3');
		await expect.poll(() => localStorageText(page)).toContain('"temperature":0.3');
		expect(await localStorageText(page)).not.toContain(KEY);

		await page.getByTestId('remember-keys').check();
		expect(await page.getByRole('note').filter({ hasText: 'unencrypted' }).count()).toBe(1);
		await expect.poll(() => localStorageText(page)).toContain(KEY);
		const stored = await page.evaluate(() => ({
			settings: localStorage.getItem('lexpilot.model-settings.v1') ?? '',
			keys: localStorage.getItem('lexpilot.api-keys.v1') ?? ''
		}));
		expect(stored.settings).not.toContain(KEY);
		expect(stored.keys).toContain(KEY);

		// Remembered: a reload brings the key back.
		await page.reload();
		await page.getByTestId('key-default').waitFor();
		expect(await page.getByTestId('key-default').inputValue()).toBe(KEY);
		expect(await page.getByTestId('setting-temperature').inputValue()).toBe('0.3');

		// Unticked: the stored key is removed at once, and a reload forgets it.
		await page.getByTestId('remember-keys').uncheck();
		await expect.poll(() => localStorageText(page)).not.toContain(KEY);
		await page.reload();
		await page.getByTestId('key-default').waitFor();
		expect(await page.getByTestId('key-default').inputValue()).toBe('');
		await page.getByRole('button', { name: 'Reset to the protocol defaults' }).click();
		expect(await page.getByTestId('setting-temperature').inputValue()).toBe('0.7');
		await e.screenshot('models-page-keys');
	});
});

describe('Prompts page', () => {
	let e: E2E;

	beforeAll(async () => {
		e = await startBrowser();
		await e.page.goto(`${e.url}/`);
		await e.page.getByRole('link', { name: 'Prompts', exact: true }).click();
		await e.page.getByRole('heading', { name: 'Prompts', level: 1 }).waitFor();
	});
	afterAll(async () => {
		await e?.close();
	});
	afterEach(() => {
		const problems = e.problems.splice(0);
		expect(problems, problems.join('\n')).toEqual([]);
	});

	const shownHash = (page: Page) => page.getByTestId('prompts-sha256').innerText();
	/** Waits for the page to show this hash (it is recomputed after each change). */
	const hashShown = (page: Page, hash: string) =>
		page.getByTestId('prompts-sha256').filter({ hasText: hash }).waitFor();

	it('shows every template and the default pack’s hash', async () => {
		const { page } = e;
		expect(await shownHash(page)).toBe(await promptsSha256(DEFAULT_PROMPT_PACK));
		expect(await page.getByTestId('pack-status').innerText()).toBe('Default pack');
		for (const name of Object.keys(DEFAULT_PROMPT_PACK.templates)) {
			await page.getByTestId(`template-${name}`).click();
			expect(await page.getByTestId('template-text').inputValue()).toBe(
				DEFAULT_PROMPT_PACK.templates[name as keyof PromptPack['templates']]
			);
		}
		await page.getByTestId('template-lexawn').click();
		await e.screenshot('prompts-page');
	});

	it('refuses a template that would leak hidden facts to the evaluated model', async () => {
		const { page } = e;
		const text = page.getByTestId('template-text');
		await text.fill(`${DEFAULT_PROMPT_PACK.templates.lexawn}\n参考事实：{key_details}`);
		expect(await page.getByTestId('template-problems').innerText()).toContain(
			'unknown slot {key_details}'
		);
		expect(await page.getByTestId('template-save').isDisabled()).toBe(true);
		await page.getByRole('button', { name: 'Discard changes' }).click();
		expect(await page.getByTestId('template-problems').count()).toBe(0);
	});

	it('saves an edit: the pack is marked edited, its hash changes, and export downloads it', async () => {
		const { page } = e;
		const edited = `${DEFAULT_PROMPT_PACK.templates.lexawn}\n请用简洁的语言回答。`;
		await page.getByTestId('template-text').fill(edited);
		await page.getByTestId('template-save').click();
		// An edited default pack is named for what it is, in the exported file too.
		const want: PromptPack = {
			...DEFAULT_PROMPT_PACK,
			name: 'lexpilot-workbench-default-edited',
			templates: { ...DEFAULT_PROMPT_PACK.templates, lexawn: edited }
		};
		await hashShown(page, await promptsSha256(want));
		expect(await page.getByTestId('pack-status').innerText()).toBe('Edited pack');
		expect(await page.getByTestId('pack-warning').innerText()).toContain(
			'Edited prompts make runs incomparable'
		);
		await e.screenshot('prompts-edited');

		const [download] = await Promise.all([
			page.waitForEvent('download'),
			page.getByTestId('pack-export').click()
		]);
		const path = await download.path();
		expect(parsePromptPack(await readFile(path, 'utf8'))).toEqual(want);

		// The edit survives a reload (a run must be resumed with the pack it started with).
		// No hash is shown until the stored pack is read, so the first one shown is the edited pack's.
		await page.reload();
		await page.getByTestId('prompts-sha256').waitFor();
		expect(await shownHash(page)).toBe(await promptsSha256(want));
		expect(await page.getByTestId('pack-status').innerText()).toBe('Edited pack');
	});

	it('imports a pack, refuses a broken one with every problem, and resets to the default', async () => {
		const { page } = e;
		const imported: PromptPack = {
			...DEFAULT_PROMPT_PACK,
			name: 'my-lab-pack',
			version: '3',
			templates: {
				...DEFAULT_PROMPT_PACK.templates,
				force_ask: '请提问。<对话历史>{history}</对话历史>'
			}
		};
		const broken = {
			...DEFAULT_PROMPT_PACK,
			templates: { ...DEFAULT_PROMPT_PACK.templates, judge_extract: '只看{response}', lexawn: '' }
		};
		const files = await writeFixtures({ 'lab.json': imported, 'broken.json': broken });

		await page.getByTestId('pack-import').setInputFiles(files['broken.json']);
		const error = await page.getByTestId('pack-import-error').innerText();
		expect(error).toContain('broken.json');
		expect(error).toContain('template "lexawn" is empty');
		expect(error).toContain('template "judge_extract": missing slot {claims}');

		await page.getByTestId('pack-import').setInputFiles(files['lab.json']);
		await expect.poll(() => shownHash(page)).toBe(await promptsSha256(imported));
		await page.getByTestId('template-force_ask').click();
		expect(await page.getByTestId('template-text').inputValue()).toBe(imported.templates.force_ask);

		// Reset asks first: keeping the edits keeps them.
		await page.getByTestId('pack-reset').click();
		await page.getByTestId('pack-reset-no').click();
		expect(await shownHash(page)).toBe(await promptsSha256(imported));
		await page.getByTestId('pack-reset').click();
		await page.getByTestId('pack-reset-yes').click();
		await expect.poll(() => shownHash(page)).toBe(await promptsSha256(DEFAULT_PROMPT_PACK));
		expect(await page.getByTestId('pack-status').innerText()).toBe('Default pack');
		expect(await page.getByTestId('pack-warning').count()).toBe(0);
	});
});
