/**
 * The `run` command as the stage commands behave since the run-config and hardening work: its
 * starts are recorded in `operational_history`, `--concurrency` is held to the shared range
 * unless it is `auto`, base URLs are shown and written without query values, the FsStore's
 * repairs are printed as notes, and a terminal's progress line is redrawn through the one
 * sanctioned cursor movement (`redraw`), never as escape codes the program would escape.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../../src/cli/commands';
import { createProgram } from '../../../src/cli/program';
import { modelDirName } from '../../../src/lib/core/layout';
import { runArgs, runCliInProcess } from '../../cli/run-cli';
import { simulatedScript } from '../../engine/simulated-script';
import { byTask } from '../../fake-openai/by-task';
import { startFakeOpenAI, type FakeOpenAI } from '../../fake-openai/server';
import { filesUnder } from '../faults/harness';

const DATASET = resolve('tests/fixtures/engine/three-cases.json');
const TOKEN = 'tok-run-5e4d3c2b1a';
let tmp: string;
let server: FakeOpenAI | null = null;

beforeAll(async () => {
	tmp = await mkdtemp(join(tmpdir(), 'lexpilot-run-cli-'));
});
afterEach(async () => {
	await server?.close();
	server = null;
});
afterAll(async () => {
	await rm(tmp, { recursive: true, force: true });
});

const simulatedRun = (root: string, ...extra: string[]) =>
	runCliInProcess(runArgs('run', { dataset: DATASET, root, simulated: true }, ...extra));

async function manifestOf(root: string, model = 'simulated') {
	const path = join(root, `runs/r1/${await modelDirName(model)}/manifest.json`);
	return JSON.parse(await readFile(path, 'utf8')) as {
		endpoints: Record<string, string>;
		operational_history: { timeout_s: number; retries: number; concurrency: number }[];
	};
}

describe('run --concurrency', () => {
	it('refuses a number outside 1 to 64 before writing anything, saying auto is allowed', async () => {
		const root = join(tmp, 'too-many');
		const r = await simulatedRun(root, '--concurrency', '65');
		expect(r.code).toBe(2);
		expect(r.stderr).toContain(
			'error: --concurrency must be a whole number from 1 to 64, got 65 (or auto)'
		);
		await expect(readFile(join(root, 'runs'))).rejects.toMatchObject({ code: 'ENOENT' });
	});

	it('takes auto, which is not a number, and records its ceiling', async () => {
		const root = join(tmp, 'auto');
		const r = await simulatedRun(root, '--concurrency', 'auto');
		expect(r.code, r.stderr).toBe(0);
		expect((await manifestOf(root)).operational_history.map((e) => e.concurrency)).toEqual([64]);
	});
});

describe('run records each start', () => {
	it('a resume with other timeout, retries and concurrency appends them, as the stage commands do', async () => {
		const root = join(tmp, 'operational');
		expect((await simulatedRun(root, '--stages', 'gen')).code).toBe(0);
		const r = await simulatedRun(root, '--timeout', '30', '--retries', '1', '--concurrency', '2');
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout).toMatch(/^Resumed run r1/);
		const history = (await manifestOf(root)).operational_history;
		expect(
			history.map(({ timeout_s, retries, concurrency }) => [timeout_s, retries, concurrency])
		).toEqual([
			[120, 3, 4],
			[30, 1, 2]
		]);
		// The same values again: nothing new to record.
		expect(
			(await simulatedRun(root, '--timeout', '30', '--retries', '1', '--concurrency', '2')).code
		).toBe(0);
		expect((await manifestOf(root)).operational_history).toHaveLength(2);
	});
});

describe('run and the FsStore', () => {
	it('takes over the lock of a dead process of this host and prints the note', async () => {
		const root = join(tmp, 'stale-lock');
		const lock = join(root, `runs/r1/${await modelDirName('simulated')}/.lock`);
		await mkdir(dirname(lock), { recursive: true });
		const pid = spawnSync(process.execPath, ['-e', '']).pid!;
		await writeFile(
			lock,
			JSON.stringify({ pid, hostname: hostname(), started_at: '2025-01-01T00:00:00Z', token: 't' })
		);
		const r = await simulatedRun(root);
		expect(r.code, r.stderr).toBe(0);
		expect(r.stderr).toMatch(
			new RegExp(`note: run r1 / .*: took over the lock .* left by process ${pid}`)
		);
	});
});

describe('run and a base URL with a query value', () => {
	it('sends it, but writes and prints only its name, in the manifest and the concurrency line', async () => {
		let calls = 0;
		const answer = byTask(simulatedScript);
		// A 429 on the first calls halves the limit, so the concurrency line names the endpoint.
		server = await startFakeOpenAI({
			handler: (req) =>
				++calls <= 2 ? { status: 429, headers: { 'Retry-After': '0' } } : answer(req)
		});
		const root = join(tmp, 'query');
		const r = await runCliInProcess(
			['run', '--dataset', DATASET, '--output-root', root, '--run-id', 'r1', '--limit', '1'],
			{
				env: {
					OPENAI_BASE_URL: `${server.baseURL}?token=${TOKEN}`,
					OPENAI_API_KEY: 'sk-run-url-test-0123456789',
					LEXPILOT_MODEL: 'eval-model'
				}
			}
		);
		expect(r.code, r.stderr).toBe(0);
		const chats = server.requests.filter((q) => q.url.includes('/chat/completions'));
		for (const q of chats) expect(q.url).toBe(`/v1/chat/completions?token=${TOKEN}`);
		expect((await manifestOf(root, 'eval-model')).endpoints.evaluated).toBe(
			`${server.baseURL}?token=***`
		);
		expect(r.stderr).toMatch(
			new RegExp(
				`concurrency: ${server.baseURL.replace(/[.]/g, '\\.')}\\?token=\\*\\*\\* now \\d+ \\(rate_limited\\)`
			)
		);
		for (const [path, text] of await filesUnder(root)) expect(text, path).not.toContain(TOKEN);
		expect(r.stdout + r.stderr).not.toContain(TOKEN);
	});
});

describe('run on a terminal', () => {
	it('redraws its progress line through redraw: the cursor moves, nothing shows as escaped text', async () => {
		const root = join(tmp, 'tty');
		let stderr = '';
		const code = await createProgram(commands)(
			['run', '--simulated', '--dataset', DATASET, '--output-root', root, '--run-id', 'r1'],
			{
				stdout: () => {},
				stderr: (t) => (stderr += t),
				env: {},
				cwd: process.cwd(),
				isTTY: true,
				signal: new AbortController().signal
			}
		);
		expect(code, stderr).toBe(0);
		expect(stderr).toContain('\r\x1b[2Krun  [');
		// An escape sent through stderr would have been made visible as text.
		expect(stderr).not.toContain('\\u001b');
	});
});
