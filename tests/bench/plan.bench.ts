/**
 * A run plan through the CLI process: 4 models × 5 repetitions × 432 cases (`run --model …
 * --repetitions 5`) against the fake provider answering every call in 100 ms, all on one
 * endpoint, so the plan's calls share one limit. Wall time against the ideal
 *
 *   ideal = max(calls × latency / concurrency, longest case chain of any run × latency)
 *
 * (start-up excluded, as in `cli-run.bench.ts`), and the peak RSS of the CLI: a plan of 20 runs
 * may hold more than a single run only by the size of its records, not per run.
 *
 * `QUICK=1 npm run bench -- plan` runs 2 models × 2 repetitions × 48 cases; `PLAN_SHAPE=4x2x100`
 * any models × repetitions × cases (a diagnostic); `PLAN_NODE_ARGS` are node's options for the
 * plan's process (`--cpu-prof --cpu-prof-dir=DIR`, `--heapsnapshot-signal=SIGUSR2`).
 */
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { modelDirName } from '../../src/lib/core/layout';
import { runCli } from './cli-run.bench';
import { datasetFile, idealRun, longestChain, startLatencyFake } from './run-ideal';
import type { BenchModule, BenchRow } from './types';

const QUICK = process.env.QUICK === '1';
const SHAPE = /^(\d+)x(\d+)x(\d+)$/.exec(process.env.PLAN_SHAPE ?? '');
const [MODEL_COUNT, REPETITIONS, CASES] = SHAPE
	? SHAPE.slice(1).map(Number)
	: QUICK
		? [2, 2, 48]
		: [4, 5, 432];
const MODELS = Array.from({ length: MODEL_COUNT }, (_, i) => `plan-${String.fromCharCode(97 + i)}`);
const NODE_ARGS = (process.env.PLAN_NODE_ARGS ?? '').split(' ').filter(Boolean);
const CONCURRENCY = 64;
const KEY = 'sk-bench-plan-4c2e9a7b1d3f';
const TARGET_WALL_VS_IDEAL = 1.15;
/** What the plan's peak RSS may exceed one run's by, as a share of the plan's stage files. */
const TARGET_RSS_PER_RECORD_BYTE = 1;

const args = (dataset: string, root: string, models: readonly string[], repetitions?: number) => [
	'run',
	'--dataset',
	dataset,
	'--output-root',
	root,
	'--run-id',
	repetitions === undefined ? 'single' : 'run',
	...models.flatMap((m) => ['--model', m]),
	...(repetitions === undefined ? [] : ['--repetitions', String(repetitions)]),
	'--user-model',
	'bench-user',
	'--judge-model',
	'bench-judge',
	'--concurrency',
	String(CONCURRENCY)
];

/** Bytes of the stage files under `root` (everything but `runs/`). */
async function stageBytes(root: string): Promise<number> {
	let bytes = 0;
	for (const e of await readdir(root, { recursive: true, withFileTypes: true })) {
		const path = join(e.parentPath, e.name);
		if (e.isFile() && !path.slice(root.length).startsWith('/runs/'))
			bytes += (await stat(path)).size;
	}
	return bytes;
}

async function plan(): Promise<BenchRow[]> {
	const tmp = await mkdtemp(join(tmpdir(), 'lexpilot-bench-plan-'));
	const arrivals: number[] = [];
	const server = await startLatencyFake({ requireKey: KEY, arrivals });
	// The server records every request; 170,000 prompts would weigh on this process and slow
	// its answers, so they are dropped as they come (the calls are counted in `arrivals`).
	const forget = setInterval(() => (server.requests.length = 0), 1000);
	const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: KEY };
	try {
		const dataset = await datasetFile(tmp, CASES);
		process.stderr.write(`bench:   one run, ${CASES} cases, for the memory baseline…\n`);
		const singleRoot = join(tmp, 'single');
		const single = await runCli(args(dataset, singleRoot, [MODELS[0]]), env, join(tmp, 'p1.json'));
		if (single.code !== 0)
			throw new Error(`run exited ${single.code}:\n${single.stderr.slice(-2000)}`);
		arrivals.length = 0;

		const runs = MODELS.length * REPETITIONS;
		process.stderr.write(
			`bench:   plan of ${MODELS.length} models × ${REPETITIONS} repetitions × ${CASES} cases…\n`
		);
		const root = join(tmp, 'plan');
		const serverCpu = process.cpuUsage();
		const result = await runCli(
			args(dataset, root, MODELS, REPETITIONS),
			env,
			join(tmp, 'p2.json'),
			NODE_ARGS
		);
		if (result.code !== 0 || !result.probe.firstRequest) {
			throw new Error(`plan exited ${result.code}:\n${result.stderr.slice(-2000)}`);
		}
		const { user, system } = process.cpuUsage(serverCpu);
		const calls = arrivals.length;
		let chain = 0;
		for (const model of MODELS) {
			for (let r = 1; r <= REPETITIONS; r++) {
				const path = join(
					root,
					'AwN_gen',
					`run${r}`,
					await modelDirName(model),
					'interaction.jsonl'
				);
				const lines = (await readFile(path, 'utf8')).split('\n').filter(Boolean);
				chain = Math.max(chain, longestChain(lines.map((l) => JSON.parse(l))));
			}
		}
		const { idealMs, bound } = idealRun(calls, chain, CONCURRENCY);
		const wall = result.probe.exit.at - result.probe.firstRequest.at;
		const planRss = result.probe.maxRssKiB * 1024;
		const peak = result.probe.peak;
		if (peak) {
			const mib = (n: number) => `${Math.round(n / 2 ** 20)} MiB`;
			const at = ((peak.at - result.probe.firstRequest.at) / wall) * 100;
			process.stderr.write(
				`bench:   the plan's largest sampled RSS ${mib(peak.rss)} at ${at.toFixed(0)}% of its calls' wall: V8 heap ${mib(peak.heapUsed)} used of ${mib(peak.heapTotal)}, external ${mib(peak.external)}\n`
			);
		}
		const singleRss = single.probe.maxRssKiB * 1024;
		const bytes = await stageBytes(root);
		const label = `${MODELS.length} models × ${REPETITIONS} repetitions × ${CASES} cases, one endpoint at concurrency ${CONCURRENCY}`;
		return [
			{
				name: `plan wall / ideal, ${label} (${calls} calls, ideal ${(idealMs / 1000).toFixed(1)} s, ${bound})`,
				value: wall / idealMs,
				unit: '×',
				target: TARGET_WALL_VS_IDEAL
			},
			{
				name: 'plan CPU per call of the CLI after start-up',
				value: (result.probe.exit.cpuUs - result.probe.firstRequest.cpuUs) / 1000 / calls,
				unit: 'ms',
				target: null
			},
			...(result.probe.runDelayMs === null
				? []
				: [
						{
							name: "  time the CLI waited for a CPU (run queue: the machine's load) / its wall",
							value: result.probe.runDelayMs / (result.probe.exit.at - result.spawnedAt),
							unit: '×',
							target: null
						}
					]),
			{
				name: "  the fake provider's CPU per call (the bench's process, same machine)",
				value: (user + system) / 1000 / calls,
				unit: 'ms',
				target: null
			},
			{
				name: `plan peak RSS of the CLI, ${runs} runs (one run alone: ${Math.round(singleRss / 2 ** 20)} MiB)`,
				value: planRss / 2 ** 20,
				unit: 'MiB',
				target: null
			},
			{
				name: `plan peak RSS beyond one run's / the plan's stage files (${Math.round(bytes / 2 ** 20)} MiB)`,
				value: (planRss - singleRss) / bytes,
				unit: '×',
				target: TARGET_RSS_PER_RECORD_BYTE
			}
		];
	} finally {
		clearInterval(forget);
		await server.close();
		await rm(tmp, { recursive: true, force: true });
	}
}

export const planBench: BenchModule = { name: 'cli run plan', run: plan };
