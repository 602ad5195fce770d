/**
 * The whole loop in a real Chromium against the built site: a bundle written by the engine and
 * the CLI is imported → the Results charts are drawn and every table number equals
 * `npm run lexpilot -- results --json` on the same folder → a case is inspected → the runs are
 * exported → storage is wiped → the export is imported again → the same numbers, and the export
 * holds the very bytes the CLI wrote.
 */
import { isResumeSealsPath } from '../../src/lib/core/layout';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultsReport } from '../../src/lib/core/results';
import {
	cliResults,
	lexpilot,
	readTree,
	SAMPLE_PATH,
	writeOutputRoot,
	zipFiles
} from '../fixtures/bundles/folder';
import { launchChromium, startBrowser, type E2E } from './browser';
import { go, importZip } from './page-support';

let e2e: E2E;
let root: string;
let zipPath: string;
let tree: Map<string, Uint8Array>;
let cli: ResultsReport;
const tmp = () => mkdtemp(join(tmpdir(), 'lexpilot-e2e-results-'));

beforeAll(async () => {
	// Three comparable runs of one model (judge labels re-rolled per run, so SD > 0)...
	root = await writeOutputRoot([{ runId: 'run1' }, { runId: 'run2' }, { runId: 'run3' }]);
	// ...and one run written by the CLI itself, 8 cases, every stage.
	const common = ['--simulated', '--dataset', SAMPLE_PATH, '--output-root', root, '--run-id'];
	await lexpilot(['gen', ...common, 'cli-run', '--limit', '8']);
	await lexpilot(['dcg', ...common, 'cli-run', '--limit', '8']);
	await lexpilot(['ljp', ...common, 'cli-run', '--limit', '8']);
	tree = await readTree(root);
	cli = await cliResults(root);
	zipPath = join(await tmp(), 'lexpilot-results.zip');
	await writeFile(zipPath, zipFiles(tree));
	e2e = await startBrowser();
});

afterAll(async () => {
	await e2e?.close();
});

interface CellValue {
	figure: string;
	series: string;
	category: string;
	value: string;
	sd: string;
	text: string;
}

/** Every value cell of every figure table on the Results page. */
async function tableCells(page: Page): Promise<CellValue[]> {
	return page.$$eval('[data-testid^="figure-"] td[data-series]', (cells) =>
		cells.map((td) => ({
			figure: td.closest('[data-testid^="figure-"]')!.getAttribute('data-testid')!.slice(7),
			series: td.getAttribute('data-series')!,
			category: td.getAttribute('data-category')!,
			value: td.getAttribute('data-value')!,
			sd: td.getAttribute('data-sd')!,
			text: td.textContent!.trim()
		}))
	);
}

/** Whether every chart canvas has drawn bars: enough pixels that are neither white nor grey. */
async function chartsDrawn(page: Page): Promise<number[]> {
	return page.$$eval('canvas[data-testid="chart-canvas"]', (canvases) =>
		(canvases as HTMLCanvasElement[]).map((canvas) => {
			const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
			let coloured = 0;
			for (let i = 0; i < data.length; i += 4) {
				const [r, g, b, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
				if (a > 0 && Math.max(r, g, b) - Math.min(r, g, b) > 40) coloured++;
			}
			return coloured;
		})
	);
}

const FIGURE_METRICS: Record<string, { stage: string; keys: string[] }> = {
	'lca-overall': { stage: 'lca', keys: ['macro_f1', 'f1_u', 'f1_c', 'acc_c', 'acc_u'] },
	'dcg-overall': { stage: 'dcg', keys: ['success_rate', 'round1_rate', 'round2_rate'] },
	'ljp-qwk': { stage: 'ljp', keys: ['direct.qwk', 'gold.qwk', 'interaction.qwk'] },
	'ljp-accuracy': {
		stage: 'ljp',
		keys: ['direct.accuracy', 'gold.accuracy', 'interaction.accuracy']
	}
};

function pick(tree: Record<string, unknown>, stage: string, key: string): number | null {
	let node = tree[stage] as Record<string, unknown> | null;
	for (const part of key.split('.'))
		node = (node?.[part] ?? null) as Record<string, unknown> | null;
	return node as unknown as number | null;
}

/** Expected values from the CLI's JSON, keyed like the page's cells. */
function expectedCells(report: ResultsReport, mode: 'runs' | 'groups') {
	const out: {
		figure: string;
		series: string;
		category: string;
		value: number | null;
		sd?: number | null;
	}[] = [];
	for (const [figure, { stage, keys }] of Object.entries(FIGURE_METRICS)) {
		const categories =
			stage === 'lca'
				? ['Macro-F1', 'F1_U', 'F1_C', 'Acc_C', 'Acc_U']
				: stage === 'dcg'
					? ['Success', 'Round 1', 'Round 2']
					: ['Direct', 'Gold', 'Interaction'];
		if (mode === 'runs') {
			for (const run of report.runs) {
				keys.forEach((key, i) =>
					out.push({
						figure,
						series: `${run.model} · ${run.run_id}`,
						category: categories[i],
						value: pick(run.metrics as never, stage, key)
					})
				);
			}
		} else {
			for (const g of report.groups) {
				keys.forEach((key, i) =>
					out.push({
						figure,
						series: `${g.model} (${g.n} run${g.n === 1 ? '' : 's'})`,
						category: categories[i],
						value: pick(g.mean as never, stage, key),
						sd: pick(g.sd as never, stage, key)
					})
				);
			}
		}
	}
	return out;
}

function compare(cells: CellValue[], expected: ReturnType<typeof expectedCells>) {
	for (const want of expected) {
		const got = cells.find(
			(c) => c.figure === want.figure && c.series === want.series && c.category === want.category
		);
		expect(got, `${want.figure} / ${want.series} / ${want.category}`).toBeDefined();
		// The page holds the exact double the CLI printed, and shows it with four decimals.
		expect(got!.value === '' ? null : Number(got!.value)).toBe(want.value);
		if (want.sd !== undefined) expect(got!.sd === '' ? null : Number(got!.sd)).toBe(want.sd);
		if (want.value === null) expect(got!.text).toMatch(/^—/);
		else expect(got!.text.startsWith(want.value.toFixed(4))).toBe(true);
	}
}

/** The LCA-by-class table against the CLI's by_class figures. */
function compareClasses(cells: CellValue[], report: ResultsReport) {
	for (const run of report.runs) {
		for (const [cls, tree] of Object.entries(run.by_class)) {
			const got = cells.find(
				(c) =>
					c.figure === 'lca-class' &&
					c.category === cls &&
					c.series === `${run.model} · ${run.run_id}`
			);
			expect(got, `${run.run_id} ${cls}`).toBeDefined();
			const want = tree.lca?.macro_f1 ?? null;
			expect(got!.value === '' ? null : Number(got!.value)).toBe(want);
		}
	}
}

async function openResults(page: Page) {
	await go(page, 'Results', 'Results');
	await page.getByTestId('figure-lca-overall').locator('td[data-series]').first().waitFor();
	// Charts draw after Chart.js is fetched: wait until every canvas has its bars.
	await page.waitForFunction(() => {
		const canvases = [...document.querySelectorAll('canvas[data-testid="chart-canvas"]')];
		return canvases.length >= 7 && canvases.every((c) => (c as HTMLCanvasElement).width > 0);
	});
}

async function showMode(page: Page, mode: 'Each run' | 'Mean ± SD of comparable runs') {
	// The radios are styled as a segmented control: the visible label is what a user clicks.
	await page.locator('.segmented label', { hasText: mode }).click();
	await expect.poll(() => page.getByRole('radio', { name: mode }).isChecked()).toBe(true);
}

describe('results, inspector and bundles in the browser', () => {
	let firstTables: CellValue[];

	it('imports a bundle and draws charts whose tables equal `results --json`', async () => {
		const { page } = e2e;
		await page.goto(`${e2e.url}/`);
		await importZip(page, zipPath);
		const outcome = await page.getByTestId('bundle-outcome').innerText();
		expect(outcome).toContain('Imported 4 runs from lexpilot-results.zip');
		expect(outcome).toContain('cli-run · simulated: 8 cases, 10 stage files');

		await openResults(page);
		expect(cli.groups.map((g) => [g.model, g.n])).toEqual([
			['sim-model-a', 3],
			['simulated', 1]
		]);
		// Three comparable runs: the page opens on mean ± SD, error bars and all.
		await expect
			.poll(() => page.getByRole('radio', { name: 'Mean ± SD of comparable runs' }).isChecked())
			.toBe(true);
		const drawn = await chartsDrawn(page);
		expect(drawn).toHaveLength(7);
		for (const pixels of drawn) expect(pixels).toBeGreaterThan(500);
		const groupCells = await tableCells(page);
		compare(groupCells, expectedCells(cli, 'groups'));
		expect(groupCells.some((c) => c.sd !== '' && Number(c.sd) > 0)).toBe(true);
		await e2e.screenshot('results-groups');
		await e2e.screenshot('results-groups-lca', page.getByTestId('figure-lca-overall'));

		await showMode(page, 'Each run');
		const runCells = await tableCells(page);
		compare(runCells, expectedCells(cli, 'runs'));
		compareClasses(runCells, cli);
		firstTables = runCells;
		await e2e.screenshot('results');
		await e2e.screenshot('results-runs-top', page.locator('main'));
		await e2e.screenshot('results-runs-ljp-class', page.getByTestId('figure-ljp-class'));
		e2e.assertClean();
	});

	it('copies a table as CSV, Markdown and LaTeX with the numbers shown', async () => {
		const { page, context } = e2e;
		await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.url });
		const panel = page.getByTestId('figure-dcg-overall');
		// A run of at least 10 cases (cli-run has 8, so no interval).
		const first = cli.runs.find((r) => r.ci95?.dcg?.success_rate)!;
		const success = first.metrics.dcg!.success_rate!.toFixed(4);
		await expect
			.poll(() => page.getByTestId('ci-status').getAttribute('data-status'))
			.toBe('ready');
		await panel.getByRole('button', { name: 'Copy as CSV' }).click();
		const csv = await page.evaluate(() => navigator.clipboard.readText());
		expect(csv.split('\n')[0]).toBe(
			'Run,Success,Success CI low,Success CI high,Round 1,Round 1 CI low,Round 1 CI high,' +
				'Round 2,Round 2 CI low,Round 2 CI high,notes'
		);
		const [lo, hi] = first.ci95!.dcg!.success_rate!;
		expect(csv).toContain(
			`${first.model} · ${first.run_id},${success},${lo.toFixed(4)},${hi.toFixed(4)},`
		);
		await panel.getByRole('button', { name: 'Copy as Markdown' }).click();
		expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(
			`| ${first.model} · ${first.run_id} | ${success} [${lo.toFixed(4)}, ${hi.toFixed(4)}] |`
		);
		await panel.getByRole('button', { name: 'Copy as LaTeX' }).click();
		const latex = await page.evaluate(() => navigator.clipboard.readText());
		expect(latex).toContain('\\toprule');
		expect(latex).toContain('\\usepackage{xeCJK}');
		expect(latex).toContain(`${success} [${lo.toFixed(4)}, ${hi.toFixed(4)}]`);
	});

	it('downloads a chart as a PNG at 2× and 4×', async () => {
		const { page } = e2e;
		for (const scale of [2, 4]) {
			const [download] = await Promise.all([
				page.waitForEvent('download'),
				page
					.getByTestId('figure-ljp-qwk')
					.getByRole('button', { name: `PNG ${scale}×` })
					.click()
			]);
			expect(download.suggestedFilename()).toBe(`lexpilot-ljp-qwk@${scale}x.png`);
			const png = await readFile((await download.path())!);
			expect([...png.subarray(1, 4)].map((b) => String.fromCharCode(b)).join('')).toBe('PNG');
			// IHDR: width and height, big-endian, of the 720 × 360 figure at the scale.
			expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([720 * scale, 360 * scale]);
			expect(png.length).toBeGreaterThan(5000);
		}
	});

	it('exported charts key their whiskers: a run’s interval dashed, ± SD solid (issue 33, item 7)', async () => {
		const { page } = e2e;
		await expect
			.poll(() => page.getByTestId('ci-status').getAttribute('data-status'))
			.toBe('ready');
		const exportSvg = async () => {
			const [download] = await Promise.all([
				page.waitForEvent('download'),
				page
					.getByTestId('figure-lca-overall')
					.getByRole('button', { name: 'SVG', exact: true })
					.click()
			]);
			return readFile((await download.path())!, 'utf8');
		};
		const whiskers = (svg: string, kind: string) =>
			[...svg.matchAll(/<path class="whisker" [^>]*>/g)]
				.map((m) => m[0])
				.filter((p) => p.includes(`data-whisker="${kind}"`));
		// Each run: every whisker is that run's 95% interval, dashed, and the legend says so.
		const runs = await exportSvg();
		expect(whiskers(runs, 'ci').length).toBeGreaterThan(0);
		for (const p of whiskers(runs, 'ci')) expect(p).toContain('stroke-dasharray');
		expect(runs).toMatch(/class="whisker-key"[^>]*data-legend="ci"/);
		expect(runs).toContain('>95% interval of one run (over its cases)<');
		expect(runs).not.toContain('data-legend="sd"');
		// Mean ± SD: sim-model-a's three runs get a solid ± SD whisker, keyed in the image.
		await showMode(page, 'Mean ± SD of comparable runs');
		const groups = await exportSvg();
		expect(whiskers(groups, 'sd').length).toBeGreaterThan(0);
		for (const p of whiskers(groups, 'sd')) expect(p).not.toContain('stroke-dasharray');
		expect(groups).toMatch(/class="whisker-key"[^>]*data-legend="sd"/);
		expect(groups).toContain('>± 1 SD over runs<');
		await showMode(page, 'Each run');
		e2e.assertClean();
	});

	it('shows each run with the bootstrap interval `results --json` gives, and class counts', async () => {
		const { page } = e2e;
		await expect
			.poll(() => page.getByTestId('ci-status').getAttribute('data-status'))
			.toBe('ready');
		const cells = await tableCells(page);
		let checked = 0;
		for (const run of cli.runs) {
			const ci = run.ci95!.lca!.macro_f1;
			const got = cells.find(
				(c) =>
					c.figure === 'lca-overall' &&
					c.series === `${run.model} · ${run.run_id}` &&
					c.category === 'Macro-F1'
			)!;
			if (ci === null) {
				expect(got.text).not.toContain('[');
				continue;
			}
			expect(got.text).toContain(`[${ci[0].toFixed(4)}, ${ci[1].toFixed(4)}]`);
			checked++;
		}
		expect(checked).toBeGreaterThan(0);
		const counts = await page
			.getByTestId('figure-lca-class')
			.getByTestId('class-counts')
			.allInnerTexts();
		expect(counts.length).toBeGreaterThan(0);
		for (const text of counts) expect(text).toMatch(/\d+ cases?/);
		await page.getByTestId('confusion-panel').getByTestId('confusion-direct').waitFor();
		e2e.assertClean();
	});

	it('compares two runs (paired B − A) and refuses runs whose cases differ', async () => {
		const { page } = e2e;
		const panel = page.getByTestId('compare-panel');
		const key = (r: ResultsReport['runs'][number]) => `${r.run_id}/${r.model_dir}`;
		const [r1, r2] = cli.runs.filter((r) => r.run_id === 'run1' || r.run_id === 'run2');
		await panel.getByTestId('compare-a').selectOption(key(r1));
		await panel.getByTestId('compare-b').selectOption(key(r2));
		await panel.getByRole('button', { name: 'Compare' }).click();
		await panel.getByTestId('compare-table').waitFor();
		const row = await panel
			.getByTestId('compare-table')
			.locator('tr', { hasText: 'DCG Success' })
			.innerText();
		const diff = r2.metrics.dcg!.success_rate! - r1.metrics.dcg!.success_rate!;
		expect(row).toContain(Math.abs(diff).toFixed(4));
		expect(await panel.getByTestId('compare-power').innerText()).toMatch(/worst case/);
		const cliRun = cli.runs.find((r) => r.run_id === 'cli-run')!;
		await panel.getByTestId('compare-b').selectOption(key(cliRun));
		await panel.getByRole('button', { name: 'Compare' }).click();
		await expect
			.poll(() => panel.getByTestId('compare-refused').innerText())
			.toMatch(/cannot be compared/);
		e2e.assertClean();
	});

	it('exports a chart as SVG and the HTML report, which opens from disk with no network', async () => {
		const { page } = e2e;
		const [svgDownload] = await Promise.all([
			page.waitForEvent('download'),
			page
				.getByTestId('figure-lca-overall')
				.getByRole('button', { name: 'SVG', exact: true })
				.click()
		]);
		expect(svgDownload.suggestedFilename()).toBe('lexpilot-lca-overall.svg');
		const svg = await readFile((await svgDownload.path())!, 'utf8');
		expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
		expect(svg).toContain(cli.runs[0].model);
		expect(svg).not.toMatch(/[-\u2212]0\.0</);

		const [download] = await Promise.all([
			page.waitForEvent('download'),
			page.getByTestId('download-report').click()
		]);
		expect(download.suggestedFilename()).toBe('lexpilot-report.html');
		const path = join(await tmp(), 'lexpilot-report.html');
		await download.saveAs(path);

		const offline = await launchChromium({ profilePrefix: 'lexpilot-e2e-report-' });
		try {
			const requests: string[] = [];
			await offline.context.route('**', (route) => {
				const url = route.request().url();
				if (url.startsWith('file:')) return route.continue();
				requests.push(url);
				return route.abort();
			});
			await offline.context.setOffline(true);
			const viewer = offline.context.pages()[0] ?? (await offline.context.newPage());
			await viewer.goto(pathToFileURL(path).href);
			await viewer.getByRole('heading', { name: 'LexPilot results', level: 1 }).waitFor();
			const sizes = await viewer.$$eval('figure svg', (svgs) =>
				svgs.map((s) => {
					const box = s.getBoundingClientRect();
					return [box.width, box.height, s.querySelectorAll('rect[data-value]').length];
				})
			);
			// The seven metric charts (bars), then each leaderboard's forest plot (intervals).
			const charts = sizes.filter(([, , bars]) => bars > 0);
			const forests = sizes.filter(([, , bars]) => bars === 0);
			expect(charts).toHaveLength(7);
			expect(forests.length).toBeGreaterThan(0);
			for (const [w, h] of charts) {
				expect(w).toBeGreaterThan(200);
				expect(h).toBeGreaterThan(100);
			}
			// A forest plot is a row per model: one model makes a short one.
			for (const [w, h] of forests) {
				expect(w).toBeGreaterThan(200);
				expect(h).toBeGreaterThan(40);
			}
			expect(await viewer.locator('table').count()).toBeGreaterThan(7);
			expect(requests).toEqual([]);
		} finally {
			await offline.close();
		}
	});

	it('inspects a case without the dataset: histories, responses, rounds, questions, verdicts', async () => {
		const { page } = e2e;
		await page
			.getByTestId('run-picker')
			.getByRole('link', { name: 'Inspect cases' })
			.first()
			.click();
		await page.getByRole('heading', { name: 'Case inspector', level: 1 }).waitFor();
		const sample = JSON.parse(await readFile(SAMPLE_PATH, 'utf8')) as {
			case_number: string;
			result_dict: Record<string, string>;
		}[];
		await expect
			.poll(() => page.getByTestId('case-number').innerText())
			.toBe(String(sample[0].case_number));
		await expect(page.getByTestId('dataset-note').innerText()).resolves.toContain(
			'histories shown are the ones saved in the records'
		);
		expect(await page.getByTestId('complete-message').count()).toBeGreaterThan(0);
		expect(await page.getByTestId('first-responses').getByTestId('lca-label').count()).toBe(2);
		await page.getByTestId('interaction').waitFor();
		await expect(page.getByTestId('stop-reason').innerText()).resolves.toMatch(
			/stopped: (judgment|budget)/
		);
		expect(await page.getByTestId('dcg').getByTestId('dcg-label').count()).toBe(2);
		const rows = page.getByTestId('ljp-table').locator('tbody tr');
		expect(await rows.count()).toBe(Object.keys(sample[0].result_dict).length);

		// The next case, through the picker; the URL follows.
		await page.getByRole('button', { name: 'Next →' }).click();
		await expect
			.poll(() => page.getByTestId('case-number').innerText())
			.toBe(String(sample[1].case_number));
		expect(new URL(page.url()).searchParams.get('case')).toBe(String(sample[1].case_number));
		await e2e.screenshot('inspector');
		e2e.assertClean();
	});

	it("with the run's dataset loaded, the inspector shows its histories and hidden facts", async () => {
		const { page } = e2e;
		await go(page, 'Dataset', 'Dataset');
		await page
			.getByRole('button', { name: 'Load the sample (synthetic demo data, not LexPilot)' })
			.click();
		await page.getByTestId('summary-stats').waitFor();
		await go(page, 'Inspect', 'Case inspector');
		await page.getByTestId('hidden-panel').waitFor();
		expect(await page.getByTestId('dataset-note').count()).toBe(0);
		expect(await page.getByTestId('key-details').innerText()).not.toBe('');
		e2e.assertClean();
	});

	let exported: string;

	it('exports every run as a zip holding the bytes the CLI wrote', async () => {
		const { page } = e2e;
		await go(page, 'Bundles', 'Bundles');
		await page.getByRole('checkbox', { name: 'Select every run' }).check();
		const [download] = await Promise.all([
			page.waitForEvent('download'),
			page.getByRole('button', { name: /Export 4 selected runs as \.zip/ }).click()
		]);
		exported = join(await tmp(), download.suggestedFilename());
		await download.saveAs(exported);
		const files = unzipSync(new Uint8Array(await readFile(exported)));
		// Every file the CLI wrote but its resume seals, which hold only for its own folder.
		const written = [...tree].filter(([path]) => !isResumeSealsPath(path));
		expect(written.length).toBeLessThan(tree.size);
		expect(Object.keys(files).sort()).toEqual(written.map(([path]) => path).sort());
		for (const [path, bytes] of written) expect(files[path], path).toEqual(bytes);
		await e2e.screenshot('bundles');
		e2e.assertClean();
	});

	it('after storage is wiped, the export imports back to the same numbers', async () => {
		const { page } = e2e;
		await page.evaluate(
			() =>
				new Promise<void>((resolve, reject) => {
					const request = indexedDB.deleteDatabase('lexpilot-workbench');
					request.onsuccess = () => resolve();
					request.onerror = () => reject(request.error);
					request.onblocked = () => reject(new Error('deleteDatabase blocked'));
				})
		);
		await page.reload();
		await page.getByRole('heading', { name: 'Bundles', level: 1 }).waitFor();
		await page.getByTestId('no-runs').waitFor();

		await importZip(page, exported);
		await openResults(page);
		await showMode(page, 'Each run');
		// The intervals arrive from the statistics worker after the point values.
		await expect.poll(() => tableCells(page), { timeout: 30_000 }).toEqual(firstTables);
		e2e.assertClean();
	});

	it('keeps the chosen runs, series and class figure in the URL: a reload or a shared link shows the same', async () => {
		const { page, context } = e2e;
		const toggles = (p: Page) => p.getByTestId('run-picker').getByTestId('run-toggle');
		const shown = (p: Page) =>
			toggles(p).evaluateAll((boxes) =>
				(boxes as HTMLInputElement[]).filter((b) => b.checked).map((b) => b.value)
			);
		const metric = (p: Page) =>
			p.getByTestId('figure-lca-class').getByRole('combobox', { name: 'Metric' });
		const series = async (p: Page) =>
			[
				...new Set(
					(await tableCells(p)).filter((c) => c.figure === 'lca-overall').map((c) => c.series)
				)
			].sort();

		// From where the last test left the page: every run shown, each run apart.
		const run2 = cli.runs.find((r) => r.run_id === 'run2')!;
		await toggles(page)
			.and(page.locator(`[value="run2/${run2.model_dir}"]`))
			.uncheck();
		await metric(page).selectOption('f1_u');
		await expect.poll(() => new URL(page.url()).searchParams.get('lca')).toBe('f1_u');
		const chosen = await shown(page);
		expect(chosen).toHaveLength(3);
		expect(chosen.some((k) => k.startsWith('run2/'))).toBe(false);
		const link = new URL(page.url());
		expect(link.searchParams.get('runs')?.split(',')).toEqual(chosen);
		expect(link.searchParams.get('mode')).toBe('runs');
		// Run keys stay readable in the link.
		expect(link.search).toContain(`runs=${chosen[0]}`);
		await expect.poll(() => series(page)).toHaveLength(3);
		const before = await series(page);
		expect(before).not.toContain(`${run2.model} · run2`);

		const restored = async (p: Page) => {
			await p.getByTestId('figure-lca-overall').locator('td[data-series]').first().waitFor();
			expect(await shown(p)).toEqual(chosen);
			expect(await p.getByRole('radio', { name: 'Each run' }).isChecked()).toBe(true);
			expect(await metric(p).inputValue()).toBe('f1_u');
			expect(
				await p.getByTestId('figure-lca-class').getByRole('heading', { level: 3 }).innerText()
			).toMatch(/^LCA F1_U by cause class/);
			expect(await series(p)).toEqual(before);
		};
		await page.reload();
		await restored(page);
		expect(page.url()).toBe(link.href);

		// The same link in another tab of this browser.
		const other = await context.newPage();
		try {
			await other.goto(link.href);
			await restored(other);
		} finally {
			await other.close();
		}

		// A link naming a run this browser does not hold says so, and shows the rest.
		await page.goto(`${e2e.url}/results?runs=${chosen[0]},gone/sim-model-z-00000000`);
		await page.getByTestId('figure-lca-overall').locator('td[data-series]').first().waitFor();
		expect(await shown(page)).toEqual([chosen[0]]);
		expect(await page.getByTestId('link-missing').innerText()).toMatch(
			/a run that is not in this browser: gone\/sim-model-z-00000000\. Import it on the Bundles page/
		);
		e2e.assertClean();
	});
});
