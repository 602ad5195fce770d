/**
 * Batch mode from the CLI process (`node bin/lexpilot.js run --batch …`, docs/BATCH.md):
 * - files mode writing round 1 of 4,320 synthetic cases (the paper's 432 repeated ten times,
 *   renumbered): peak RSS of the process and its wall time from spawn to exit 3 (dataset read,
 *   the pass over every case, round 1's files written);
 * - a run to the end in provider mode against the fake server's Batch API: rounds against the
 *   longest chain of dependent calls read from the saved interaction records (`run-ideal.ts`).
 * Beside them, the size of round 1 and of a whole run, for the cost arithmetic in BATCH.md.
 */
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { modelDirName } from '../../src/lib/core/layout';
import { simulatedScript } from '../engine/simulated-script';
import { byTask } from '../fake-openai/by-task';
import { startFakeOpenAI } from '../fake-openai/server';
import { runCli } from './cli-run.bench';
import { datasetFile, longestChain } from './run-ideal';
import type { BenchModule, BenchRow } from './types';

const KEY = 'sk-bench-batch-5c2e9a71';
const MODELS = [
	'--model',
	'bench-eval',
	'--user-model',
	'bench-user',
	'--judge-model',
	'bench-judge'
];

/** What a round folder holds, and when its last file was last written. */
async function filesIn(dir: string) {
	let files = 0;
	let bytes = 0;
	let lines = 0;
	let lastWrite = 0;
	for (const name of await readdir(dir)) {
		const info = await stat(join(dir, name));
		files++;
		bytes += info.size;
		lastWrite = Math.max(lastWrite, info.mtimeMs);
		lines += (await readFile(join(dir, name), 'utf8')).split('\n').length - 1;
	}
	return { files, bytes, lines, lastWrite };
}

async function roundOne(tmp: string): Promise<BenchRow[]> {
	const cases = 4320;
	const dataset = await datasetFile(tmp, cases);
	const root = join(tmp, 'files');
	const run = await runCli(
		[
			'run',
			'--dataset',
			dataset,
			'--output-root',
			root,
			'--run-id',
			'b1',
			...MODELS,
			'--batch',
			'files'
		],
		{ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: KEY },
		join(tmp, 'probe-files.json')
	);
	if (run.code !== 3) throw new Error(`files mode exited ${run.code}:\n${run.stderr.slice(-2000)}`);
	const dir = join(root, 'batch-rounds', 'b1', await modelDirName('bench-eval'), 'round-1');
	const round = await filesIn(dir);
	// The round is saved (its sent_at) just before its files are built and written.
	const state = JSON.parse(
		await readFile(
			join(root, 'runs', 'b1', await modelDirName('bench-eval'), 'batch', 'state.json'),
			'utf8'
		)
	) as { rounds: { sent_at: string }[] };
	const written = (round.lastWrite - Date.parse(state.rounds[0].sent_at)) / 1000;
	return [
		{
			name: `batch files mode, round 1 of ${cases} cases (${round.lines} requests, ${round.files} files, ${(round.bytes / 1e6).toFixed(1)} MB): peak RSS`,
			value: Math.round(run.probe.maxRssKiB / 1024),
			unit: 'MiB',
			target: 500
		},
		{
			name: `batch files mode, round 1 of ${cases} cases: its files built and written (round saved to last write)`,
			value: Math.round(written * 100) / 100,
			unit: 's',
			target: 10
		},
		{
			name: `batch files mode, round 1 of ${cases} cases: spawn to exit 3 (dataset read, the pass over every case, files written)`,
			value: Math.round((run.closedAt - run.spawnedAt) / 10) / 100,
			unit: 's',
			target: null
		},
		{
			name: 'batch round 1, bytes per request',
			value: Math.round(round.bytes / round.lines),
			unit: 'B',
			target: null
		}
	];
}

async function toTheEnd(tmp: string): Promise<BenchRow[]> {
	const cases = 48;
	const server = await startFakeOpenAI({ handler: byTask(simulatedScript), batch: { delayMs: 5 } });
	try {
		const dataset = await datasetFile(tmp, cases);
		const root = join(tmp, 'provider');
		const run = await runCli(
			[
				'run',
				'--dataset',
				dataset,
				'--output-root',
				root,
				'--run-id',
				'b2',
				...MODELS,
				'--batch',
				'provider'
			],
			{ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: KEY, LEXPILOT_BATCH_POLL_MS: '10' },
			join(tmp, 'probe-provider.json')
		);
		if (run.code !== 0)
			throw new Error(`provider mode exited ${run.code}:\n${run.stderr.slice(-2000)}`);
		const [, rounds, measured] =
			/Batch: (\d+) rounds; longest chain of dependent calls (\d+)/.exec(run.stdout) ?? [];
		const dir = await modelDirName('bench-eval');
		const text = await readFile(join(root, 'AwN_gen', 'b2', dir, 'interaction.jsonl'), 'utf8');
		const interactions = text
			.split('\n')
			.filter(Boolean)
			.map((l) => JSON.parse(l));
		const chain = longestChain(interactions);
		const requests = server.batches.lines.length;
		const bytes = [...server.batches.files.values()]
			.filter((f) => f.purpose === 'batch')
			.reduce((sum, f) => sum + f.bytes.length, 0);
		return [
			{
				name: `batch provider mode to the end, ${cases} cases: rounds (longest chain from the records ${chain}, as measured by the run ${measured})`,
				value: Number(rounds),
				unit: 'rounds',
				target: chain
			},
			{
				name: `batch provider mode, ${cases} cases: requests per case (${requests} requests)`,
				value: Math.round((requests / cases) * 100) / 100,
				unit: 'requests',
				target: null
			},
			{
				name: `batch provider mode, ${cases} cases: input bytes per request`,
				value: Math.round(bytes / requests),
				unit: 'B',
				target: null
			}
		];
	} finally {
		await server.close();
	}
}

export const batchBench: BenchModule = {
	name: 'batch mode (CLI, files and provider)',
	async run() {
		const tmp = await mkdtemp(join(tmpdir(), 'lexpilot-bench-batch-'));
		try {
			return [...(await toTheEnd(tmp)), ...(await roundOne(tmp))];
		} finally {
			await rm(tmp, { recursive: true, force: true });
		}
	}
};
