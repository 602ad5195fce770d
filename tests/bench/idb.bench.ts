/**
 * IndexedDB in Chromium: a run of about 10 000 records written through the real `IdbStore`
 * (one append per record), then the resume scan (`readHeads` of every stage file) timed
 * after a page reload, as when a researcher reopens the workbench to resume. Target: 500 ms.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { serve } from '../../scripts/serve.js';
import { launchChromium } from '../e2e/browser';
import { parseLayoutPath } from '../../src/lib/core/layout';
import type { AnyRecord, StageFile } from '../../src/lib/core/records';
import type { BenchRun, IdbBenchApi } from './idb-page/entry';
import { median } from './measure';
import { simulatedRunFiles } from './simulated-runs';
import type { BenchModule } from './types';

/** 834 cases × 12 records a case (2 a1, 2 LCA, and one in each other file) = 10 008 records. */
const CASES = 834;
/** Fresh pages, each scanning once: the figure is their median. */
const RELOADS = 3;
const WARM_SCANS = 4;
const TARGET_SCAN_MS = 500;

/** The run's records as the page loads them. */
function benchRun(files: Map<string, string>): BenchRun {
	const run: BenchRun = { manifest: null!, files: {} };
	for (const [path, text] of files) {
		const named = parseLayoutPath(path);
		if (named?.kind === 'manifest') run.manifest = JSON.parse(text);
		else if (named?.kind === 'stage') {
			run.files[named.file as StageFile] = text
				.split('\n')
				.filter((line) => line !== '')
				.map((line) => JSON.parse(line) as AnyRecord);
		}
	}
	return run;
}

/** The page's global; the functions given to `page.evaluate` run in the page, so they reach it there. */
type BenchPage = { idbBench: IdbBenchApi };

export const idbBench: BenchModule = {
	name: 'IndexedDB store (Chromium)',
	async run() {
		// The browser first: a missing Chromium fails before the run is generated.
		const browser = await launchChromium({ profilePrefix: 'lexpilot-bench-' });
		const dir = await mkdtemp(join(tmpdir(), 'lexpilot-idb-bench-'));
		let server: Awaited<ReturnType<typeof serve>> | null = null;
		try {
			const run = benchRun(await simulatedRunFiles(CASES));
			server = await serve({ dir, port: 0 });
			const { url } = server;
			await build({
				entryPoints: [resolve(import.meta.dirname, 'idb-page/entry.ts')],
				bundle: true,
				format: 'esm',
				platform: 'browser',
				target: 'es2022',
				outfile: join(dir, 'bench.js'),
				logLevel: 'silent'
			});
			await writeFile(join(dir, 'run.json'), JSON.stringify(run));
			await writeFile(
				join(dir, 'index.html'),
				'<!doctype html><meta charset="utf-8"><title>idb bench</title><script type="module" src="./bench.js"></script>\n'
			);
			const page = browser.context.pages()[0] ?? (await browser.context.newPage());
			const errors: string[] = [];
			page.on('pageerror', (e) => errors.push(e.message));
			const open = async () => {
				await page.goto(`${url}/index.html`);
				await page.waitForFunction(() => 'idbBench' in globalThis, null, { timeout: 10_000 });
			};
			await open();
			const written = await page.evaluate(() =>
				(globalThis as unknown as BenchPage).idbBench.write('./run.json')
			);
			const key = { runId: run.manifest.run_id, modelDir: run.manifest.model_dir };
			// A resume starts on a fresh page: reload, then scan once, a few times over. The last
			// page scans again to show the same scan with warm caches and compiled code.
			const cold: number[] = [];
			let last: Awaited<ReturnType<IdbBenchApi['scan']>> | null = null;
			for (let i = 0; i < RELOADS; i++) {
				await open();
				const scans = i === RELOADS - 1 ? WARM_SCANS + 1 : 1;
				last = await page.evaluate(
					([k, n]) => (globalThis as unknown as BenchPage).idbBench.scan(k, n),
					[key, scans] as const
				);
				if (last.records !== written.records) {
					throw new Error(`wrote ${written.records} records but the scan read ${last.records}`);
				}
				cold.push(last.ms[0]);
			}
			if (errors.length) throw new Error(`the bench page failed: ${errors.join('; ')}`);
			const n = written.records;
			return [
				{
					name: `IndexedDB resume scan, ${n} records (fresh page, median of ${RELOADS})`,
					value: median(cold),
					unit: 'ms',
					target: TARGET_SCAN_MS
				},
				{
					name: `IndexedDB resume scan, same page again (median of ${WARM_SCANS})`,
					value: median(last!.ms.slice(1)),
					unit: 'ms',
					target: null
				},
				{
					name: `  of which IndexedDB reads, no schema check (median of ${WARM_SCANS})`,
					value: median(last!.rawMs),
					unit: 'ms',
					target: null
				},
				{
					name: `IndexedDB full read of every record (readRecords; export, results; median of ${WARM_SCANS})`,
					value: median(last!.fullMs),
					unit: 'ms',
					target: null
				},
				{
					name: `IndexedDB write, ${n} appends (total)`,
					value: written.ms / 1000,
					unit: 's',
					target: null
				},
				{
					name: 'IndexedDB write, per append (mean)',
					value: written.ms / n,
					unit: 'ms',
					target: null
				}
			];
		} finally {
			await browser.close();
			await server?.close();
			await rm(dir, { recursive: true, force: true });
		}
	}
};
