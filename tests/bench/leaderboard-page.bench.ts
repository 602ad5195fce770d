/**
 * The Results page's leaderboard in Chromium against the built site ("the leaderboard for 20
 * runs × 432 cases computed in ≤ 2 s in the browser without a long task over 200 ms"): four
 * models × five full simulated runs (call logs included) are imported as one bundle per model,
 * the Results page opened, and the leaderboard timed from the request to its worker until the
 * answer (`data-ms` of its status; 2,000 resamples, every model at once, every class's means and
 * ranks), and from the opening of Results until that answer (end to end, as a user waits; the
 * call logs' totals are kept with the runs, so no log is read). A PerformanceObserver
 * records long main-thread tasks; the longest one between request and answer is the page's
 * worst stall while the worker ranks. The bound a user feels (issue 35 §3): from opening Results
 * until the tables have their intervals and the leaderboard is shown (`data-answered` of both
 * statuses, on the page's clock, which starts at the navigation), and the longest main-thread
 * task in all of that time.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBrowser } from '../e2e/browser';
import { strToU8, zipSync } from 'fflate';
import {
	callLogPath,
	manifestPath,
	modelDirName,
	parseLayoutPath,
	stageFilePath
} from '../../src/lib/core/layout';
import { repeatedRuns } from './simulated-runs';
import type { BenchModule } from './types';

const MODELS = ['simulated-eval', 'sim-model-b', 'sim-model-c', 'sim-model-d'];
const RUNS = 5;
const CASES = 432;
const TARGET_MS = 2000;
const TARGET_LONGEST_TASK_MS = 200;
/** Results opened → tables and leaderboard shown, and no task longer than 200 ms meanwhile. */
const TARGET_SHOWN_MS = 3000;
/**
 * Results opened → leaderboard shown: about 10 s at a load average of 8 on the shared two-core
 * machine, the stats worker's bootstrap and the reading of the eval rows most of it; reading
 * every call log again for its token totals made it 49–60 s, and counting the logs' rows 25 s.
 * The target catches the first, with room for the load.
 */
const TARGET_OPENED_MS = 40_000;

/** The same runs' files as runs of `model` (manifest's evaluated model and folder included). */
async function asModel(files: Map<string, string>, model: string): Promise<Map<string, string>> {
	const modelDir = await modelDirName(model);
	const out = new Map<string, string>();
	for (const [path, text] of files) {
		const named = parseLayoutPath(path);
		if (!named) throw new Error(`${path} is not a path of the canonical layout`);
		const run = { ...named.run, modelDir };
		if (named.kind === 'manifest') {
			const manifest = JSON.parse(text);
			manifest.model_dir = modelDir;
			manifest.models = { ...manifest.models, evaluated: model };
			out.set(manifestPath(run), `${JSON.stringify(manifest, null, 2)}\n`);
		} else if (named.kind === 'calls') out.set(callLogPath(run), text);
		else out.set(stageFilePath(run, named.file), text);
	}
	return out;
}

/** The files as zip entries (fflate's input). */
const toZipEntries = (files: Map<string, string>) =>
	Object.fromEntries([...files].map(([path, text]) => [path, strToU8(text)]));

function installProbe() {
	const probe: { tasks: { start: number; end: number }[] } = { tasks: [] };
	(globalThis as unknown as { __probe: typeof probe }).__probe = probe;
	new PerformanceObserver((list) => {
		for (const e of list.getEntries())
			probe.tasks.push({ start: e.startTime, end: e.startTime + e.duration });
	}).observe({ type: 'longtask', buffered: true });
}

export const leaderboardPageBench: BenchModule = {
	name: 'leaderboard page (Chromium)',
	async run() {
		const dir = await mkdtemp(join(tmpdir(), 'lexpilot-bench-leaderboard-'));
		const e2e = await startBrowser();
		try {
			const t0 = Date.now();
			const say = (what: string) =>
				process.stderr.write(`bench:   ${what} (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
			const runs = await repeatedRuns(CASES, RUNS);
			const { page } = e2e;
			await page.addInitScript(installProbe);
			await page.goto(`${e2e.url}/bundles`);
			// One bundle per model, as a researcher brings each model's runs: the 20 runs with their
			// call logs (about 0.9 GB) are more than one bundle may unpack to (512 MiB).
			for (const model of MODELS) {
				const zip = join(dir, `${model}.zip`);
				await writeFile(zip, zipSync(toZipEntries(await asModel(runs, model)), { level: 1 }));
				await page.locator('#bundle-file').setInputFiles(zip);
				const outcome = page.getByTestId('bundle-outcome');
				await outcome.filter({ hasText: `from ${model}.zip` }).waitFor({ timeout: 600_000 });
				const said = await outcome.innerText();
				if (!new RegExp(`^Imported ${RUNS} runs from `).test(said)) {
					throw new Error(`the bundle of ${model} was not imported: ${said.slice(0, 2000)}`);
				}
				say(`${RUNS} runs of ${model} imported`);
			}
			await page.goto(`${e2e.url}/results`);
			await page
				.waitForFunction(
					() =>
						['leaderboard-status', 'ci-status'].every((id) => {
							const status = document.querySelector(`[data-testid="${id}"]`);
							return ['ready', 'error'].includes(status?.getAttribute('data-status') ?? '');
						}),
					undefined,
					{ timeout: 600_000 }
				)
				.catch(async (e: Error) => {
					const said = await page.evaluate(() => document.body.innerText.slice(0, 2000));
					throw new Error(`${e.message}; the page said: ${said}`);
				});
			for (const id of ['leaderboard-status', 'ci-status']) {
				const status = page.getByTestId(id);
				if ((await status.getAttribute('data-status')) === 'error') {
					throw new Error(`${id} says it failed: ${await status.innerText()}`);
				}
			}
			await page.waitForTimeout(200);
			say('leaderboard shown');
			const { ms, opened, shown, longest, longestOpening, rows } = await page.evaluate(() => {
				const p = (
					globalThis as unknown as { __probe: { tasks: { start: number; end: number }[] } }
				).__probe;
				const el = document.querySelector('[data-testid="leaderboard-status"]')!;
				const start = Number(el.getAttribute('data-posted'));
				const end = Number(el.getAttribute('data-answered'));
				const overlapping = p.tasks.filter((t) => t.end > start && t.start < end);
				const tables = document.querySelector('[data-testid="ci-status"]')!;
				const shown = Math.max(end, Number(tables.getAttribute('data-answered')));
				const opening = p.tasks.filter((t) => t.start < shown);
				return {
					ms: Number(el.getAttribute('data-ms')),
					// The page's clock starts when Results is opened (a fresh navigation).
					opened: end,
					shown,
					longest: Math.max(0, ...overlapping.map((t) => t.end - t.start)),
					longestOpening: Math.max(0, ...opening.map((t) => t.end - t.start)),
					rows: document.querySelectorAll('[data-testid="leaderboard-row"]').length
				};
			});
			if (rows !== MODELS.length)
				throw new Error(`the leaderboard showed ${rows} rows, not ${MODELS.length}`);
			return [
				{
					name: `Results opened → tables with intervals and leaderboard shown, ${MODELS.length * RUNS} runs × ${CASES} cases`,
					value: shown,
					unit: 'ms',
					target: TARGET_SHOWN_MS
				},
				{
					name: '  longest main-thread task from opening Results until both are shown',
					value: longestOpening,
					unit: 'ms',
					target: TARGET_LONGEST_TASK_MS
				},
				{
					name: `Leaderboard in a Web Worker, ${MODELS.length} models × ${RUNS} runs × ${CASES} cases × 2000 resamples`,
					value: ms,
					unit: 'ms',
					target: TARGET_MS
				},
				{
					name: `  Results opened → leaderboard shown, end to end (the ${MODELS.length * RUNS} runs read from IndexedDB, the report, the leaderboard)`,
					value: opened,
					unit: 'ms',
					target: TARGET_OPENED_MS
				},
				{
					name: '  longest main-thread task while the worker ranks',
					value: longest,
					unit: 'ms',
					target: TARGET_LONGEST_TASK_MS
				}
			];
		} finally {
			await e2e.close();
			await rm(dir, { recursive: true, force: true });
		}
	}
};
