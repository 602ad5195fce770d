/**
 * A 106 MB dataset validated in Chromium (the built site's Dataset page, the file set on
 * its file input, timed in the page from the input's change to the summary on screen) against
 * the CLI's `validate` on the same file (a child process, as `npm run lexpilot` runs it).
 * Target: the browser within 2× the CLI, with no main-thread task over 200 ms meanwhile
 *. Needs `npm run build` first; the file is generated (synthetic, seeded).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadDataset } from '../../src/lib/core/dataset/load';
import { startBrowser } from '../e2e/browser';
import { median } from './measure';
import { writeLargeDataset } from './synthetic-dataset';
import type { BenchModule } from './types';

const ROOT = resolve(import.meta.dirname, '../..');
/** 205,000 one-message cases: about 106 MB, the size of the slow file once reported. */
const CASES = 205_000;
const RUNS = 3;
const TARGET_RATIO = 2;
const TARGET_LONG_TASK_MS = 200;

type Watched = { __longTasks: number[]; __t0: number; __t1: number };

/** Wall-clock milliseconds of `validate --dataset path` as a child process (exit 0 required). */
function timeCli(path: string): Promise<number> {
	return new Promise((ok, fail) => {
		const start = performance.now();
		const child = spawn(
			process.execPath,
			['--import', 'tsx', 'src/cli/bin.ts', 'validate', '--dataset', path],
			{ cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] }
		);
		let stderr = '';
		child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
		child.on('error', fail);
		child.on('close', (code) =>
			code === 0
				? ok(performance.now() - start)
				: fail(new Error(`validate exited ${code}: ${stderr.slice(0, 500)}`))
		);
	});
}

export const datasetBrowserBench: BenchModule = {
	name: 'large dataset in the browser',
	async run() {
		const e = await startBrowser();
		const dir = await mkdtemp(join(tmpdir(), 'lexpilot-large-bench-'));
		try {
			const path = join(dir, 'large-106mb.json');
			const size = await writeLargeDataset(path, { cases: CASES });

			const inProcess = performance.now();
			const check = await loadDataset(await readFile(path));
			const loadMs = performance.now() - inProcess;
			if (!check.ok || check.dataset.cases.length !== CASES) {
				throw new Error(`the synthetic file did not load as ${CASES} valid cases`);
			}

			const { page, context } = e;
			await context.addInitScript(() => {
				const w = window as unknown as Watched;
				w.__longTasks = [];
				new PerformanceObserver((list) => {
					for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
				}).observe({ type: 'longtask', buffered: true });
			});
			const browserMs: number[] = [];
			let longest = 0;
			for (let i = 0; i < RUNS; i++) {
				// A fresh page with nothing remembered (the run before ends with "Forget this dataset"),
				// so no restore runs beside the load; network idle, so no request is cut off.
				await page.goto(`${e.url}/dataset`, { waitUntil: 'networkidle' });
				await page.getByRole('heading', { name: 'Dataset', level: 1 }).waitFor();
				await page.evaluate(() => {
					const w = window as unknown as Watched;
					w.__longTasks = [];
					w.__t1 = 0;
					document.querySelector('#dataset-file')!.addEventListener(
						'change',
						() => {
							w.__t0 = performance.now();
							const seen = new MutationObserver(() => {
								if (document.querySelector('[data-testid="summary-stats"]')) {
									w.__t1 = performance.now();
									seen.disconnect();
								}
							});
							seen.observe(document.body, { childList: true, subtree: true });
						},
						{ once: true }
					);
				});
				await page.setInputFiles('#dataset-file', path);
				await page.waitForFunction(() => (window as unknown as Watched).__t1 > 0, null, {
					timeout: 300_000,
					polling: 250
				});
				const stats = await page.getByTestId('stat-cases').innerText();
				if (stats !== String(CASES)) throw new Error(`the page showed ${stats} cases`);
				// Saving to IndexedDB follows the summary: its tasks count too.
				await page.waitForTimeout(1000);
				const run = await page.evaluate(() => {
					const w = window as unknown as Watched;
					return { ms: w.__t1 - w.__t0, longest: Math.max(0, ...w.__longTasks) };
				});
				browserMs.push(run.ms);
				longest = Math.max(longest, run.longest);
				const forget = page.getByRole('button', { name: 'Forget this dataset' });
				await forget.click();
				await forget.waitFor({ state: 'detached' });
				await page.waitForLoadState('networkidle');
			}
			e.assertClean();

			const cliMs: number[] = [];
			for (let i = 0; i < RUNS; i++) cliMs.push(await timeCli(path));
			const browser = median(browserMs);
			const cli = median(cliMs);
			return [
				{
					name: `${(size / 1e6).toFixed(0)} MB dataset (${CASES.toLocaleString('en')} cases) validated in Chromium, to the summary (median of ${RUNS})`,
					value: browser / 1000,
					unit: 's',
					target: null
				},
				{
					name: `  CLI validate on the same file, whole process (median of ${RUNS})`,
					value: cli / 1000,
					unit: 's',
					target: null
				},
				{
					name: '  of which loadDataset in Node (one run)',
					value: loadMs / 1000,
					unit: 's',
					target: null
				},
				{
					name: '  browser / CLI',
					value: browser / cli,
					unit: '×',
					target: TARGET_RATIO
				},
				{
					name: `  longest main-thread task while loading (of ${RUNS} loads)`,
					value: longest,
					unit: 'ms',
					target: TARGET_LONG_TASK_MS
				}
			];
		} finally {
			await e.close();
			await rm(dir, { recursive: true, force: true });
		}
	}
};
