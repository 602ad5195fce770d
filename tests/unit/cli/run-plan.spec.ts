/**
 * `lexpilot run` with a plan: 2 simulated models × 3 repetitions as one command writes, file
 * for file, what the six runs started one by one write; a plan killed mid-way (SIGKILL, the CLI
 * process) and started again completes with the same files; over HTTP, two models on one server
 * share its limit and models on two servers have one each; a plan file names its problems.
 */
import type { ChildProcess } from 'node:child_process';
import { comparableFiles } from '../../support/comparable-files';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelDirName } from '../../../src/lib/core/layout';
import { runCliAsProcess, runCliInProcess } from '../../cli/run-cli';
import { simulatedScript } from '../../engine/simulated-script';
import { byTask } from '../../fake-openai/by-task';
import { startFakeOpenAI, type FakeOpenAI, type Handler } from '../../fake-openai/server';
import { filesUnder } from '../faults/harness';

const DATASET = resolve('tests/fixtures/engine/three-cases.json');
const MODELS = ['simulated-strong', 'simulated-weak'];
let tmp: string;

beforeAll(async () => {
	tmp = await mkdtemp(join(tmpdir(), 'lexpilot-plan-cli-'));
});
afterAll(async () => {
	await rm(tmp, { recursive: true, force: true });
});

const base = (root: string) => ['run', '--dataset', DATASET, '--output-root', root];

/** Every file under `root` less what differs between two starts: times, call timings, locks. */
const comparable = async (root: string) => comparableFiles(await filesUnder(root));

describe('run with a plan (simulated)', { timeout: 120_000 }, () => {
	it('writes, file for file, what the six runs started one by one write', async () => {
		const together = join(tmp, 'together');
		const plan = await runCliInProcess([
			...base(together),
			'--simulated',
			...MODELS.flatMap((m) => ['--model', m]),
			'--repetitions',
			'3',
			'--run-id',
			'run'
		]);
		expect(plan.code, plan.stderr).toBe(0);
		for (const model of MODELS) {
			for (const id of ['run1', 'run2', 'run3']) {
				expect(plan.stdout).toContain(`  ${id}  ${model}: completed, 3 cases (started)`);
			}
		}
		const alone = join(tmp, 'alone');
		for (const model of MODELS) {
			for (const id of ['run1', 'run2', 'run3']) {
				const r = await runCliInProcess([
					...base(alone),
					'--simulated',
					'--model',
					model,
					'--run-id',
					id
				]);
				expect(r.code, r.stderr).toBe(0);
			}
		}
		const a = await comparable(together);
		expect(a).toEqual(await comparable(alone));
		// 6 runs × (11 stage files + manifest + seals): nothing missing on either side.
		expect([...a.keys()].filter((p) => p.endsWith('.jsonl')).length).toBe(6 * 10);
		// Repetitions differ a little, models clearly: not one file shared by two runs.
		const lca = await Promise.all(
			MODELS.flatMap((m) =>
				['run1', 'run2'].map(async (id) =>
					a.get(`eval_results/${id}/${await modelDirName(m)}/LCA_results.jsonl`)
				)
			)
		);
		expect(new Set(lca).size).toBe(4);
	});

	it('with one model and no --repetitions is the plain run, byte for byte', async () => {
		const root = join(tmp, 'single');
		const r = await runCliInProcess([...base(root), '--simulated', '--run-id', 'r1']);
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout).toMatch(/^Started run r1 of simulated \(simulated provider, offline\)/);
		expect(r.stdout).not.toContain('Plan of');
	});
});

describe('run with a plan over HTTP', { timeout: 120_000 }, () => {
	const servers: FakeOpenAI[] = [];
	afterAll(async () => {
		await Promise.all(servers.map((s) => s.close()));
	});

	/** A fake provider answering every task, slowly enough to overlap, counting calls in flight. */
	async function provider(delayMs: number | (() => number), onCall?: () => void) {
		const answer = byTask(simulatedScript);
		const meter = { inFlight: 0, max: 0 };
		const handler: Handler = async (req) => {
			onCall?.();
			meter.inFlight++;
			meter.max = Math.max(meter.max, meter.inFlight);
			try {
				const ms = typeof delayMs === 'number' ? delayMs : delayMs();
				await new Promise((r) => setTimeout(r, ms));
				return answer(req);
			} finally {
				meter.inFlight--;
			}
		};
		const server = await startFakeOpenAI({ handler });
		servers.push(server);
		return { server, meter };
	}

	it('two models on one server share its limit', async () => {
		const { server, meter } = await provider(5);
		const r = await runCliInProcess(
			[...base(join(tmp, 'http-shared')), '--model', 'm-a', '--model', 'm-b', '--run-id', 'r1'],
			{ env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'sk-plan-shared-0123456789' } }
		);
		expect(r.code, r.stderr).toBe(0);
		expect(meter.max).toBe(4);
	});

	it('models on two servers (a plan file) have a limit each', async () => {
		const a = await provider(15);
		const b = await provider(15);
		const shared = await provider(1);
		let both = 0;
		const sample = setInterval(() => {
			if (a.meter.inFlight === 2 && b.meter.inFlight === 2) both++;
		}, 2);
		const planFile = join(tmp, 'two-servers.json');
		await writeFile(
			planFile,
			JSON.stringify({
				run_id: 'r1',
				models: [
					{ model: 'm-a', base_url: a.server.baseURL, api_key_env: 'KEY_A' },
					{ model: 'm-b', base_url: b.server.baseURL, api_key_env: 'KEY_B' }
				]
			})
		);
		const root = join(tmp, 'http-two');
		const r = await runCliInProcess([...base(root), '--plan', planFile, '--concurrency', '2'], {
			env: {
				OPENAI_BASE_URL: shared.server.baseURL,
				KEY_A: 'sk-plan-a-0123456789abcdef',
				KEY_B: 'sk-plan-b-0123456789abcdef'
			}
		});
		clearInterval(sample);
		expect(r.code, r.stderr).toBe(0);
		expect([a.meter.max, b.meter.max]).toEqual([2, 2]);
		expect(both).toBeGreaterThan(0);
		// Each model's key went to its own server only, and no key is written anywhere.
		const auth = (s: FakeOpenAI) => new Set(s.chatRequests.map((q) => q.headers.authorization));
		expect(auth(a.server)).toEqual(new Set(['Bearer sk-plan-a-0123456789abcdef']));
		expect(auth(b.server)).toEqual(new Set(['Bearer sk-plan-b-0123456789abcdef']));
		for (const text of (await filesUnder(root)).values()) expect(text).not.toMatch(/sk-plan-/);
		const manifest = JSON.parse(
			await readFile(join(root, `runs/r1/${await modelDirName('m-b')}/manifest.json`), 'utf8')
		);
		expect(manifest.endpoints.evaluated).toBe(b.server.baseURL);
		expect(manifest.endpoints.judge).toBe(shared.server.baseURL);
	});

	it('killed mid-way (SIGKILL) and started again, completes with the same files', async () => {
		const args = (root: string) => [
			...base(root),
			'--model',
			'm-a',
			'--model',
			'm-b',
			'--repetitions',
			'3',
			'--run-id',
			'run',
			'--concurrency',
			'2'
		];
		const root = join(tmp, 'kill');
		const dir = await modelDirName('m-a');
		let child: ChildProcess | null = null;
		let slow = false;
		let killed = false;
		// One server for all three starts (the endpoint is part of each manifest); while `slow`,
		// it kills the CLI on the first call after a run has a whole interaction saved.
		const { server } = await provider(
			() => (slow ? 20 : 2),
			() => {
				if (!slow || killed) return;
				void readFile(join(root, `AwN_gen/run1/${dir}/interaction.jsonl`), 'utf8')
					.then((text) => {
						if (!killed && text.includes('\n')) {
							killed = true;
							child?.kill('SIGKILL');
						}
					})
					.catch(() => {});
			}
		);
		const env = { OPENAI_BASE_URL: server.baseURL };
		const clean = join(tmp, 'kill-clean');
		expect((await runCliInProcess(args(clean), { env })).code).toBe(0);

		slow = true;
		const first = await runCliAsProcess(args(root), env, (c) => {
			child = c;
		});
		slow = false;
		expect(killed).toBe(true);
		expect(first.code).toBe(128 + 9);
		const partial = await comparable(root);
		expect(partial.size).toBeLessThan((await comparable(clean)).size);

		const again = await runCliInProcess(args(root), { env });
		expect(again.code, again.stdout).toBe(0);
		expect(again.stdout).toContain('6 of 6 completed');
		expect(again.stdout).toMatch(/run1 {2}m-a: completed, 3 cases \(resumed\)/);
		expect(await comparable(root)).toEqual(await comparable(clean));
	});
});

describe('run --plan FILE names the place of a problem', () => {
	it.each([
		[
			{ models: ['m'], run_id: 'r', api_key: 'sk-x' },
			'api_key: keys are never written in a plan file'
		],
		[{ models: [{ model: 'm', key: 'sk-x' }] }, 'models[0].key: keys are never written'],
		[{ models: [] }, 'models: '],
		[{ models: ['m'], repetitions: 11 }, 'repetitions: '],
		[{ models: [{ model: 'm', base_url: 'ftp://x' }], run_id: 'r' }, 'models[0].base_url '],
		[
			{ models: [{ model: 'm', api_key_env: 'NOPE_UNSET' }], run_id: 'r' },
			'models[0].api_key_env: the environment variable NOPE_UNSET is not set'
		],
		[{ models: ['m', 'm'], run_id: 'r' }, 'bad-plan.json: models[1]: "m" is named twice'],
		// A variable name that is also a method of every object is looked up in the environment only.
		...['constructor', '__proto__', 'toString', 'hasOwnProperty'].map((name): [unknown, string] => [
			{ models: ['m', { model: 'n', api_key_env: name }], run_id: 'r' },
			`bad-plan.json: models[1].api_key_env: the environment variable ${name} is not set`
		]),
		[{ models: ['m'], extra: 1 }, 'Unrecognized key']
	])('%j', async (plan, says) => {
		const file = join(tmp, 'bad-plan.json');
		await writeFile(file, JSON.stringify(plan));
		const root = join(tmp, 'bad-plan-out');
		const r = await runCliInProcess([...base(root), '--plan', file, '--run-id', 'r']);
		expect(r.code).toBe(2);
		expect(r.stderr).toContain(says);
		await expect(readFile(join(root, 'runs'))).rejects.toMatchObject({ code: 'ENOENT' });
	});
});

describe('a plan is refused where it was written, in one line', () => {
	it.each([
		['a/b', 'run_id "a/b" cannot be used as a folder name'],
		['..', 'run_id ".." cannot be used as a folder name'],
		['a\\b', 'run_id "a\\b" cannot be used as a folder name']
	])('a plan file run_id %j names the file and the field, not --run-id', async (runId, says) => {
		const file = join(tmp, 'run-id-plan.json');
		await writeFile(file, JSON.stringify({ models: ['m'], run_id: runId }));
		const root = join(tmp, 'run-id-plan-out');
		const r = await runCliInProcess([...base(root), '--simulated', '--plan', file]);
		expect(r.code).toBe(2);
		expect(r.stderr).toBe(
			`error: --plan ${file}: ${says}: use letters, digits, ".", "_" and "-", starting with a letter or digit, at most 64 characters\n`
		);
		await expect(readFile(join(root, 'runs'))).rejects.toMatchObject({ code: 'ENOENT' });
	});

	it('--model named twice says --model and the model', async () => {
		const r = await runCliInProcess([
			...base(join(tmp, 'twice')),
			'--simulated',
			'--model',
			'a',
			'--model',
			'a',
			'--run-id',
			'r'
		]);
		expect(r.code).toBe(2);
		expect(r.stderr).toBe(
			'error: --model: "a" is named twice; each model of a plan is run once per repetition\n'
		);
	});

	it.each([
		['--repetitions', '-1', 'error: --repetitions must be a whole number from 1 to 10, got -1\n'],
		['--limit', '-5', 'error: --limit must be a whole number from 1 to 1000000, got -5\n'],
		[
			'--run-id',
			'-r',
			'error: --run-id needs a value; "-r" starts with "-" (write --run-id=-r if that is the value)\n'
		]
	])('%s %s says what the flag takes, in one line (no parser text)', async (flag, value, says) => {
		const args = [...base(join(tmp, 'dash')), '--simulated', '--model', 'a', '--model', 'b'];
		const r = await runCliInProcess([...args, '--run-id', 'r', flag, value]);
		expect(r.code).toBe(2);
		expect(r.stderr).toBe(says);
	});

	it('thousands of --model flags are refused before anything runs (the CLI process)', async () => {
		const root = join(tmp, 'thousands');
		const models = Array.from({ length: 3000 }, (_, i) => ['--model', `m${i}`]).flat();
		const r = await runCliAsProcess(
			[...base(root), '--simulated', ...models, '--repetitions', '10', '--run-id', 'r'],
			{}
		);
		expect(r.code).toBe(2);
		expect(r.stderr).toBe(
			'error: --model is given 3000 times: a plan runs at most 50 models (500 runs with ' +
				'--repetitions 10); split the models over several plans\n'
		);
		await expect(readFile(join(root, 'runs'))).rejects.toMatchObject({ code: 'ENOENT' });
	});

	it('50 models are a plan', async () => {
		const models = Array.from({ length: 50 }, (_, i) => ['--model', `m${i}`]).flat();
		const r = await runCliInProcess([
			...base(join(tmp, 'fifty')),
			'--simulated',
			...models,
			'--run-id',
			'r',
			'--repetitions',
			'0'
		]);
		// Within the bound: the plan's next check (the repetitions) is what refuses it.
		expect(r.stderr).toBe('error: --repetitions must be a whole number from 1 to 10, got 0\n');
	});
});
