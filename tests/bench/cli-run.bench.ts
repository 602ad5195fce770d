/**
 * The CLI end to end: `run` as a researcher starts it (`node bin/lexpilot.js`, the bundled CLI,
 * built first when a source file is newer), against the project's fake OpenAI-compatible server answering every call
 * in 100 ms with the simulated provider's text. Each row is a ratio to the ideal run time
 *
 *   ideal = max(calls × latency / concurrency, longest case chain × latency)
 *
 * where the chain is the longest run of one case's calls that must wait for each other (gen's
 * a1 → LCA → interaction rounds → LJP on the interaction), read from the saved records. Start-up
 * (spawn to first request) is excluded and reported on its own. Beside it, the bench's own
 * minimal client (`node:http`, keep-alive) replays the very same requests at the same concurrency,
 * ignoring their order:
 * what the transport costs without the workbench. And the resume of a finished 4,320-case run,
 * and `validate`'s peak memory against the size of the file.
 *
 * `QUICK=1 npm run bench -- cli` runs fewer, smaller rows.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { buildCli, isStale } from '../../scripts/build-cli.js';
import { runAll } from '../../src/lib/core/engine/run-all';
import { SIMULATED_ROLE_MODELS } from '../../src/lib/core/run-defaults';
import { createSimulatedClient } from '../../src/lib/core/simulated';
import { MemoryStore } from '../../src/lib/core/store/memory-store';
import type { FakeOpenAI, RecordedRequest } from '../fake-openai/server';
import { datasetFile, idealRun, longestChain, startLatencyFake } from './run-ideal';
import { benchDataset } from './simulated-runs';
import { writeLargeDataset } from './synthetic-dataset';
import type { BenchModule, BenchRow } from './types';

const QUICK = process.env.QUICK === '1';
const KEY = 'sk-bench-7d1e4c9a2b6f3e80';
const MODELS = [
	'--model',
	'bench-eval',
	'--user-model',
	'bench-user',
	'--judge-model',
	'bench-judge'
];

interface Plan {
	cases: number;
	concurrency: number;
	/** Wall / ideal must not exceed this. */
	target: number | null;
	/**
	 * `long`: the synthetic dataset, whose interactions mostly run 3–4 rounds; `short`: histories
	 * of 7 long messages, which the simulated model mostly answers at once (interactions of one
	 * round). @default 'long'
	 */
	chains?: 'long' | 'short';
}

/**
 * `npm run bench -- "cli run chains"`: only wall / ideal, 24 cases, on long and short chains,
 * for the scheduler's longest-chain-first order (the tail of a run is its longest chain).
 */
const CHAIN_PLANS: Plan[] = [
	{ cases: 24, concurrency: 8, target: 1.25, chains: 'long' },
	// Issue 31's bar: 24 cases whose interactions last 3–4 rounds, concurrency 16.
	{ cases: 24, concurrency: 16, target: 1.1, chains: 'long' },
	{ cases: 24, concurrency: 8, target: 1.25, chains: 'short' },
	{ cases: 24, concurrency: 16, target: 1.25, chains: 'short' },
	{ cases: 432, concurrency: 16, target: 1.15, chains: 'long' },
	{ cases: 432, concurrency: 16, target: 1.15, chains: 'short' }
];

const PLANS: Plan[] = QUICK
	? [
			{ cases: 6, concurrency: 1, target: null },
			{ cases: 24, concurrency: 8, target: 1.25 },
			{ cases: 24, concurrency: 16, target: 1.25 },
			{ cases: 432, concurrency: 64, target: 1.15 }
		]
	: [
			{ cases: 24, concurrency: 1, target: null },
			{ cases: 24, concurrency: 8, target: 1.25 },
			{ cases: 24, concurrency: 16, target: 1.25 },
			{ cases: 24, concurrency: 64, target: null },
			{ cases: 432, concurrency: 16, target: 1.15 },
			{ cases: 432, concurrency: 64, target: 1.15 }
		];

const TARGET_OVERHEAD_PERCENT = 5;
const TARGET_VS_REPLAY = 1.05;
const TARGET_CPU_PER_CALL_MS = 1.5;
/**
 * The 432-case rows also split CPU per call after this many calls (as many as a 24-case run
 * makes): the probe marks the start of the next request.
 */
const WARM_UP_CALLS = 354;
const RESUME_CASES = QUICK ? 864 : 4320;
const TARGET_RESUME_MS = 1500;
const TARGET_RESUME_RSS_MIB = 300;
/** `validate`: the memory a file adds, at most this many times its size. */
const TARGET_VALIDATE_MEMORY = 3;

const ROOT = resolve(import.meta.dirname, '../..');

/** What `cli-probe.js` writes: times as epoch milliseconds, CPU in microseconds. */
export interface ProbeReport {
	firstRequest: { at: number; cpuUs: number } | null;
	/** When request number `$LEXPILOT_BENCH_PROBE_MARK` started, if the run got that far. */
	mark: { at: number; cpuUs: number } | null;
	/** When the last response ended (a diagnostic: exit − this is the run's tail). */
	lastResponse: number | null;
	exit: { at: number; cpuUs: number };
	maxRssKiB: number;
	/** Milliseconds the process waited for a CPU (Linux), null elsewhere. */
	runDelayMs: number | null;
	/** The largest resident memory sampled (every 100 ms), with V8's heap then, in bytes. */
	peak: { at: number; rss: number; heapTotal: number; heapUsed: number; external: number } | null;
}

interface CliRun {
	code: number;
	stdout: string;
	stderr: string;
	spawnedAt: number;
	closedAt: number;
	probe: ProbeReport;
}

/**
 * Runs the CLI (`node bin/lexpilot.js`, as `npx lexpilot` does) under the probe; resolves when
 * the process has exited. The bundle is built first when it is missing or stale, so no run here
 * pays for a build. `nodeArgs` go to node before the probe (`--cpu-prof`, which NODE_OPTIONS
 * refuses).
 */
export async function runCli(
	args: string[],
	env: Record<string, string>,
	probeFile: string,
	nodeArgs: readonly string[] = []
): Promise<CliRun> {
	if (isStale()) await buildCli();
	return new Promise((resolve, reject) => {
		const spawnedAt = Date.now();
		const child = spawn(
			process.execPath,
			[...nodeArgs, '--import', './tests/bench/cli-probe.js', 'bin/lexpilot.js', ...args],
			{
				cwd: ROOT,
				env: {
					PATH: process.env.PATH,
					HOME: process.env.HOME,
					LEXPILOT_BENCH_PROBE: probeFile,
					LEXPILOT_BENCH_PROBE_MARK: String(WARM_UP_CALLS + 1),
					...env
				},
				stdio: ['ignore', 'pipe', 'pipe']
			}
		);
		let stdout = '';
		let stderr = '';
		child.stdout!.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
		child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
		child.on('error', reject);
		child.on('close', async (code) => {
			const closedAt = Date.now();
			try {
				const probe = JSON.parse(await readFile(probeFile, 'utf8')) as ProbeReport;
				resolve({ code: code ?? 1, stdout, stderr, spawnedAt, closedAt, probe });
			} catch (e) {
				reject(
					new Error(
						`the CLI (exit ${code}) left no probe report: ${(e as Error).message}\n${stderr}`
					)
				);
			}
		});
	});
}

async function readJsonl(path: string): Promise<unknown[]> {
	const text = await readFile(path, 'utf8');
	return text
		.split('\n')
		.filter(Boolean)
		.map((l) => JSON.parse(l));
}

/**
 * Sends `requests` again through the minimal client (`replay-client.js`, a process of its own),
 * `concurrency` at a time: the floor of the transport, in wall time and in CPU.
 */
async function replay(
	baseURL: string,
	requests: RecordedRequest[],
	concurrency: number,
	dir: string
): Promise<{ wallMs: number; cpuUs: number }> {
	const file = join(dir, 'replay-bodies.json');
	await writeFile(file, JSON.stringify(requests.map((r) => r.body)));
	return new Promise((resolvePromise, reject) => {
		const child = spawn(
			process.execPath,
			['tests/bench/replay-client.js', file, baseURL, String(concurrency), KEY],
			{ cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }
		);
		let stdout = '';
		let stderr = '';
		child.stdout!.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
		child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
		child.on('error', reject);
		child.on('close', (code) => {
			if (code !== 0) {
				reject(new Error(`the replay client exited ${code}:\n${stderr.slice(-2000)}`));
				return;
			}
			resolvePromise(JSON.parse(stdout) as { wallMs: number; cpuUs: number });
		});
	});
}

const f2 = (n: number) => n.toFixed(2);

/** The dataset file of a plan: the synthetic one, or one of short chains. */
async function planDataset(dir: string, plan: Plan): Promise<string> {
	if ((plan.chains ?? 'long') === 'long') return datasetFile(dir, plan.cases);
	const path = join(dir, `short-chains-${plan.cases}.json`);
	await writeLargeDataset(path, { cases: plan.cases, messages: 7, chars: 120 });
	return path;
}

async function endToEnd(plans: readonly Plan[] = PLANS, onlyIdeal = false): Promise<BenchRow[]> {
	const tmp = await mkdtemp(join(tmpdir(), 'lexpilot-bench-cli-'));
	const server: FakeOpenAI = await startLatencyFake({ requireKey: KEY });
	const rows: BenchRow[] = [];
	const startups: number[] = [];
	try {
		for (const plan of plans) {
			const chains = plan.chains === undefined ? '' : `, ${plan.chains} chains`;
			process.stderr.write(
				`bench:   run, ${plan.cases} cases, concurrency ${plan.concurrency}${chains}…\n`
			);
			const root = join(tmp, `out-${plan.cases}-${plan.concurrency}${plan.chains ?? ''}`);
			const dataset = await planDataset(tmp, plan);
			const before = server.chatRequests.length;
			const result = await runCli(
				[
					'run',
					'--dataset',
					dataset,
					'--output-root',
					root,
					'--run-id',
					'b1',
					...MODELS,
					'--concurrency',
					String(plan.concurrency)
				],
				{ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: KEY },
				join(tmp, 'probe.json')
			);
			if (result.code !== 0 || !result.probe.firstRequest) {
				throw new Error(`run exited ${result.code}:\n${result.stderr.slice(-2000)}`);
			}
			const requests = server.chatRequests.slice(before);
			const calls = requests.length;
			const modelDir = (await import('../../src/lib/core/layout')).modelDirName;
			const dir = await modelDir('bench-eval');
			const interactions = (await readJsonl(
				join(root, 'AwN_gen', 'b1', dir, 'interaction.jsonl')
			)) as {
				rounds: { label: string }[];
			}[];
			const chain = longestChain(interactions);
			const {
				byCallsMs: byCalls,
				idealMs: ideal,
				bound
			} = idealRun(calls, chain, plan.concurrency);
			const first = result.probe.firstRequest;
			const wall = result.probe.exit.at - first.at;
			startups.push(first.at - result.spawnedAt);
			const label = `${plan.cases} cases, concurrency ${plan.concurrency}${chains}`;
			if (plan.concurrency === 1) {
				rows.push({
					name: `run overhead, ${label}: (wall − Σ latency) / Σ latency (${calls} calls)`,
					value: ((wall - byCalls) / byCalls) * 100,
					unit: '%',
					target: TARGET_OVERHEAD_PERCENT
				});
			} else {
				rows.push({
					name: `run wall / ideal, ${label} (${calls} calls, ideal ${f2(ideal / 1000)} s, ${bound})`,
					value: wall / ideal,
					unit: '×',
					target: plan.target
				});
			}
			if (onlyIdeal) {
				const last = result.probe.lastResponse;
				if (last) {
					rows.push({
						name: `  of which after the last response: writing, summing up, exit`,
						value: result.probe.exit.at - last,
						unit: 'ms',
						target: null
					});
				}
				if (plan.cases <= 24) {
					const floor = await replay(server.baseURL, requests, plan.concurrency, tmp);
					rows.push({
						name: `  the minimal replay client's wall / ideal, same calls (order ignored)`,
						value: floor.wallMs / ideal,
						unit: '×',
						target: null
					});
				}
				server.requests.length = 0;
				continue;
			}
			const replayed = await replay(server.baseURL, requests, plan.concurrency, tmp);
			const replayMs = replayed.wallMs;
			// The server records every request; dropped after each row, so that it does not answer
			// later rows slower (garbage collection of tens of thousands of prompts).
			server.requests.length = 0;
			rows.push({
				name: `run wall / minimal replay client, ${label} (replay ${f2(replayMs / 1000)} s, order ignored)`,
				value: wall / replayMs,
				unit: '×',
				target: bound === 'calls-bound' && plan.concurrency > 1 ? TARGET_VS_REPLAY : null
			});
			rows.push({
				name: `run CPU per call after start-up, ${label}`,
				value: (result.probe.exit.cpuUs - first.cpuUs) / 1000 / calls,
				unit: 'ms',
				target: TARGET_CPU_PER_CALL_MS
			});
			rows.push({
				name: `  the minimal replay client's CPU per call, same calls and concurrency`,
				value: replayed.cpuUs / 1000 / calls,
				unit: 'ms',
				target: null
			});
			const mark = result.probe.mark;
			if (mark && calls > 2 * WARM_UP_CALLS) {
				// The same process early and late: what the first calls cost before V8 has optimised
				// the code they run, against the calls after.
				rows.push({
					name: `  of which calls 1–${WARM_UP_CALLS} (before the code is warm)`,
					value: (mark.cpuUs - first.cpuUs) / 1000 / WARM_UP_CALLS,
					unit: 'ms',
					target: null
				});
				rows.push({
					name: `  of which calls ${WARM_UP_CALLS + 1}–${calls}`,
					value: (result.probe.exit.cpuUs - mark.cpuUs) / 1000 / (calls - WARM_UP_CALLS),
					unit: 'ms',
					target: null
				});
			}
		}
		startups.sort((a, b) => a - b);
		rows.push({
			name: `run start-up: spawn → first request (node bin/lexpilot.js; median of ${startups.length})`,
			value: startups[startups.length >> 1],
			unit: 'ms',
			target: null
		});
	} finally {
		await server.close();
		await rm(tmp, { recursive: true, force: true });
	}
	return rows;
}

async function resume(): Promise<BenchRow[]> {
	const tmp = await mkdtemp(join(tmpdir(), 'lexpilot-bench-resume-'));
	try {
		process.stderr.write(`bench:   simulating a finished ${RESUME_CASES}-case run…\n`);
		const store = new MemoryStore();
		const endpoint = 'simulated://offline';
		await runAll({
			dataset: await benchDataset(RESUME_CASES),
			client: createSimulatedClient(),
			store,
			runId: 'b1',
			// As `--simulated` records them: its user and judge are simulated.
			models: { evaluated: 'bench-eval', ...SIMULATED_ROLE_MODELS },
			endpoints: { evaluated: endpoint, user: endpoint, judge: endpoint },
			concurrency: 64
		});
		const root = join(tmp, 'out');
		let records = 0;
		let bytes = 0;
		for (const [path, text] of store.toFiles()) {
			const file = join(root, ...path.split('/'));
			await mkdir(dirname(file), { recursive: true });
			await writeFile(file, text);
			// Stage files only: calls.jsonl is a log, never read by a resume.
			if (path.endsWith('.jsonl') && !path.startsWith('runs/')) {
				records += text.split('\n').length - 1;
				bytes += Buffer.byteLength(text);
			}
		}
		const dataset = await datasetFile(tmp, RESUME_CASES);
		const rows: BenchRow[] = [];
		const label = `${RESUME_CASES} cases, ${records} records, ${Math.round(bytes / 2 ** 20)} MiB of stage files`;
		// Written as the Python harness or an older version would: no resume seals. The first
		// start checks every record and seals each stage; the next ones find the seals.
		const commands = [
			{ command: 'run', first: true },
			{ command: 'run', first: false },
			{ command: 'gen', first: false },
			{ command: 'ljp', first: false }
		];
		for (const { command, first } of commands) {
			const result = await runCli(
				[
					command,
					'--simulated',
					'--dataset',
					dataset,
					'--output-root',
					root,
					'--run-id',
					'b1',
					// `--simulated` names its own user and judge.
					...MODELS.slice(0, 2)
				],
				{},
				join(tmp, 'probe.json')
			);
			if (result.code !== 0)
				throw new Error(`${command} exited ${result.code}:\n${result.stderr.slice(-2000)}`);
			const generated = [...result.stdout.matchAll(/\((\d+) generated/g)].map((m) => Number(m[1]));
			if (generated.length === 0 || generated.some((n) => n > 0)) {
				throw new Error(`${command} generated records on a finished run`);
			}
			const what = first
				? `first resume of a finished run written without seals, \`${command}\` (full check of every record)`
				: `resume of a finished, sealed run, \`${command}\``;
			rows.push(
				{
					name: `${what} (${label}), wall incl. start-up`,
					value: result.closedAt - result.spawnedAt,
					unit: 'ms',
					target: first ? null : TARGET_RESUME_MS
				},
				{
					// What the wall time would be on an idle machine, near enough: a loaded one waits.
					name: `${what}, CPU time of the process (user + system)`,
					value: result.probe.exit.cpuUs / 1000,
					unit: 'ms',
					target: null
				},
				{
					name: `${what}, peak RSS`,
					value: result.probe.maxRssKiB / 1024,
					unit: 'MiB',
					target: first ? null : TARGET_RESUME_RSS_MIB
				}
			);
		}
		return rows;
	} finally {
		await rm(tmp, { recursive: true, force: true });
	}
}

/** Peak RSS of `validate --dataset FILE` through the CLI process, and its exit code. */
async function validatePeak(path: string, probeFile: string): Promise<number> {
	const result = await runCli(['validate', '--dataset', path], {}, probeFile);
	if (result.code !== 0)
		throw new Error(`validate exited ${result.code}:\n${result.stderr.slice(-2000)}`);
	return result.probe.maxRssKiB * 1024;
}

/**
 * `validate`'s peak memory against the size of the file it checks: the synthetic 432-case file
 * (the real benchmark's size), the 4,320-case one of the resume rows, and a 106 MB file of
 * 205,000 one-message cases. The row is the memory the file adds, (peak RSS − peak RSS of
 * validating a one-case file) ÷ file size: Node and the CLI's own code take about 60 MB whatever
 * the file, which no file size can be held to. Each peak is the smallest of three runs.
 */
async function validateMemory(): Promise<BenchRow[]> {
	const tmp = await mkdtemp(join(tmpdir(), 'lexpilot-bench-validate-'));
	const probe = join(tmp, 'probe.json');
	const peak = async (path: string) =>
		Math.min(
			...[
				await validatePeak(path, probe),
				await validatePeak(path, probe),
				await validatePeak(path, probe)
			]
		);
	try {
		const base = await peak(await datasetFile(tmp, 1));
		const rows: BenchRow[] = [
			{
				name: 'validate peak RSS, one-case file (what the CLI takes whatever the file)',
				value: base / 2 ** 20,
				unit: 'MiB',
				target: null
			}
		];
		const large = join(tmp, 'large.json');
		await writeLargeDataset(large, { cases: 205_000 });
		const files = [
			{ path: await datasetFile(tmp, 432), what: '432 cases' },
			{ path: await datasetFile(tmp, 4320), what: '4,320 cases' },
			{ path: large, what: '205,000 one-message cases' }
		];
		for (const { path, what } of files) {
			const size = (await stat(path)).size;
			const rss = await peak(path);
			rows.push({
				name: `validate memory / file size, ${what} (${(size / 1e6).toFixed(1)} MB; peak RSS ${Math.round(rss / 2 ** 20)} MiB)`,
				value: (rss - base) / size,
				unit: '×',
				target: TARGET_VALIDATE_MEMORY
			});
		}
		return rows;
	} finally {
		await rm(tmp, { recursive: true, force: true });
	}
}

export const cliRunBench: BenchModule = { name: 'cli run end to end', run: () => endToEnd() };
export const cliRunChainsBench: BenchModule = {
	name: 'cli run chains',
	run: () => endToEnd(CHAIN_PLANS, true)
};
export const cliResumeBench: BenchModule = { name: 'cli resume', run: resume };
export const cliValidateBench: BenchModule = { name: 'cli validate memory', run: validateMemory };
