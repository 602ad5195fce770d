/**
 * Shared pieces of the Models/Run end-to-end tests: a fake OpenAI server that answers every
 * LexPilot prompt (task-aware) and tells which case each request served, page helpers to load
 * the sample and point the models at the fake server, and a reader of the run's records in the
 * page's IndexedDB.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { loadDataset, type Dataset } from '../../src/lib/core/dataset/load';
import type { Task } from '../../src/lib/core/model/types';
import { DEFAULT_PROMPT_PACK, taskOfPrompt, TEMPLATE_NAMES } from '../../src/lib/core/prompts';
import { simulateResponse } from '../../src/lib/core/simulated';
import { byTask } from '../fake-openai/by-task';
import { go } from './page-support';
import {
	startFakeOpenAI,
	type FakeOpenAI,
	type FakeOpenAIOptions,
	type Handler
} from '../fake-openai/server';

export const SAMPLE_PATH = resolve(import.meta.dirname, '../../static/sample/lexpilot-sample.json');

export async function readSample(): Promise<Dataset> {
	const result = await loadDataset(new Uint8Array(await readFile(SAMPLE_PATH)), {
		fileName: 'lexpilot-sample.json'
	});
	if (!result.ok) throw new Error('the bundled sample does not validate');
	return result.dataset;
}

/** Appended to every free-text answer, so later prompts that quote it name their case. */
const MARK = /〔case:([^〕]+)〕/;

/**
 * The case a prompt serves: from a marker in quoted model text, else from the first user
 * message of one of the case's histories (each is unique in the sample).
 */
export function caseOfPrompt(prompt: string, dataset: Dataset): string | null {
	const marked = MARK.exec(prompt);
	if (marked) return marked[1];
	const hit = dataset.cases.find(
		(c) => prompt.includes(c.complete[0].content) || prompt.includes(c.underspecified[0].content)
	);
	return hit?.case_number ?? null;
}

export interface LexPilotFake {
	server: FakeOpenAI;
	/**
	 * The case each LexPilot chat request served, in arrival order (null when unknown); Test
	 * connection's pings are left out.
	 */
	casesOf(requests?: FakeOpenAI['requests']): Array<string | null>;
}

/**
 * A fake OpenAI server answering every prompt of the default pack like the simulated provider
 * (plus a case marker), with usage figures. `delayMs` slows each answer.
 */
export async function startLexPilotFake(
	dataset: Dataset,
	options: Omit<FakeOpenAIOptions, 'handler'> & {
		delayMs?: number;
		/** Replaces the answer of some tasks (e.g. a judge that never answers in JSON). */
		override?: Partial<Record<Task, Handler>>;
		/**
		 * Called per LexPilot call; a returned promise holds the answer until it settles (a run
		 * kept in flight while the test does something).
		 */
		hold?: () => Promise<unknown> | undefined;
	} = {}
): Promise<LexPilotFake> {
	const { delayMs, override, hold, ...serverOptions } = options;
	const responders = Object.fromEntries(
		TEMPLATE_NAMES.map((task) => [
			task,
			({ prompt }: { prompt: string }) => {
				const text = simulateResponse(task, prompt, DEFAULT_PROMPT_PACK);
				const isJudge = task.startsWith('judge_');
				const kase = caseOfPrompt(prompt, dataset);
				const content = isJudge || !kase ? text : `${text}\n〔case:${kase}〕`;
				return {
					content,
					usage: { prompt_tokens: Math.ceil(prompt.length / 1.5), completion_tokens: 40 },
					...(delayMs ? { delayMs } : {})
				};
			}
		])
	);
	const lexpilot = byTask({
		detect: (req) => taskOfPrompt(req.prompt, DEFAULT_PROMPT_PACK),
		responders
	});
	const server = await startFakeOpenAI({
		...serverOptions,
		// Test connection sends "ping", which is no LexPilot prompt.
		handler: async (req) => {
			if (req.prompt === 'ping') return { content: 'pong' };
			await hold?.();
			const task = taskOfPrompt(req.prompt, DEFAULT_PROMPT_PACK);
			const replaced = task ? override?.[task] : undefined;
			return replaced ? replaced(req) : lexpilot(req);
		}
	});
	return {
		server,
		casesOf: (requests = server.chatRequests) =>
			requests
				.filter((r) => r.chat && r.prompt !== 'ping')
				.map((r) => caseOfPrompt(r.prompt ?? '', dataset))
	};
}

/**
 * Opens the file at `path` on the Dataset page (already shown) and waits until it is the dataset
 * in use: its SHA-256 in the summary, nothing loading. A dataset restored from an earlier visit
 * is shown meanwhile, so waiting for the summary alone would read the old one.
 */
export async function openDatasetFile(page: Page, path: string, timeout = 60_000): Promise<void> {
	const sha = createHash('sha256')
		.update(await readFile(path))
		.digest('hex');
	// Once nothing loads (a restored dataset included) and the picker takes a file; `sha` null:
	// whichever dataset is shown.
	const settled = (sha: string | null) => {
		const input = document.querySelector<HTMLInputElement>('#dataset-file');
		const shown = document.querySelector('[data-testid="summary-sha"]')?.getAttribute('title');
		return (
			!!input &&
			!input.disabled &&
			!document.querySelector('[data-testid="load-progress"]') &&
			(sha === null || shown === sha)
		);
	};
	await page.waitForFunction(settled, null, { timeout, polling: 100 });
	await page.setInputFiles('#dataset-file', path);
	await page.waitForFunction(settled, sha, { timeout, polling: 100 }).catch(async (e: Error) => {
		const shown = await page
			.locator('main')
			.innerText()
			.catch(() => '(no page)');
		throw new Error(`${path} did not become the dataset in use (${e.message}):\n${shown}`);
	});
}

/** Opens the app and loads the bundled sample on the Dataset page. */
export async function loadSampleDataset(page: Page, url: string): Promise<void> {
	await page.goto(`${url}/`);
	await go(page, 'Dataset', 'Dataset');
	await page
		.getByRole('button', { name: 'Load the sample (synthetic demo data, not LexPilot)' })
		.click();
	// A dataset restored from an earlier visit shows a summary too: wait for the sample's.
	const sha = createHash('sha256')
		.update(await readFile(SAMPLE_PATH))
		.digest('hex');
	await page.waitForFunction(
		(sha) =>
			document.querySelector('[data-testid="summary-sha"]')?.getAttribute('title') === sha &&
			!document.querySelector('[data-testid="load-progress"]'),
		sha,
		{ timeout: 60_000, polling: 100 }
	);
}

/** Points every role at `baseURL` (API mode) with one model id, through the Models page. */
export async function useEndpoint(
	page: Page,
	baseURL: string,
	model = 'fake-model'
): Promise<void> {
	await go(page, 'Models', 'Models & settings');
	await page.getByText('OpenAI-compatible endpoints').click();
	await page.getByTestId('preset-default').selectOption('custom');
	await page.getByTestId('base-url-default').fill(baseURL);
	for (const role of ['evaluated', 'user', 'judge']) {
		await page.getByTestId(`model-${role}`).fill(model);
	}
}

/** Fills the Run form (client-side navigation keeps in-memory keys). */
export async function fillRunForm(
	page: Page,
	options: { runId: string; limit?: number; stages?: string[] }
): Promise<void> {
	await go(page, 'Run', 'Run');
	await page.getByTestId('run-id').fill(options.runId);
	await page.getByTestId('run-limit').fill(options.limit ? String(options.limit) : '');
	const all = ['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction'];
	for (const stage of all) {
		await page.getByTestId(`stage-${stage}`).setChecked(options.stages?.includes(stage) ?? true);
	}
}

/** Waits for the run's status badge to reach `status` (a failed run fails the wait loudly). */
export async function waitForRunStatus(page: Page, status: string, timeout = 60_000) {
	const badge = page.getByTestId('run-status');
	await badge.waitFor({ timeout });
	// Checked inside the page (every 100 ms: animation frames stop in a background tab), so the
	// wait ends with the change.
	const now = await page
		.waitForFunction(
			(status) => {
				const s = document.querySelector('[data-testid="run-status"]')?.getAttribute('data-status');
				return s === status || (s === 'failed' && status !== 'failed') ? s : null;
			},
			status,
			{ timeout, polling: 100 }
		)
		.then((handle) => handle.jsonValue())
		.catch(async (e: Error) => {
			const last = await badge.getAttribute('data-status').catch(() => '(gone)');
			throw new Error(`run status stayed "${last}", wanted "${status}" (${e.message})`);
		});
	if (now !== status) {
		const message = await page
			.getByTestId('run-error')
			.innerText()
			.catch(() => '(no panel)');
		throw new Error(`the run failed: ${message}`);
	}
}

/** Every row of `store` in the page's IndexedDB database `dbName` (a store not there yet throws). */
export async function storedRows<T>(page: Page, dbName: string, store: string): Promise<T[]> {
	const rows = await page.evaluate(
		async ({ dbName, store }) => {
			const db = await new Promise<IDBDatabase>((ok, fail) => {
				const req = indexedDB.open(dbName);
				req.onsuccess = () => ok(req.result);
				req.onerror = () => fail(req.error);
			});
			try {
				if (!db.objectStoreNames.contains(store))
					throw new Error(`${dbName} has no store ${store}`);
				return await new Promise<unknown[]>((ok, fail) => {
					const req = db.transaction(store).objectStore(store).getAll();
					req.onsuccess = () => ok(req.result);
					req.onerror = () => fail(req.error);
				});
			} finally {
				db.close();
			}
		},
		{ dbName, store }
	);
	return rows as T[];
}

/** Records saved in the page's IndexedDB for `runId`: count per stage file, case numbers per file. */
export async function savedRecords(page: Page, runId: string): Promise<Record<string, string[]>> {
	const rows = await storedRows<{ runId: string; file: string; case_number: string }>(
		page,
		'lexpilot-workbench',
		'records'
	);
	const out: Record<string, string[]> = {};
	for (const row of rows) if (row.runId === runId) (out[row.file] ??= []).push(row.case_number);
	return out;
}

/** The manifest saved for `runId` in the page's IndexedDB, or null. */
export async function savedManifest(
	page: Page,
	runId: string
): Promise<Record<string, unknown> | null> {
	const rows = await storedRows<{ runId: string; manifest: Record<string, unknown> }>(
		page,
		'lexpilot-workbench',
		'manifests'
	);
	return rows.find((r) => r.runId === runId)?.manifest ?? null;
}
