/**
 * Canary keys in the browser. Distinctive keys entered on the Models page for
 * every role (not remembered) go through a full run against the fake server, a run the provider
 * refuses while quoting the key back, and an export. Afterwards the keys must be in no IndexedDB
 * database, Web Storage, cookie, cache or lock name, no exported file or manifest, no URL or
 * history entry, no console line and no page's markup; the fake server must have seen each only
 * as its role's `Authorization: Bearer` header. Opting in to "Remember keys" puts them in
 * exactly one place: their own localStorage entry.
 */
import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/lib/core/dataset/load';
import type { Task } from '../../src/lib/core/model/types';
import { DEFAULT_PROMPT_PACK, taskOfPrompt } from '../../src/lib/core/prompts';
import type { Role } from '../../src/lib/core/records';
import { simulateResponse } from '../../src/lib/core/simulated';
import { KEYS_STORAGE_KEY } from '../../src/lib/state/model-settings';
import type { FakeRequest } from '../fake-openai/server';
import { startBrowser, type E2E } from './browser';
import { go } from './page-support';
import {
	fillRunForm,
	loadSampleDataset,
	readSample,
	startLexPilotFake,
	useEndpoint,
	waitForRunStatus,
	type LexPilotFake
} from './run-support';
import { dumpOriginStorage, placesHolding, withoutProviderErrors } from './security-support';

/** Every canary holds this, so one search finds any of them. */
const MARK = 'canary-7f3a9c';
const KEYS = {
	/** The default endpoint's key; the evaluated model uses it. */
	default: `sk-${MARK}-default-4e8b2d6f0a1c`,
	user: `sk-${MARK}-user-9a1c3e5f7b2d`,
	judge: `sk-${MARK}-judge-2d4f6a8c0e1b`
};
const KEY_OF_ROLE: Record<Role, string> = {
	evaluated: KEYS.default,
	user: KEYS.user,
	judge: KEYS.judge
};
const ROLE_OF_TASK: Record<Task, Role> = {
	lexawn: 'evaluated',
	force_ask: 'evaluated',
	force_judge: 'evaluated',
	user_standard: 'user',
	judge_lca: 'judge',
	judge_dcg: 'judge',
	judge_extract: 'judge'
};

/** The provider's error, quoting the Authorization header it got. */
const echo = (status: number, req: FakeRequest) => ({
	status,
	headers: { 'Retry-After': '0' },
	body: { error: { message: `Incorrect API key provided: ${req.headers.authorization}` } }
});

let e: E2E;
let sample: Dataset;
const fakes: LexPilotFake[] = [];
/** Every console line of every page, whatever its level. */
const consoleLines: string[] = [];
/** Every request the browser made to anything but the fake providers. */
const siteRequests: string[] = [];

beforeAll(async () => {
	sample = await readSample();
	e = await startBrowser();
	e.context.on('console', (msg) => consoleLines.push(`${msg.type()}: ${msg.text()}`));
	e.context.on('request', (req) => {
		if (fakes.some((f) => req.url().startsWith(f.server.url))) return;
		siteRequests.push(
			`${req.method()} ${req.url()} ${JSON.stringify(req.headers())} ${req.postData() ?? ''}`
		);
	});
});
afterAll(async () => {
	await e?.close();
	for (const f of fakes) await f.server.close();
});

/** Enters the default key and an own key for the user and judge roles (client-side only). */
async function enterKeys(page: Page) {
	await page.getByTestId('key-default').fill(KEYS.default);
	for (const role of ['user', 'judge'] as const) {
		const card = page.getByTestId(`role-${role}`);
		await card.getByLabel('Same key as the default endpoint').uncheck();
		await card.getByLabel('API key').fill(KEYS[role]);
	}
}

/**
 * Each chat request carried its role's key as a bearer token, and no request (preflights
 * included) had a key anywhere else: URL, body or another header.
 */
function checkProviderSaw(fake: LexPilotFake) {
	const chats = fake.server.chatRequests;
	expect(chats.length).toBeGreaterThan(0);
	for (const r of chats) {
		const task = taskOfPrompt(r.prompt ?? '', DEFAULT_PROMPT_PACK);
		expect(task, r.prompt?.slice(0, 60)).not.toBeNull();
		expect(r.headers.authorization, task!).toBe(`Bearer ${KEY_OF_ROLE[ROLE_OF_TASK[task!]]}`);
	}
	for (const r of fake.server.requests) {
		const { authorization, ...others } = r.headers;
		void authorization;
		const places = {
			url: r.url,
			body: JSON.stringify(r.body ?? null),
			headers: JSON.stringify(others)
		};
		expect(placesHolding(places, MARK), `${r.method} ${r.url}`).toEqual([]);
	}
}

describe('canary keys in the browser', () => {
	let exported: Record<string, Uint8Array> = {};

	it('run, refused run and export with keys kept in memory', async () => {
		const { page } = e;
		// First attempts fail with the key quoted back, so the Run page's retry list shows the
		// provider's message; the user model is refused outright in the second run.
		const quoted = new Set<string>();
		const fake = await startLexPilotFake(sample, {
			override: {
				lexawn: (req) => {
					if (!quoted.has(req.prompt)) {
						quoted.add(req.prompt);
						return echo(503, req);
					}
					return { content: simulateResponse('lexawn', req.prompt, DEFAULT_PROMPT_PACK) };
				}
			}
		});
		const refusing = await startLexPilotFake(sample, {
			override: { user_standard: (req) => echo(401, req) }
		});
		fakes.push(fake, refusing);

		await loadSampleDataset(page, e.url);
		await useEndpoint(page, fake.server.baseURL);
		await enterKeys(page);
		await fillRunForm(page, { runId: 'canary-run', limit: 2 });
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'done');
		const retries = page.getByTestId('run-progress').locator('details.retries');
		await retries.evaluate((d) => d.setAttribute('open', ''));
		// The quote reached the page, redacted: an unredacted one would fail below.
		expect(await retries.innerText()).toContain('Incorrect API key provided: Bearer [key]');
		checkProviderSaw(fake);

		await go(page, 'Models');
		await page.getByTestId('base-url-default').fill(refusing.server.baseURL);
		await fillRunForm(page, { runId: 'canary-refused', limit: 1, stages: ['dcg'] });
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'failed');
		const panel = page.getByTestId('run-error');
		expect(await panel.getAttribute('data-kind')).toBe('auth');
		expect(await panel.getByTestId('error-message').innerText()).toContain(
			'Incorrect API key provided: Bearer [key]'
		);
		checkProviderSaw(refusing);
		const problems = withoutProviderErrors(e.problems.splice(0), [
			fake.server.baseURL,
			refusing.server.baseURL
		]);
		expect(problems, problems.join('\n')).toEqual([]);

		await go(page, 'Bundles');
		await page.getByRole('checkbox', { name: 'Select every run' }).check();
		const [download] = await Promise.all([
			page.waitForEvent('download'),
			page.getByRole('button', { name: /Export 2 selected runs as \.zip/ }).click()
		]);
		expect(download.suggestedFilename()).not.toContain(MARK);
		exported = unzipSync(new Uint8Array(await readFile((await download.path())!)));
	});

	it('are in no export, manifest, storage, URL, history entry, console line or page markup', async () => {
		const { page } = e;
		const files = Object.entries(exported);
		expect(files.filter(([p]) => p.endsWith('manifest.json'))).toHaveLength(2);
		expect(files.length).toBeGreaterThan(10);
		const text = Object.fromEntries(files.map(([p, b]) => [p, new TextDecoder().decode(b)]));
		expect(placesHolding(text, MARK)).toEqual([]);

		const stored = await dumpOriginStorage(page);
		// The dump did read the runs: the search below looks at real records.
		const records = Object.keys(stored).find((p) =>
			p.startsWith('IndexedDB lexpilot-workbench/records')
		);
		expect(records).toMatch(/\((\d{2,}) entries\)/);
		expect(placesHolding(stored, MARK)).toEqual([]);

		// Every page's markup (the key inputs hold the keys as properties, never as attributes).
		const markup: Record<string, string> = {};
		for (const name of ['Dataset', 'Models', 'Prompts', 'Run', 'Results', 'Inspect', 'Bundles']) {
			await go(page, name);
			markup[name] = await page.content();
		}
		expect(placesHolding(markup, MARK)).toEqual([]);

		const cdp = await e.context.newCDPSession(page);
		const history = (await cdp.send('Page.getNavigationHistory')) as {
			entries: { url: string; title: string }[];
		};
		await cdp.detach();
		expect(history.entries.length).toBeGreaterThan(1);
		const visited = Object.fromEntries(
			history.entries.map((h, i) => [`history ${i}`, `${h.url} ${h.title}`])
		);
		expect(placesHolding({ ...visited, url: page.url() }, MARK)).toEqual([]);

		expect(consoleLines.length).toBeGreaterThan(0);
		expect(placesHolding({ console: consoleLines.join('\n') }, MARK)).toEqual([]);
		expect(siteRequests.length).toBeGreaterThan(0);
		expect(placesHolding({ requests: siteRequests.join('\n') }, MARK)).toEqual([]);
		// Still in memory, where the user put them: the next run needs no re-entry.
		await go(page, 'Models');
		expect(await page.getByTestId('key-default').inputValue()).toBe(KEYS.default);
	});

	it('opted in, are kept only in their own localStorage entry, and leave it when the user opts out', async () => {
		const { page } = e;
		await go(page, 'Models');
		await page.getByTestId('remember-keys').check();
		await go(page, 'Run');
		const remembered = placesHolding(await dumpOriginStorage(page), MARK);
		expect(remembered).toHaveLength(1);
		expect(remembered[0]).toMatch(
			new RegExp(`^localStorage ${KEYS_STORAGE_KEY.replace(/\./g, '\\.')}:`)
		);
		const entry = await page.evaluate((k) => localStorage.getItem(k) ?? '', KEYS_STORAGE_KEY);
		for (const key of Object.values(KEYS)) expect(entry).toContain(key);

		// Remembered across a reload, and still nowhere else.
		await page.reload();
		await go(page, 'Models');
		expect(await page.getByTestId('key-default').inputValue()).toBe(KEYS.default);
		expect(placesHolding(await dumpOriginStorage(page), MARK)).toHaveLength(1);

		await page.getByTestId('remember-keys').uncheck();
		await go(page, 'Run');
		expect(placesHolding(await dumpOriginStorage(page), MARK)).toEqual([]);
		const problems = e.problems.splice(0);
		expect(problems, problems.join('\n')).toEqual([]);
	});
});
