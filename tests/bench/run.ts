/**
 * `npm run bench [-- NAME…]`: runs every bench module (or those whose name contains a given
 * word) and prints one table. A full run also writes it, with the date, commit and machine
 * load, into the generated block of PERFORMANCE.md (see report.ts). A bench that throws becomes
 * an "error: …" row and the others still run. Exits 1 when a row misses its target, 2 when a bench failed. Add a bench by
 * writing a module that exports a `BenchModule` and listing it in `BENCHES`.
 */
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join, relative, resolve } from 'node:path';
import * as prettier from 'prettier';
import { batchBench } from './batch.bench';
import { batchImportBench } from './batch-import.bench';
import { bootstrapBench } from './bootstrap.bench';
import { browserRunBench } from './browser-run.bench';
import { bundleBench } from './bundle.bench';
import { cliResumeBench, cliRunBench, cliRunChainsBench, cliValidateBench } from './cli-run.bench';
import { cliStartupBench } from './cli-startup.bench';
import { datasetBrowserBench } from './dataset-browser.bench';
import { engineBenches } from './engine.bench';
import { idbBench } from './idb.bench';
import { inspectTableBench } from './inspect-table.bench';
import { planBench } from './plan.bench';
import { resultsBench } from './results.bench';
import { resultsPageBench } from './results-page.bench';
import { leaderboardPageBench } from './leaderboard-page.bench';
import { siteSizeBench } from './site-size.bench';
import {
	contextLine,
	markdownBlock,
	met,
	replaceBlock,
	textTable,
	type ReportRow,
	type RunContext
} from './report';
import type { BenchModule } from './types';
import { validationBench } from './validation.bench';

const BENCHES: BenchModule[] = [
	...engineBenches,
	cliRunBench,
	cliRunChainsBench,
	cliResumeBench,
	cliValidateBench,
	planBench,
	browserRunBench,
	validationBench,
	datasetBrowserBench,
	idbBench,
	bundleBench,
	resultsBench,
	bootstrapBench,
	resultsPageBench,
	leaderboardPageBench,
	inspectTableBench,
	siteSizeBench,
	cliStartupBench,
	batchBench,
	batchImportBench
];

const ROOT = resolve(import.meta.dirname, '../..');
const filters = process.argv.slice(2);
const selected = BENCHES.filter(
	(b) => filters.length === 0 || filters.some((f) => b.name.includes(f))
);

// Other work on the machine slows every figure; the load goes with the table to say how much.
const startedAt = new Date().toISOString();
const loadAtStart = loadavg();

const rows: ReportRow[] = [];
for (const bench of selected) {
	// Progress goes to stderr so stdout holds only the table.
	process.stderr.write(`bench: ${bench.name}…\n`);
	try {
		for (const row of await bench.run()) rows.push({ ...row, bench: bench.name });
	} catch (e) {
		rows.push({ bench: bench.name, name: bench.name, error: (e as Error)?.message ?? String(e) });
	}
}

const context: RunContext = {
	startedAt,
	endedAt: new Date().toISOString(),
	cores: availableParallelism(),
	cpuModel: cpus()[0]?.model.trim() || 'unknown CPU',
	loadAtStart,
	loadAtEnd: loadavg(),
	node: process.versions.node,
	commit: commitOf(ROOT)
};
process.stdout.write(textTable(rows));
console.log(`\n${contextLine(context)}`);

// Only a full run replaces the figures: a filtered one would drop the other benches' rows.
if (filters.length === 0) {
	const path = join(ROOT, 'PERFORMANCE.md');
	const doc = replaceBlock(await readFile(path, 'utf8'), markdownBlock(rows, context));
	const config = (await prettier.resolveConfig(path)) ?? {};
	await writeFile(path, await prettier.format(doc, { ...config, filepath: path }));
	process.stderr.write(`bench: the table is in ${relative(process.cwd(), path) || path}\n`);
} else {
	process.stderr.write('bench: PERFORMANCE.md left as it is (only some benches ran)\n');
}

const errors = rows.filter((r) => 'error' in r);
for (const r of errors) console.error(`\n${r.bench} failed:\n${r.error}`);
if (errors.length > 0) process.exitCode = 2;
else if (rows.some((r) => met(r) === false)) process.exitCode = 1;

/** The commit the figures are of, and whether the tree had changes on top. */
function commitOf(root: string): string {
	try {
		const git = (...args: string[]) =>
			execFileSync('git', args, {
				cwd: root,
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'ignore']
			});
		const head = git('rev-parse', '--short', 'HEAD').trim();
		return git('status', '--porcelain').trim() ? `${head} + uncommitted changes` : head;
	} catch {
		return 'unknown (not a git checkout)';
	}
}
