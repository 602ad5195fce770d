/**
 * Untrusted text renders inert: hostile dataset text run through the Run page,
 * hostile MODEL OUTPUT from a provider (responses, reasoning, `<think>` blocks, user replies,
 * questions, judge prose around the JSON, provider error messages) viewed on Run, Results and
 * Inspect, and hostile IMPORTED BUNDLES (model ids, endpoints, class names, records). Each must
 * be shown literally, create no element, and run nothing. The Dataset page's own view of hostile
 * files is tested in dataset.e2e.ts; a bundle with hostile records only in inspect-xss.e2e.ts.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { escapeControl } from '../../src/lib/core/text/escape-control';
import { loadDataset, type Dataset } from '../../src/lib/core/dataset/load';
import { runStages } from '../../src/lib/core/engine/run-stages';
import type { Task } from '../../src/lib/core/model/types';
import { DEFAULT_PROMPT_PACK } from '../../src/lib/core/prompts';
import { createSimulatedClient, simulateResponse } from '../../src/lib/core/simulated';
import { MemoryStore } from '../../src/lib/core/store/memory-store';
import type { Handler, Reply } from '../fake-openai/server';
import { zipFiles } from '../fixtures/bundles/folder';
import { startBrowser, type E2E } from './browser';
import { validCase } from './fixtures';
import {
	fillRunForm,
	openDatasetFile,
	startLexPilotFake,
	useEndpoint,
	waitForRunStatus,
	type LexPilotFake
} from './run-support';
import {
	expectInert,
	hostile,
	openAllDetails,
	shortHostile,
	withoutProviderErrors
} from './security-support';

/** Two valid cases whose every free-text field is hostile. */
function hostileCases() {
	return [0, 1].map((i) => {
		const c = validCase(i === 0 ? shortHostile('case0') : `</textarea>\u202E${i}-XSS`, {
			cause_of_action: hostile(`cause${i}`),
			key_details: { 关键事实: hostile(`key${i}`) },
			result_dict: { [hostile(`claim${i}`)]: '支持', 判令被告支付利息: '部分支持' }
		});
		const complete = c.complete_consultation as { role: string; content: string }[];
		const under = c.underspecified_consultation as { role: string; content: string }[];
		complete[0] = { role: 'user', content: `${hostile(`complete${i}`)}${complete[0].content}` };
		under[0] = { role: 'user', content: `${hostile(`under${i}`)}${under[0].content}` };
		return c;
	});
}

const HOSTILE_MODEL = shortHostile('model');
const sim = (task: Task, prompt: string) => simulateResponse(task, prompt, DEFAULT_PROMPT_PACK);

/** Fenced judge JSON between hostile prose, as chatty judges answer. */
const judgeProse =
	(task: Task): Handler =>
	({ prompt }) => ({
		content: `${hostile('judge-before')}\n\`\`\`json\n${sim(task, prompt)}\n\`\`\`\n${hostile('judge-after')}`
	});

/** A provider whose every output carries hostile text around a usable answer. */
const HOSTILE_OUTPUTS: Partial<Record<Task, Handler>> = {
	lexawn: ({ prompt, callIndex }): Reply =>
		callIndex < 2
			? // The provider's own error message is shown under "Last retries".
				{
					status: 503,
					headers: { 'Retry-After': '0' },
					body: { error: { message: hostile('provider') } }
				}
			: {
					content: `${hostile('response')}\n${sim('lexawn', prompt)}`,
					reasoning_content: hostile('reasoning')
				},
	force_ask: ({ prompt }) => ({ content: `${hostile('question')}\n${sim('force_ask', prompt)}` }),
	force_judge: ({ prompt }) => ({
		content: `<think>${hostile('think')}</think>${hostile('prediction')}\n${sim('force_judge', prompt)}`
	}),
	user_standard: ({ prompt }) => ({
		content: `${hostile('reply')}\n${sim('user_standard', prompt)}`
	}),
	judge_lca: judgeProse('judge_lca'),
	judge_dcg: judgeProse('judge_dcg'),
	judge_extract: judgeProse('judge_extract')
};

let e: E2E;
let dataset: Dataset;
let datasetPath: string;
const fakes: LexPilotFake[] = [];

beforeAll(async () => {
	const bytes = new TextEncoder().encode(JSON.stringify(hostileCases(), null, 2));
	const loaded = await loadDataset(bytes);
	if (!loaded.ok)
		throw new Error(`the hostile dataset does not validate: ${JSON.stringify(loaded.problems)}`);
	dataset = loaded.dataset;
	// The file name is shown too.
	datasetPath = join(
		await mkdtemp(join(tmpdir(), 'lexpilot-xss-')),
		`${shortHostile('file')}.json`
	);
	await writeFile(datasetPath, bytes);
	e = await startBrowser();
});
afterAll(async () => {
	await e?.close();
	for (const f of fakes) await f.server.close();
});
afterEach(() => {
	// An <img src=x> that slipped through would show up here as a request for /x; the scripted
	// provider errors are the only problems allowed.
	const problems = withoutProviderErrors(
		e.problems.splice(0),
		fakes.map((f) => f.server.baseURL)
	);
	expect(problems, problems.join('\n')).toEqual([]);
});

async function loadHostileDataset(page: Page) {
	await page.goto(`${e.url}/dataset`);
	await openDatasetFile(page, datasetPath);
}

describe('hostile dataset text and model output', () => {
	it('render inert on the Run, Results and Inspect pages', async () => {
		const fake = await startLexPilotFake(dataset, { override: HOSTILE_OUTPUTS });
		fakes.push(fake);
		const { page } = e;
		await loadHostileDataset(page);
		await useEndpoint(page, fake.server.baseURL, HOSTILE_MODEL);
		await fillRunForm(page, { runId: 'xss-run', limit: 2 });
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'done');
		const main = page.locator('main');
		await openAllDetails(main);
		await expectInert(page, main, [hostile('provider'), `${shortHostile('file')}.json`]);
		await e.screenshot('xss-run');

		await page.getByRole('link', { name: 'Results', exact: true }).click();
		await page.getByTestId('figure-lca-overall').locator('td[data-series]').first().waitFor();
		await expectInert(page, main, [HOSTILE_MODEL]);
		await e.screenshot('xss-results');

		await page
			.getByTestId('run-picker')
			.getByRole('link', { name: 'Inspect cases' })
			.first()
			.click();
		for (const [i, kase] of dataset.cases.entries()) {
			await page.getByTestId('case-select').selectOption(kase.case_number);
			await expect.poll(() => page.getByTestId('case-number').innerText()).toBe(kase.case_number);
			await page.getByTestId('ljp-table').waitFor();
			await openAllDetails(main);
			await expectInert(page, main, [
				kase.case_number,
				hostile(`cause${i}`),
				hostile(`claim${i}`),
				hostile(`complete${i}`),
				hostile(`under${i}`),
				hostile(`key${i}`),
				hostile('response'),
				hostile('reasoning'),
				hostile('question'),
				hostile('reply'),
				hostile('prediction'),
				hostile('think')
			]);
			if (i === 0) await e.screenshot('xss-inspect');
		}
	});

	it('render inert in the error panel: the case, the provider’s message and the raw output', async () => {
		const refusal = hostile('refusal');
		const fake = await startLexPilotFake(dataset, {
			override: {
				// A judge that never answers in JSON stops the stage with its raw output shown.
				judge_lca: () => ({ content: hostile('raw') }),
				force_judge: () => ({ status: 400, body: { error: { message: refusal } } })
			}
		});
		fakes.push(fake);
		const { page } = e;
		await loadHostileDataset(page);
		await useEndpoint(page, fake.server.baseURL, HOSTILE_MODEL);
		await page.getByTestId('setting-concurrency').fill('1');
		const panel = page.getByTestId('run-error');

		await fillRunForm(page, { runId: 'xss-judge', limit: 1, stages: ['gen'] });
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'failed');
		expect(await panel.getByTestId('error-case').innerText()).toBe(dataset.cases[0].case_number);
		expect(await panel.getByTestId('error-raw').innerText()).toBe(hostile('raw'));
		await expectInert(page, page.locator('main'), [hostile('raw'), dataset.cases[0].case_number]);
		await e.screenshot('xss-error-raw');

		await fillRunForm(page, { runId: 'xss-refused', limit: 1, stages: ['ljp-direct'] });
		await page.getByTestId('start').click();
		await waitForRunStatus(page, 'failed');
		// The message quotes the provider's text with its bidi characters escaped, as every
		// message does; the markup in it is shown as text.
		expect(await panel.getByTestId('error-message').innerText()).toContain(escapeControl(refusal));
		await expectInert(page, page.locator('main'), [refusal]);
	});
});

describe('a hostile imported bundle', () => {
	const MODELS = {
		evaluated: shortHostile('evaluated-model'),
		user: hostile('user-model'),
		judge: `</textarea>\u202Ejudge`
	};
	const ENDPOINT = "javascript:window.__xss='endpoint'";
	const CLASS = shortHostile('class');

	it('renders its model ids, endpoints, class names and records inert on Bundles, Results and Inspect', async () => {
		// Written by the real engine, as an export of another browser or the CLI would be; the
		// outputs carry hostile text as in the test above.
		const categories = Object.fromEntries(dataset.cases.map((c) => [c.cause_of_action, CLASS]));
		const store = new MemoryStore();
		const simulated = createSimulatedClient();
		await runStages({
			dataset: { ...dataset, categories },
			stages: ['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction'],
			client: {
				simulated: false,
				async complete(request) {
					const result = await simulated.complete(request);
					if (request.task.startsWith('judge_')) return result;
					return {
						...result,
						response: `${hostile(`bundle-${request.task}`)}\n${result.response}`,
						reasoning: hostile('bundle-reasoning')
					};
				}
			},
			store,
			runId: 'xss-bundle',
			models: MODELS,
			endpoints: { evaluated: ENDPOINT, user: ENDPOINT, judge: ENDPOINT },
			concurrency: 2
		});
		const zipPath = join(await mkdtemp(join(tmpdir(), 'lexpilot-xss-bundle-')), 'hostile.zip');
		await writeFile(zipPath, zipFiles(store.toFiles()));

		const { page } = e;
		const main = page.locator('main');
		await page.goto(`${e.url}/bundles`);
		await page.locator('#bundle-file').setInputFiles(zipPath);
		await page.getByTestId('bundle-outcome').filter({ hasText: 'Imported 1 run' }).waitFor();
		await openAllDetails(main);
		await expectInert(page, main, [MODELS.evaluated]);
		await e.screenshot('xss-bundles');

		await page.getByRole('link', { name: 'Results', exact: true }).click();
		await page.getByTestId('figure-lca-overall').locator('td[data-series]').first().waitFor();
		await openAllDetails(main);
		await expectInert(page, main, [MODELS.evaluated, CLASS]);

		const [run] = await store.listRuns();
		await page.goto(`${e.url}/inspect?run=${encodeURIComponent(`${run.runId}/${run.modelDir}`)}`);
		await page.getByTestId('case-head').waitFor();
		await page.getByTestId('ljp-table').waitFor();
		await openAllDetails(main);
		await expectInert(page, main, [
			dataset.cases[0].case_number,
			hostile('cause0'),
			hostile('claim0'),
			hostile('bundle-lexawn'),
			hostile('bundle-force_ask'),
			hostile('bundle-user_standard'),
			hostile('bundle-reasoning')
		]);
		await e.screenshot('xss-inspect-bundle');
	});
});
