/**
 * Batch mode through the CLI process (`node bin/lexpilot.js`), against the fake provider: a
 * whole run in provider mode and in files mode writes the records of the interactive run; a
 * process killed with SIGKILL while a round is submitted, or between rounds, starts again
 * without any request sent twice; expired and failed requests are retried in a later round;
 * `batch import` refuses a torn, a foreign and a duplicated output file by name and line and
 * saves nothing; `batch status` says where the rounds stand.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { modelDirName } from '../../../src/lib/core/layout';
import { simulatedScript } from '../../engine/simulated-script';
import { answerBatchText } from '../../fake-openai/answer-batch';
import { byTask } from '../../fake-openai/by-task';
import type { FakeBatchOptions } from '../../fake-openai/batches';
import { startFakeOpenAI, type FakeOpenAI, type Handler } from '../../fake-openai/server';
import { runCliAsProcess, runCliInProcess, type CliResult } from '../../cli/run-cli';
import { filesUnder } from '../faults/harness';
import {
	expectEachSentOnce,
	KILL_POINTS,
	manifestLessTimes,
	type StateLike
} from './batch-compare';

const DATASET = resolve('tests/fixtures/engine/three-cases.json');
const MODEL = 'eval-model';
let tmp: string;
const servers: FakeOpenAI[] = [];
beforeAll(async () => {
	tmp = await mkdtemp(join(tmpdir(), 'lexpilot-batch-cli-'));
});
afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(async () => {
	await rm(tmp, { recursive: true, force: true });
});

async function serve(handler: Handler = byTask(simulatedScript), batch: FakeBatchOptions = {}) {
	const server = await startFakeOpenAI({ handler, batch: { delayMs: 5, ...batch } });
	servers.push(server);
	return server;
}

const env = (server: FakeOpenAI) => ({
	OPENAI_BASE_URL: server.baseURL,
	OPENAI_API_KEY: 'sk-batch-cli-0123456789',
	LEXPILOT_BATCH_POLL_MS: '10'
});
const runArgs = (root: string, ...extra: string[]) => [
	'run',
	'--dataset',
	DATASET,
	'--output-root',
	root,
	'--run-id',
	'r1',
	'--model',
	MODEL,
	...extra
];

/** Every stage file's bytes, and the manifest less its times and `mode`. */
async function records(root: string): Promise<Record<string, string>> {
	const out: Record<string, string> = {};
	for (const [path, text] of await filesUnder(root)) {
		if (path.includes('batch') || path.endsWith('calls.jsonl') || path.includes('.lock')) continue;
		if (path.includes('.resume-seals')) continue;
		out[path] = path.endsWith('manifest.json') ? manifestLessTimes(text) : text;
	}
	return out;
}

async function interactive(server: FakeOpenAI): Promise<Record<string, string>> {
	const root = join(tmp, `interactive-${servers.indexOf(server)}-${Date.now()}`);
	const r = await runCliAsProcess(runArgs(root), env(server));
	expect(r.code, r.stderr).toBe(0);
	return records(root);
}

const batchFolder = async (root: string) =>
	join(root, 'runs', 'r1', await modelDirName(MODEL), 'batch');

/** Waits (polling the file) until the run's saved state satisfies `ok`. */
async function waitForState(root: string, ok: (state: StateLike) => boolean): Promise<void> {
	const path = join(await batchFolder(root), 'state.json');
	for (;;) {
		const text = await readFile(path, 'utf8').catch(() => null);
		if (text && ok(JSON.parse(text))) return;
		await new Promise((r) => setTimeout(r, 10));
	}
}

describe('run --batch provider (CLI process)', { timeout: 120_000 }, () => {
	it("writes the interactive run's records, each request sent once; batch status reads the rounds", async () => {
		const server = await serve();
		const expected = await interactive(server);
		const asked = server.chatRequests.length;
		const root = join(tmp, 'provider');
		const r = await runCliAsProcess(runArgs(root, '--batch', 'provider'), env(server));
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout).toMatch(/Completed run r1 of eval-model in batch mode/);
		const [, rounds, chain] = /Batch: (\d+) rounds; longest chain of dependent calls (\d+)/.exec(
			r.stdout
		)!;
		expect(Number(rounds)).toBe(Number(chain));
		expect(Number(rounds)).toBeGreaterThan(2);
		expect(await records(root)).toEqual(expected);
		expectEachSentOnce(server, asked);

		const status = await runCliAsProcess(['batch', 'status', '--output-root', root], {});
		expect(status.code, status.stderr).toBe(0);
		expect(status.stdout).toContain(`r1/${await modelDirName(MODEL)}: ${rounds} rounds, none out`);
		expect(status.stdout).toMatch(/round 1 +answered +provider +sent 20\d\d-.* \d+ requests/);
		expect(status.stdout).toMatch(
			/round-1\/127_0_0_1_\d+-eval-model-[0-9a-f]{8}-0\.jsonl {2}eval-model {2}\d+ lines {2}\d+ bytes {2}batch batch_1 completed/
		);
	});

	it.each(KILL_POINTS)(
		'killed with SIGKILL %s, started again: nothing sent twice, same records',
		async (_when, at) => {
			const server = await serve(byTask(simulatedScript), { delayMs: 300 });
			const expected = await interactive(server);
			const asked = server.chatRequests.length;
			const root = join(tmp, `killed-${Date.now()}`);
			const killed = await runCliAsProcess(
				runArgs(root, '--batch', 'provider'),
				env(server),
				(child) => {
					void waitForState(root, at).then(() => child.kill('SIGKILL'));
				}
			);
			expect(killed.code).toBe(137);
			const again = await runCliAsProcess(runArgs(root, '--batch', 'provider'), env(server));
			expect(again.code, again.stderr).toBe(0);
			expect(await records(root)).toEqual(expected);
			expectEachSentOnce(server, asked);
		}
	);

	it('killed with SIGKILL while a round is uploaded, started again: no upload left unused at the provider, same records', async () => {
		const server = await serve(byTask(simulatedScript), { delayMs: 300 });
		const expected = await interactive(server);
		const asked = server.chatRequests.length;
		const root = join(tmp, `killed-upload-${Date.now()}`);
		const uploading = (s: StateLike) =>
			s.rounds.some((r) => r.round === 2 && r.files.some((f) => f.sha256 && !f.file_id));
		const killed = await runCliAsProcess(
			runArgs(root, '--batch', 'provider'),
			env(server),
			(child) => {
				void waitForState(root, uploading).then(() => child.kill('SIGKILL'));
			}
		);
		expect(killed.code).toBe(137);
		const again = await runCliAsProcess(runArgs(root, '--batch', 'provider'), env(server));
		expect(again.code, again.stderr).toBe(0);
		expect(await records(root)).toEqual(expected);
		expectEachSentOnce(server, asked);
		const used = new Set([...server.batches.batches.values()].map((b) => b.input_file_id));
		const unused = [...server.batches.files.values()].filter(
			(f) => f.purpose === 'batch' && !used.has(f.id)
		);
		expect(unused).toEqual([]);
	});

	it('--batch-max-tokens cuts each round into batches under the budget, one at a time a model: the same records', async () => {
		const server = await serve();
		const expected = await interactive(server);
		const asked = server.chatRequests.length;
		const root = join(tmp, 'budget');
		const budget = 30_000;
		const r = await runCliAsProcess(
			runArgs(root, '--batch', 'provider', '--batch-max-tokens', String(budget)),
			env(server)
		);
		expect(r.code, r.stderr).toBe(0);
		expect(await records(root)).toEqual(expected);
		expectEachSentOnce(server, asked);
		const batches = [...server.batches.batches.values()];
		const state = JSON.parse(await readFile(join(await batchFolder(root), 'state.json'), 'utf8'));
		expect(batches.length).toBeGreaterThan(state.rounds.length * 2);
		for (const batch of batches) {
			const input = server.batches.files.get(batch.input_file_id)!;
			const lines = input.bytes.toString('utf8').split('\n').filter(Boolean);
			const tokens = lines
				.map((l) => JSON.parse(l).body)
				.reduce(
					(sum, body) =>
						sum +
						body.max_tokens +
						body.messages.reduce((n: number, m: { content: string }) => n + m.content.length, 0),
					0
				);
			expect(tokens, batch.id).toBeLessThanOrEqual(budget);
		}
		// One model's batches one at a time: each made after the one before it was done.
		const byFile = (id: string) => server.batches.files.get(id)!.filename;
		const group = (b: (typeof batches)[number]) =>
			byFile(b.input_file_id).replace(/-\d+-[0-9a-f]{16}\.jsonl$/, '');
		const lineOrder = server.batches.lines.map((l) => l.batchId);
		for (const [i, b] of batches.entries()) {
			const next = batches.slice(i + 1).find((n) => group(n) === group(b));
			if (next) expect(lineOrder.lastIndexOf(b.id)).toBeLessThan(lineOrder.indexOf(next.id));
		}
	});

	it('--batch-max-tokens: a budget that is not a whole number of tokens, or one request over it, is refused by name', async () => {
		const server = await serve();
		const root = join(tmp, 'budget-bad');
		const bad = await runCliAsProcess(
			runArgs(root, '--batch', 'provider', '--batch-max-tokens', '5e3'),
			env(server)
		);
		expect(bad.code).toBe(2);
		expect(bad.stderr).toContain(
			'--batch-max-tokens: "5e3" is not a budget; give a whole number of tokens from 1000 to 10000000000'
		);
		const over = await runCliAsProcess(
			runArgs(root, '--batch', 'provider', '--batch-max-tokens', '8000'),
			env(server)
		);
		expect(over.code).toBe(2);
		expect(over.stderr).toMatch(
			/one request is about \d+ enqueued tokens \(its prompt's characters plus its max_tokens\), more than the batch token budget \(8000, --batch-max-tokens\) lets one batch hold: raise the budget/
		);
		expect(server.batches.files.size).toBe(0);
	});

	it('stopped (Ctrl+C) while a round is out: says so, and the same command polls it', async () => {
		const server = await serve(byTask(simulatedScript), { delayMs: 300 });
		const expected = await interactive(server);
		const asked = server.chatRequests.length;
		const root = join(tmp, 'stopped');
		const stop = new AbortController();
		void waitForState(root, (s) => s.rounds.some((r) => r.files.some((f) => f.batch_id))).then(() =>
			stop.abort()
		);
		const stopped = await runCliInProcess(runArgs(root, '--batch', 'provider'), {
			env: env(server),
			signal: stop.signal
		});
		expect(stopped.code).toBe(1);
		expect(stopped.stderr).toContain('the same command polls it instead of sending it again');
		const again = await runCliAsProcess(runArgs(root, '--batch', 'provider'), env(server));
		expect(again.code, again.stderr).toBe(0);
		expect(await records(root)).toEqual(expected);
		expectEachSentOnce(server, asked);
	});

	it('asks expired and failed requests again in a later round', async () => {
		const seen = new Set<string>();
		const clean = byTask(simulatedScript);
		const flaky: Handler = (request) => {
			const first = !seen.has(request.prompt);
			seen.add(request.prompt);
			return first && seen.size % 4 === 1
				? { status: 500, body: { error: { message: 'boom' } } }
				: clean(request);
		};
		const server = await serve(flaky, { expire: (i) => i === 1 });
		const root = join(tmp, 'flaky');
		const r = await runCliAsProcess(runArgs(root, '--batch', 'provider'), env(server));
		expect(r.code, r.stderr).toBe(0);
		const answers = (await readFile(join(await batchFolder(root), 'answers.jsonl'), 'utf8'))
			.split('\n')
			.filter(Boolean)
			.map((l) => JSON.parse(l));
		expect(answers.some((a) => a.error?.code === 'batch_expired')).toBe(true);
		expect(answers.some((a) => a.response?.status_code === 500)).toBe(true);
		const clean2 = await serve(clean);
		const expected = await interactive(clean2);
		const mine = await records(root);
		for (const path of Object.keys(expected).filter((p) => !p.endsWith('manifest.json'))) {
			expect(mine[path], path).toBe(expected[path]);
		}
	});
});

/** The round's input files written under the batch folder, and the outputs to write. */
async function roundFiles(root: string, round: number) {
	const dir = join(root, 'batch-rounds', 'r1', await modelDirName(MODEL), `round-${round}`);
	const inputs = (await readdir(dir)).filter((f) => !f.endsWith('.output.jsonl'));
	return inputs.map((f) => ({
		input: join(dir, f),
		output: join(dir, f.replace(/\.jsonl$/, '.output.jsonl'))
	}));
}

describe('run --batch files and batch import (CLI process)', { timeout: 120_000 }, () => {
	it('writes a round, exits 3 with what to run, imports outputs round by round: the interactive records', async () => {
		const server = await serve();
		const expected = await interactive(server);
		const root = join(tmp, 'files');
		let r: CliResult = await runCliAsProcess(runArgs(root, '--batch', 'files'), env(server));
		let round = 1;
		while (r.code === 3) {
			expect(r.stdout).toContain(`Round ${round} is written`);
			expect(r.stdout).toMatch(
				/vllm run-batch -i \S+round-\d+\/\S+-0\.jsonl -o \S+-0\.output\.jsonl --model \S+/
			);
			const files = await roundFiles(root, round);
			for (const f of files)
				await writeFile(
					f.output,
					await answerBatchText(server.baseURL, await readFile(f.input, 'utf8'))
				);
			const command = /npx lexpilot (batch import .*)$/m.exec(r.stdout)![1].split(' ');
			expect(command.filter((w) => w.endsWith('.output.jsonl')).sort()).toEqual(
				files.map((f) => f.output).sort()
			);
			r = await runCliAsProcess(command, env(server));
			expect(r.stdout).toContain(`Imported`);
			round++;
		}
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout).toContain(
			`Batch: ${round - 1} rounds; longest chain of dependent calls ${round - 1}`
		);
		expect(await records(root)).toEqual(expected);
	});

	it('importing twice is harmless: the same import again says the round is already imported and goes on', async () => {
		const server = await serve();
		const expected = await interactive(server);
		const root = join(tmp, 'twice');
		const importOf = (stdout: string) =>
			/npx lexpilot (batch import .*)$/m.exec(stdout)![1].split(' ');
		const answer = async (round: number) => {
			let lines = 0;
			for (const f of await roundFiles(root, round)) {
				const text = await answerBatchText(server.baseURL, await readFile(f.input, 'utf8'));
				lines += text.split('\n').filter(Boolean).length;
				await writeFile(f.output, text);
			}
			return lines;
		};
		const written = await runCliAsProcess(runArgs(root, '--batch', 'files'), env(server));
		expect(written.code, written.stderr).toBe(3);
		const lines = await answer(1);
		const command = importOf(written.stdout);
		const imported = await runCliAsProcess(command, env(server));
		expect(imported.code, imported.stderr).toBe(3);
		expect(imported.stdout).toMatch(/^Imported \d+ answers of round 1$/m);
		const next = importOf(imported.stdout);
		const answers = join(await batchFolder(root), 'answers.jsonl');
		const saved = await readFile(answers, 'utf8');
		const already = `Already imported: round 1 (${lines} lines taken before; nothing saved again)\n`;

		// The same import again (a crash before its message was printed): round 2 still waits.
		const again = await runCliAsProcess(command, env(server));
		expect(again.code, again.stderr).toBe(3);
		expect(again.stdout).toContain(already);
		expect(again.stderr).not.toContain('was not asked');
		expect(importOf(again.stdout)).toEqual(next);
		expect(await readFile(answers, 'utf8')).toBe(saved);

		// Stopped after round 1 was imported and before round 2 was written (the state such a
		// crash leaves): the same import writes round 2.
		const statePath = join(await batchFolder(root), 'state.json');
		const state = JSON.parse(await readFile(statePath, 'utf8')) as StateLike;
		state.rounds = state.rounds.filter((r) => r.round === 1);
		await writeFile(statePath, JSON.stringify(state));
		let r = await runCliAsProcess(command, env(server));
		expect(r.code, r.stderr).toBe(3);
		expect(r.stdout).toContain(already);
		expect(importOf(r.stdout)).toEqual(next);
		expect(await readFile(answers, 'utf8')).toBe(saved);

		// And on to the interactive records.
		for (let round = 2; r.code === 3; round++) {
			await answer(round);
			r = await runCliAsProcess(importOf(r.stdout), env(server));
		}
		expect(r.code, r.stderr).toBe(0);
		expect(await records(root)).toEqual(expected);
	});

	it('refuses a device or a folder given as an output file, by name, before reading it; nothing saved', async () => {
		const server = await serve();
		const root = join(tmp, 'not-a-file');
		const r = await runCliAsProcess(runArgs(root, '--batch', 'files'), env(server));
		expect(r.code, r.stderr).toBe(3);
		const state = await readFile(join(await batchFolder(root), 'state.json'), 'utf8');
		// `/dev/zero` reports size 0 and never ends: read, it would fill memory.
		for (const path of ['/dev/zero', tmp]) {
			const got = await runCliAsProcess(
				['batch', 'import', path, ...runArgs(root).slice(1)],
				env(server)
			);
			expect(got.code, got.stderr).toBe(2);
			expect(got.stderr).toContain(`${path}: not a regular file`);
			expect(existsSync(join(await batchFolder(root), 'answers.jsonl'))).toBe(false);
			expect(await readFile(join(await batchFolder(root), 'state.json'), 'utf8')).toBe(state);
		}
	});

	it('refuses a torn, a foreign and a duplicated output file by name and line; nothing saved', async () => {
		const server = await serve();
		const root = join(tmp, 'refused');
		const r = await runCliAsProcess(runArgs(root, '--batch', 'files'), env(server));
		expect(r.code, r.stderr).toBe(3);
		const [file] = await roundFiles(root, 1);
		const text = await answerBatchText(server.baseURL, await readFile(file.input, 'utf8'));
		const rows = text.split('\n').filter(Boolean);
		const foreign = rows[1].replace(/"custom_id":"lp1\.[0-9a-f]{8}/, '"custom_id":"lp1.00000000');
		const state = await readFile(join(await batchFolder(root), 'state.json'), 'utf8');
		const cases: [string, string, RegExp][] = [
			['torn.output.jsonl', text.slice(0, -30), /torn\.output\.jsonl.*line \d+/],
			[
				'foreign.output.jsonl',
				`${rows[0]}\n${foreign}\n`,
				/foreign\.output\.jsonl, line 2: custom_id lp1\.00000000\S* belongs to another run/
			],
			[
				'twice.output.jsonl',
				`${rows[0]}\n${rows[0]}\n`,
				/twice\.output\.jsonl, line 2: custom_id \S+ is answered a second time \(first in \S*twice\.output\.jsonl, line 1\)/
			]
		];
		for (const [name, body, message] of cases) {
			const path = join(tmp, name);
			await writeFile(path, body);
			const got = await runCliAsProcess(
				['batch', 'import', path, ...runArgs(root).slice(1)],
				env(server)
			);
			expect(got.code).toBe(2);
			expect(got.stderr).toMatch(message);
			expect(existsSync(join(await batchFolder(root), 'answers.jsonl'))).toBe(false);
			expect(await readFile(join(await batchFolder(root), 'state.json'), 'utf8')).toBe(state);
		}
		const status = await runCliAsProcess(
			['batch', 'status', '--output-root', root, '--run-id', 'r1'],
			{}
		);
		expect(status.stdout).toMatch(/1 rounds, round 1 written \(waiting\)/);
	});
});
