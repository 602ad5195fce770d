/**
 * A hostile provider's error bodies: a 500 whose body is a gigabyte, streamed, or a small gzip
 * that inflates to one. The SDK reads an error body whole to quote it, so without a bound the
 * CLI held gigabytes and died of a V8 fatal error with its lock left behind. Every body is read
 * at most to `bodyBound` (an error body to ERROR_BODY_BYTES, decoded bytes counted), and the
 * message quotes a prefix saying the rest was not read.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_BODY_BYTES } from '../../../src/lib/core/model/bounded-fetch';
import { startFakeOpenAI, type FakeOpenAI, type Reply } from '../../fake-openai/server';
import { DATASET } from '../faults/harness';

const GIGABYTE = 1024 * 1024 * 1024;
const ROOT = resolve(import.meta.dirname, '../../..');
let server: FakeOpenAI | null = null;
afterEach(async () => {
	await server?.close();
	server = null;
});

interface ProbedRun {
	code: number | null;
	stderr: string;
	root: string;
	/** Peak resident memory of the CLI process, from the bench probe; null if it never exited. */
	maxRssMiB: number | null;
}

/** `gen` of one case, as users run the built CLI, under the bench's probe (peak RSS at exit). */
async function probedGen(reply: () => Reply): Promise<ProbedRun> {
	server = await startFakeOpenAI({ handler: reply });
	const root = await mkdtemp(join(tmpdir(), 'lexpilot-bomb-'));
	const probe = join(root, '..', `${root.split('/').pop()}-probe.json`);
	const args = [
		'gen',
		'--dataset',
		DATASET,
		'--output-root',
		root,
		'--run-id',
		'b',
		'--limit',
		'1'
	];
	let stderr = '';
	const code = await new Promise<number | null>((done, fail) => {
		const child = spawn(
			process.execPath,
			['--import', './tests/bench/cli-probe.js', 'bin/lexpilot.js', ...args, '--retries', '0'],
			{
				cwd: ROOT,
				env: {
					PATH: process.env.PATH,
					HOME: process.env.HOME,
					LEXPILOT_BENCH_PROBE: probe,
					OPENAI_BASE_URL: server!.baseURL,
					OPENAI_API_KEY: 'sk-bomb-0123456789abcdef',
					LEXPILOT_MODEL: 'eval-model'
				},
				stdio: ['ignore', 'ignore', 'pipe']
			}
		);
		child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
		child.on('error', fail);
		child.on('close', done);
	});
	const report = await readFile(probe, 'utf8').catch(() => null);
	const maxRssMiB = report ? (JSON.parse(report) as { maxRssKiB: number }).maxRssKiB / 1024 : null;
	return { code, stderr, root, maxRssMiB };
}

/** Every file left under `root`, relative. */
async function filesUnder(root: string): Promise<string[]> {
	const entries = await readdir(root, { withFileTypes: true, recursive: true });
	return entries
		.filter((e) => e.isFile())
		.map((e) => join(e.parentPath, e.name).slice(root.length));
}

describe('error bodies of a gigabyte, through the built CLI', { timeout: 120_000 }, () => {
	it.each([
		['a 500 with a 1 GB streamed body', false],
		['a 500 with a gzip bomb inflating to 1 GB', true]
	] as const)('%s: peak RSS under 512 MiB, a clear message, no lock left', async (_name, gzip) => {
		let first: (sent: { bytes: number; finished: boolean }) => void = () => {};
		const firstSent = new Promise<{ bytes: number; finished: boolean }>((r) => (first = r));
		const r = await probedGen(() => ({
			giantError: {
				status: 500,
				bytes: GIGABYTE,
				gzip,
				done: (bytes, finished) => first({ bytes, finished })
			}
		}));
		expect(r.maxRssMiB, `the CLI did not exit normally: ${r.stderr.slice(-2000)}`).not.toBeNull();
		expect(r.maxRssMiB!).toBeLessThan(512);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain(
			`500 Internal Server Error (${'x'.repeat(300)}… (more than ${ERROR_BODY_BYTES} bytes; the rest was not read)) — the provider failed; resume the run later.`
		);
		expect(r.stderr.length).toBeLessThan(5_000);
		expect((await filesUnder(r.root)).filter((f) => f.endsWith('.lock'))).toEqual([]);
		// The server never got to send the whole body: the CLI hung up.
		const sent = await firstSent;
		expect(sent.finished).toBe(false);
		expect(sent.bytes).toBeLessThan(64 * 1024 * 1024);
	});
});
