/**
 * A run plan (2 models × 2 repetitions) in batch mode through the CLI process, against the fake
 * provider: provider mode and files mode (the cluster played by the fake server, every run's
 * outputs imported by ONE `batch import`) write, file by file, the records, manifests (apart from
 * `mode` and times) and call logs (apart from timing) of the same plan run interactively; a
 * process killed with SIGKILL between rounds starts again without any request sent twice; an
 * import with a line of a run outside the plan is refused by file and line, nothing saved.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { modelDirName } from '../../../src/lib/core/layout';
import { simulatedScript } from '../../engine/simulated-script';
import { answerBatchText } from '../../fake-openai/answer-batch';
import { byTask } from '../../fake-openai/by-task';
import type { FakeBatchOptions } from '../../fake-openai/batches';
import { startFakeOpenAI, type FakeOpenAI } from '../../fake-openai/server';
import { runCliAsProcess, type CliResult } from '../../cli/run-cli';
import { filesUnder } from '../faults/harness';
import {
	callLinesLessTiming,
	expectEachSentOnce,
	KILL_POINTS,
	manifestLessTimes,
	type StateLike
} from './batch-compare';

const DATASET = resolve('tests/fixtures/engine/three-cases.json');
const MODELS = ['model-a', 'model-b'];
const RUNS = ['run1', 'run2'];
let tmp: string;
const servers: FakeOpenAI[] = [];
beforeAll(async () => {
	tmp = await mkdtemp(join(tmpdir(), 'lexpilot-plan-batch-cli-'));
});
afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(async () => {
	await rm(tmp, { recursive: true, force: true });
});

async function serve(batch: FakeBatchOptions = {}) {
	const server = await startFakeOpenAI({
		handler: byTask(simulatedScript),
		batch: { delayMs: 5, ...batch }
	});
	servers.push(server);
	return server;
}

const env = (server: FakeOpenAI) => ({
	OPENAI_BASE_URL: server.baseURL,
	OPENAI_API_KEY: 'sk-plan-batch-0123456789',
	LEXPILOT_BATCH_POLL_MS: '10'
});
/** The plan's flags: 2 models × 2 repetitions, run ids run1 and run2. */
const planFlags = (models = MODELS) => [
	...models.flatMap((m) => ['--model', m]),
	'--repetitions',
	'2',
	'--run-id',
	'run'
];
const planArgs = (root: string, ...extra: string[]) => [
	'run',
	'--dataset',
	DATASET,
	'--output-root',
	root,
	...planFlags(),
	...extra
];

/** Every file of every run: stage files as written, manifests less times and `mode`, call logs less timing. */
async function records(root: string): Promise<Record<string, string>> {
	const out: Record<string, string> = {};
	for (const [path, text] of await filesUnder(root)) {
		if (path.includes('batch') || path.includes('.lock') || path.includes('.resume-seals'))
			continue;
		if (path.endsWith('calls.jsonl')) out[path] = callLinesLessTiming(text).join('\n');
		else if (path.endsWith('manifest.json')) out[path] = manifestLessTimes(text);
		else out[path] = text;
	}
	return out;
}

/** The plan run interactively: its records, and how many requests it made. */
async function interactive(server: FakeOpenAI) {
	const root = join(tmp, `interactive-${Date.now()}`);
	const before = server.chatRequests.length;
	const r = await runCliAsProcess(planArgs(root), env(server));
	expect(r.code, r.stderr).toBe(0);
	return { expected: await records(root), asked: server.chatRequests.length - before };
}

/** Every run's saved round state, as JSON. */
async function states(root: string) {
	const out = [];
	for (const model of MODELS) {
		for (const runId of RUNS) {
			const path = join(root, 'runs', runId, await modelDirName(model), 'batch', 'state.json');
			const text = await readFile(path, 'utf8').catch(() => null);
			out.push(text ? (JSON.parse(text) as StateLike) : null);
		}
	}
	return out;
}

describe('a plan in batch mode, provider (CLI process)', { timeout: 180_000 }, () => {
	it("writes the interactive plan's files, each request sent once; prints each run's rounds", async () => {
		const server = await serve();
		const { expected, asked } = await interactive(server);
		const root = join(tmp, 'provider');
		const r = await runCliAsProcess(planArgs(root, '--batch', 'provider'), env(server));
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout).toContain(
			`Plan of 4 runs in batch mode (provider) under ${root}: 4 completed, 0 waiting for their outputs, 0 stopped`
		);
		for (const model of MODELS) {
			for (const runId of RUNS) {
				expect(r.stderr).toMatch(new RegExp(`^${runId} ${model}: batch: round 2 submitted, `, 'm'));
				expect(r.stdout).toMatch(
					new RegExp(
						`^  ${runId} ${model}: completed, 3 cases \\((\\d+) rounds; longest chain of dependent calls \\1\\)$`,
						'm'
					)
				);
			}
		}
		expect(await records(root)).toEqual(expected);
		expectEachSentOnce(server, asked);

		const status = await runCliAsProcess(
			['batch', 'status', '--output-root', root, ...planFlags()],
			env(server)
		);
		expect(status.code, status.stderr).toBe(0);
		for (const model of MODELS) {
			for (const runId of RUNS) {
				expect(status.stdout).toContain(`${runId}/${await modelDirName(model)}: `);
			}
		}
		expect(status.stdout.match(/, none out\n/g)).toHaveLength(4);
	});

	it('--plan FILE: each run sends through its own endpoint with its own key', async () => {
		const shared = await serve();
		const own = await serve();
		const plan = join(tmp, 'plan.json');
		await writeFile(
			plan,
			JSON.stringify({
				run_id: 'run',
				repetitions: 2,
				models: ['model-a', { model: 'model-b', base_url: own.baseURL, api_key_env: 'KEY_B' }]
			})
		);
		const keyB = 'sk-model-b-only-0123456789';
		const planEnv = { ...env(shared), KEY_B: keyB };
		const args = (root: string, ...extra: string[]) => [
			'run',
			'--dataset',
			DATASET,
			'--output-root',
			root,
			'--plan',
			plan,
			...extra
		];
		const live = join(tmp, 'plan-interactive');
		expect((await runCliAsProcess(args(live), planEnv)).code).toBe(0);
		const root = join(tmp, 'plan-provider');
		const r = await runCliAsProcess(args(root, '--batch', 'provider'), planEnv);
		expect(r.code, r.stderr).toBe(0);
		expect(await records(root)).toEqual(await records(live));
		// model-b's own server got model-b's requests alone, under its own key.
		expect(own.batches.lines.length).toBeGreaterThan(0);
		expect(own.batches.lines.every((l) => (l.body as { model: string }).model === 'model-b')).toBe(
			true
		);
		expect(
			shared.batches.lines.some((l) => (l.body as { model: string }).model === 'model-b')
		).toBe(false);
		const batchCalls = own.requests.filter((q) => /\/(files|batches)/.test(q.url));
		expect(batchCalls.length).toBeGreaterThan(0);
		expect(batchCalls.every((q) => q.headers.authorization === `Bearer ${keyB}`)).toBe(true);
		expect(shared.requests.some((q) => q.headers.authorization === `Bearer ${keyB}`)).toBe(false);
		expect(JSON.stringify(await filesUnder(root))).not.toContain(keyB);
	});

	it.each(KILL_POINTS)(
		'killed with SIGKILL %s, started again: nothing sent twice, same files',
		async (_when, at) => {
			const server = await serve({ delayMs: 200 });
			const { expected, asked } = await interactive(server);
			const root = join(tmp, `killed-${Date.now()}`);
			const killed = await runCliAsProcess(
				planArgs(root, '--batch', 'provider'),
				env(server),
				(child) => {
					const watch = async () => {
						while (!(await states(root)).some((s) => s && at(s))) {
							await new Promise((r) => setTimeout(r, 10));
						}
					};
					void watch().then(() => child.kill('SIGKILL'));
				}
			);
			expect(killed.code).toBe(137);
			const again = await runCliAsProcess(planArgs(root, '--batch', 'provider'), env(server));
			expect(again.code, again.stdout + again.stderr).toBe(0);
			expect(await records(root)).toEqual(expected);
			expectEachSentOnce(server, asked);
		}
	);
});

/** The `vllm run-batch -i IN -o OUT` lines printed: every input file and its output. */
function vllmFiles(stdout: string) {
	return [...stdout.matchAll(/^ {2}vllm run-batch -i (\S+) -o (\S+) --model \S+$/gm)].map((m) => ({
		input: m[1],
		output: m[2]
	}));
}

describe('a plan in batch mode, files (CLI process)', { timeout: 180_000 }, () => {
	it("writes every run's rounds, continues with ONE import a round: the interactive plan's files", async () => {
		const server = await serve();
		const { expected } = await interactive(server);
		const root = join(tmp, 'files');
		let r: CliResult = await runCliAsProcess(planArgs(root, '--batch', 'files'), env(server));
		let rounds = 0;
		while (r.code === 3) {
			rounds++;
			expect(r.stdout).toMatch(/4 runs in batch mode \(files\) .*: 0 completed, [1-4] waiting/);
			const files = vllmFiles(r.stdout);
			expect(files.length).toBeGreaterThan(0);
			for (const f of files) {
				await writeFile(
					f.output,
					await answerBatchText(server.baseURL, await readFile(f.input, 'utf8'))
				);
			}
			const imports = [...r.stdout.matchAll(/^ {2}npx lexpilot (batch import .*)$/gm)];
			expect(imports).toHaveLength(1);
			const command = imports[0][1].split(' ');
			expect(command.filter((w) => w.endsWith('.output.jsonl')).sort()).toEqual(
				files.map((f) => f.output).sort()
			);
			r = await runCliAsProcess(command, env(server));
			expect(r.stdout).toMatch(/^run1 model-a: imported \d+ answers of round \d+$/m);
		}
		expect(r.code, r.stderr).toBe(0);
		expect(rounds).toBeGreaterThan(2);
		expect(r.stdout).toContain('4 completed, 0 waiting for their outputs, 0 stopped');
		expect(await records(root)).toEqual(expected);
	});

	it("an import stopped between two runs' saves resumes by the same command", async () => {
		const server = await serve();
		const { expected } = await interactive(server);
		const root = join(tmp, 'resumed');
		const importOf = (stdout: string) =>
			/^ {2}npx lexpilot (batch import .*)$/m.exec(stdout)![1].split(' ');
		const answer = async (stdout: string) => {
			const lines = new Map<string, number>();
			for (const f of vllmFiles(stdout)) {
				const text = await answerBatchText(server.baseURL, await readFile(f.input, 'utf8'));
				lines.set(f.output, text.split('\n').filter(Boolean).length);
				await writeFile(f.output, text);
			}
			return lines;
		};
		const written = await runCliAsProcess(planArgs(root, '--batch', 'files'), env(server));
		expect(written.code, written.stderr).toBe(3);
		const lines = await answer(written.stdout);
		const command = importOf(written.stdout);
		// The import saved run1 model-a's round 1, then stopped before the other runs' saves: made
		// by importing run1 model-a's output alone, and its state put back as that stop leaves it
		// (round 1 answered, no later round written).
		const dirA = join('run1', await modelDirName('model-a'));
		const mine = (w: string) => !w.endsWith('.output.jsonl') || w.includes(dirA);
		const part = await runCliAsProcess(command.filter(mine), env(server));
		expect(part.code, part.stderr).toBe(3);
		expect(part.stdout).toMatch(/^run1 model-a: imported \d+ answers of round 1$/m);
		const statePath = join(root, 'runs', dirA, 'batch', 'state.json');
		const state = JSON.parse(await readFile(statePath, 'utf8')) as StateLike;
		state.rounds = state.rounds.filter((r) => r.round === 1);
		await writeFile(statePath, JSON.stringify(state));

		let r = await runCliAsProcess(command, env(server));
		expect(r.code, r.stderr).toBe(3);
		expect(r.stderr).not.toContain('belongs to another run');
		const taken = [...lines].filter(([f]) => f.includes(dirA)).reduce((n, [, l]) => n + l, 0);
		expect(r.stdout).toContain(
			`run1 model-a: already imported: round 1 (${taken} lines taken before; nothing saved again)\n`
		);
		for (const name of ['run2 model-a', 'run1 model-b', 'run2 model-b']) {
			expect(r.stdout).toMatch(new RegExp(`^${name}: imported \\d+ answers of round 1$`, 'm'));
		}
		while (r.code === 3) {
			await answer(r.stdout);
			r = await runCliAsProcess(importOf(r.stdout), env(server));
		}
		expect(r.code, r.stderr).toBe(0);
		expect(await records(root)).toEqual(expected);
	});

	it('refuses an import with a line of a run outside the plan, by file and line; nothing saved', async () => {
		const server = await serve();
		const root = join(tmp, 'outside');
		const r = await runCliAsProcess(planArgs(root, '--batch', 'files'), env(server));
		expect(r.code, r.stderr).toBe(3);
		// One output file of every run's round 1, model-b's runs last.
		const files = vllmFiles(r.stdout);
		const dirB = await modelDirName('model-b');
		const sorted = [...files].sort(
			(a, b) => Number(a.input.includes(dirB)) - Number(b.input.includes(dirB))
		);
		let text = '';
		let linesOfA = 0;
		for (const f of sorted) {
			const answered = await answerBatchText(server.baseURL, await readFile(f.input, 'utf8'));
			text += answered;
			if (!f.input.includes(dirB)) linesOfA += answered.split('\n').filter(Boolean).length;
		}
		const output = join(tmp, 'all.output.jsonl');
		await writeFile(output, text);
		const before = await states(root);
		// The plan named is model-a's alone: model-b's lines belong to runs outside it.
		const got = await runCliAsProcess(
			[
				'batch',
				'import',
				output,
				'--dataset',
				DATASET,
				'--output-root',
				root,
				...planFlags(['model-a'])
			],
			env(server)
		);
		expect(got.code).toBe(2);
		expect(got.stderr).toMatch(
			new RegExp(
				`all\\.output\\.jsonl, line ${linesOfA + 1}: custom_id lp1\\.\\S+ belongs to another run`
			)
		);
		expect(await states(root)).toEqual(before);
		for (const model of MODELS) {
			for (const runId of RUNS) {
				const dir = join(root, 'runs', runId, await modelDirName(model), 'batch');
				expect(existsSync(join(dir, 'answers.jsonl'))).toBe(false);
			}
		}
	});
});
