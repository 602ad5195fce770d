/**
 * `batch import` from the CLI process (issue 32 item 5, docs/BATCH.md): the peak RSS of
 * importing a 300 MB output file, against the same command importing a small one, for one run
 * and for a plan (2 models × 2 repetitions) whose 300 MB come in 40 files. The outputs answer
 * round 1's requests with answers past the answer bound (what a provider ignoring max_tokens
 * sends, the issue's case): each file is read a line at a time, a line held at most to the line
 * bound, and each answer kept as a failed attempt. The import goes on as the CLI does (the next
 * round written), all in the measured process. The files are made at bench time in a temporary
 * folder.
 */
import { createWriteStream } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { runCli } from './cli-run.bench';
import { datasetFile } from './run-ideal';
import type { BenchModule, BenchRow } from './types';

const KEY = 'sk-bench-import-3f8a61c2';
const ENV = { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: KEY };
const ROLES = ['--user-model', 'bench-user', '--judge-model', 'bench-judge'];
const BIG = 300 * 1000 * 1000;

/** Every input line of round 1 under `root`'s batch folder. */
async function roundOneLines(root: string): Promise<string[]> {
	const lines: string[] = [];
	const walk = async (dir: string): Promise<void> => {
		for (const entry of await readdir(dir, { withFileTypes: true })) {
			const path = join(dir, entry.name);
			if (entry.isDirectory()) await walk(path);
			else if (dir.endsWith('round-1') && entry.name.endsWith('.jsonl'))
				lines.push(...(await readFile(path, 'utf8')).split('\n').filter(Boolean));
		}
	};
	await walk(join(root, 'batch-rounds'));
	return lines;
}

/** Writes output files answering `lines`, each answer `answerBytes` long, cut into `files` files. */
async function writeOutputs(
	dir: string,
	lines: string[],
	answerBytes: number,
	files: number
): Promise<string[]> {
	const names = Array.from({ length: files }, (_, i) => join(dir, `out-${i}.jsonl`));
	const pad = 'x'.repeat(answerBytes);
	for (const [f, name] of names.entries()) {
		const out = createWriteStream(name);
		for (let i = f; i < lines.length; i += files) {
			const { custom_id } = JSON.parse(lines[i]) as { custom_id: string };
			const body = {
				choices: [{ index: 0, message: { role: 'assistant', content: pad }, finish_reason: 'stop' }]
			};
			const row = {
				id: `b${i}`,
				custom_id,
				response: { status_code: 200, request_id: `q${i}`, body },
				error: null
			};
			if (!out.write(`${JSON.stringify(row)}\n`)) await once(out, 'drain');
		}
		out.end();
		await once(out, 'close');
	}
	return names;
}

/** Peak RSS (MiB) of `batch import` of small and of 300 MB outputs, for the run `flags` starts. */
async function importPeaks(tmp: string, label: string, flags: string[], files: number) {
	// 12 cases: 60 requests a run in round 1, so 300 MB makes answers of 5 MB (one run: past the
	// line bound, counted and dropped) or 1.25 MB (4 runs: within it, read, then past the answer
	// bound of max_tokens 8192). Answers within the bound are kept, and what is kept is held.
	const dataset = await datasetFile(tmp, 12);
	const base = join(tmp, `${label}-base`);
	const args = (root: string) => ['--dataset', dataset, '--output-root', root, ...flags, ...ROLES];
	const started = await runCli(
		['run', ...args(base), '--batch', 'files'],
		ENV,
		join(tmp, `${label}-0.json`)
	);
	if (started.code !== 3)
		throw new Error(`${label}: run exited ${started.code}:\n${started.stderr.slice(-2000)}`);
	const lines = await roundOneLines(base);
	const peaks: number[] = [];
	for (const [i, total] of [100_000, BIG].entries()) {
		const root = join(tmp, `${label}-${i}`);
		await cp(base, root, { recursive: true });
		const out = join(tmp, `${label}-out-${i}`);
		await mkdir(out);
		const answer = Math.max(1, Math.floor(total / lines.length) - 200);
		const names = await writeOutputs(out, lines, answer, files);
		const run = await runCli(
			['batch', 'import', ...names, ...args(root)],
			ENV,
			join(tmp, `${label}-p${i}.json`)
		);
		if (run.code !== 3 && run.code !== 0 && run.code !== 1)
			throw new Error(`${label}: batch import exited ${run.code}:\n${run.stderr.slice(-2000)}`);
		peaks.push(run.probe.maxRssKiB / 1024);
		await rm(out, { recursive: true, force: true });
	}
	return { requests: lines.length, small: peaks[0], big: peaks[1] };
}

export const batchImportBench: BenchModule = {
	name: 'batch import (CLI, bounded memory)',
	async run() {
		const tmp = await mkdtemp(join(tmpdir(), 'lexpilot-bench-import-'));
		try {
			const one = await importPeaks(tmp, 'one', ['--run-id', 'i1', '--model', 'bench-eval'], 1);
			const plan = await importPeaks(
				tmp,
				'plan',
				['--run-id', 'i2', '--model', 'bench-a', '--model', 'bench-b', '--repetitions', '2'],
				40
			);
			const rows: BenchRow[] = [
				{
					name: `batch import of one 300 MB output file (${one.requests} requests, answers past the bound): peak RSS above the same import of a small file (${Math.round(one.small)} MiB)`,
					value: Math.round(one.big - one.small),
					unit: 'MiB',
					target: 200
				},
				{
					name: `batch import of a plan (2 models × 2 repetitions, ${plan.requests} requests), 300 MB in 40 files: peak RSS above the same import of small files (${Math.round(plan.small)} MiB)`,
					value: Math.round(plan.big - plan.small),
					unit: 'MiB',
					target: 200
				}
			];
			return rows;
		} finally {
			await rm(tmp, { recursive: true, force: true });
		}
	}
};
