/**
 * Model output is untrusted: a bundle whose responses, user replies, questions, reasoning and
 * claims carry markup and script is dropped onto the Bundles page as a zip, and the inspector
 * shows all of it as inert text.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelDirName, stageFilePath, type RunKey } from '../../src/lib/core/layout';
import type { StageFile } from '../../src/lib/core/records';
import { MemoryStore } from '../../src/lib/core/store/memory-store';
import { sampleDataset, zipFiles } from '../fixtures/bundles/folder';
import { writeRuns } from '../fixtures/bundles/runs';
import { startBrowser, type E2E } from './browser';

const HOSTILE = {
	response: '<img src=x onerror="window.__xss=\'response\'">请问借款金额是多少？',
	reply: '<script>window.__xss="reply"</script>我记不清了。',
	question: '<svg onload="window.__xss=\'question\'"></svg>有借条吗？',
	reasoning: '<iframe src="javascript:parent.__xss=\'reasoning\'"></iframe>思考',
	claim: '<a href="javascript:window.__xss=\'claim\'">判令被告返还借款</a>'
};

let e2e: E2E;
let zip: Uint8Array;
let run: RunKey;
let caseNumber: string;

/** Rewrites the first record of a file. */
function editFirst(
	files: Map<string, string>,
	path: string,
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- records of several schemas, edited field by field
	edit: (r: any) => void
) {
	const lines = files.get(path)!.split('\n');
	const record = JSON.parse(lines[0]);
	edit(record);
	lines[0] = JSON.stringify(record);
	files.set(path, lines.join('\n'));
}

beforeAll(async () => {
	const store = new MemoryStore();
	await writeRuns(store, await sampleDataset(), [{ runId: 'hostile', limit: 2 }]);
	run = { runId: 'hostile', modelDir: await modelDirName('sim-model-a') };
	const files = store.toFiles();
	const path = (file: StageFile) => stageFilePath(run, file);
	caseNumber = JSON.parse(files.get(path('a1'))!.split('\n')[0]).case_number;
	for (const file of ['a1', 'interaction', 'force_ask', 'a1_direct'] as const) {
		const lines = files.get(path(file))!.split('\n');
		expect(JSON.parse(lines[0]).case_number).toBe(caseNumber);
	}
	const a1 = files.get(path('a1'))!.split('\n');
	// The underspecified a1 record is the second line of the case.
	const under = JSON.parse(a1[1]);
	under.response = HOSTILE.response;
	a1[1] = JSON.stringify(under);
	files.set(path('a1'), a1.join('\n'));
	editFirst(files, path('interaction'), (r) => {
		r.rounds[0].user_reply = HOSTILE.reply;
		r.rounds[r.rounds.length - 1].assistant = HOSTILE.response;
	});
	editFirst(files, path('force_ask'), (r) => {
		r.rounds[0].question = HOSTILE.question;
	});
	editFirst(files, path('a1_direct'), (r) => {
		r.reasoning = HOSTILE.reasoning;
	});
	for (const file of ['LJP_direct', 'LJP_gold', 'LJP_interaction'] as const) {
		editFirst(files, path(file), (r) => {
			r.claims[0] = HOSTILE.claim;
		});
	}
	zip = zipFiles(new Map(files));
	e2e = await startBrowser();
});

afterAll(async () => {
	await e2e?.close();
});

/** Drops a zip onto the Bundles page's drop zone, as a user drags a file from the desktop. */
async function dropZip(page: Page, bytes: Uint8Array, name: string) {
	const transfer = await page.evaluateHandle(
		({ data, name }) => {
			const t = new DataTransfer();
			t.items.add(new File([new Uint8Array(data)], name, { type: 'application/zip' }));
			return t;
		},
		{ data: [...bytes], name }
	);
	await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer: transfer });
}

describe('inspector with hostile model output', () => {
	it('renders every hostile text inert', async () => {
		const { page } = e2e;
		await page.goto(`${e2e.url}/`);
		await page.getByRole('link', { name: 'Bundles', exact: true }).click();
		await page.getByRole('heading', { name: 'Bundles', level: 1 }).waitFor();
		await dropZip(page, zip, 'hostile.zip');
		await page.getByTestId('bundle-outcome').filter({ hasText: 'Imported 1 run' }).waitFor();

		const query = `run=${encodeURIComponent(`${run.runId}/${run.modelDir}`)}&case=${encodeURIComponent(caseNumber)}`;
		await page.goto(`${e2e.url}/inspect?${query}`);
		await page.getByTestId('case-head').waitFor();
		await page.getByTestId('ljp-table').waitFor();
		// Open every folded reasoning and prediction, so nothing hides behind <details>.
		for (const details of await page.locator('details').all())
			await details.evaluate((d) => d.setAttribute('open', ''));

		const body = await page.locator('main').innerText();
		for (const text of Object.values(HOSTILE)) expect(body).toContain(text);
		expect(await page.evaluate(() => (window as { __xss?: string }).__xss)).toBeUndefined();
		const injected = await page
			.locator('main')
			.evaluate(
				(main) =>
					main.querySelectorAll('img, script, svg[onload], iframe, a[href^="javascript"]').length
			);
		expect(injected).toBe(0);
		await e2e.screenshot('inspector-xss');
		e2e.assertClean();
	});
});
