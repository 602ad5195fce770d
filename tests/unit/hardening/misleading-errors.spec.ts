/**
 * Issue 14, item 10: errors that mislead. Each row was a message that sent the user the wrong
 * way: a read-only output root (exit 1, a bare EACCES), a failing cleanup replacing the "stopped
 * at case … k of N saved" summary, a zero-filled bundle entry called a cut-off write to resume,
 * UTF-16 without a BOM and UTF-32 not named, a connection dropped mid-answer sent to "check
 * that the server is running", and "no model calls" after calls that timed out. (The bundle
 * title counting every problem is in zip-entries.spec.ts.)
 */
import { promises as fsp } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APPEND_SYNCED } from '../../../src/lib/adapters/fs-store-stage-files';
import { BundleError, readBundle } from '../../../src/lib/adapters/zip-bundle';
import { formatTokens } from '../../../src/cli/progress';
import { loadDataset } from '../../../src/lib/core/dataset/load';
import { createOpenAIClient } from '../../../src/lib/core/model/openai-client';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { runArgs, runCliInProcess } from '../../cli/run-cli';
import { writeRuns } from '../../fixtures/bundles/runs';
import { makeDataset } from '../../fixtures/engine/cases';
import { stageProgress } from '../../fixtures/engine/progress';
import { startFakeOpenAI, type FakeOpenAI } from '../../fake-openai/server';
import { DATASET } from '../faults/harness';

const errno = (code: string, path: string) =>
	Object.assign(new Error(`${code}: operation failed, '${path}'`), { code, path });

afterEach(() => vi.restoreAllMocks());

const simulatedGen = (root: string, ...more: string[]) =>
	runCliInProcess(
		runArgs('gen', { dataset: DATASET, root, runId: 'ro', simulated: true }, ...more)
	);

describe('the output root', () => {
	it('read-only: exit 2, naming the folder and what to do', async () => {
		const root = join(await mkdtemp(join(tmpdir(), 'lexpilot-ro-')), 'out');
		// Tests may run as root, which chmod cannot stop: the file system answers as a read-only one would.
		const mkdir = fsp.mkdir.bind(fsp);
		vi.spyOn(fsp, 'mkdir').mockImplementation(async (path, options) => {
			if (String(path).startsWith(root)) throw errno('EACCES', String(path));
			return mkdir(path, options);
		});
		const r = await simulatedGen(root);
		expect(r.code).toBe(2);
		expect(r.stderr).toContain(
			`error: cannot write under the output root ${root}: permission denied (EACCES at ${root}/runs/ro/`
		);
		expect(r.stderr).toMatch(
			/Choose a folder you can write with --output-root, or make this one writable/
		);
	});

	it('turning read-only mid-run: the stop summary survives a failing unlink of .lock', async () => {
		const root = await mkdtemp(join(tmpdir(), 'lexpilot-ro-'));
		const open = fsp.open.bind(fsp);
		let appends = 0;
		// The store keeps each stage file open while it holds the lock: the disk turns read-only
		// under a handle already open, so the fourth write to any stage file fails.
		vi.spyOn(fsp, 'open').mockImplementation(async (path, flags, mode) => {
			const handle = await open(path, flags, mode);
			// How the store opens a stage file for appends (`a` where there is no `O_DSYNC`).
			if (flags !== (APPEND_SYNCED ?? 'a')) return handle;
			const write = handle.write.bind(handle) as (...args: unknown[]) => Promise<unknown>;
			handle.write = (async (...args: unknown[]) => {
				if (++appends > 3) throw errno('EROFS', String(path));
				return write(...args);
			}) as typeof handle.write;
			return handle;
		});
		const unlink = fsp.unlink.bind(fsp);
		vi.spyOn(fsp, 'unlink').mockImplementation(async (path) => {
			if (String(path).endsWith('.lock')) throw errno('EROFS', String(path));
			return unlink(path);
		});
		const r = await simulatedGen(root, '--concurrency', '1');
		expect(r.code).not.toBe(0);
		expect(r.stderr).toMatch(/error: gen stopped at case #\d \(case_number [^)]+\): .*EROFS/);
		expect(r.stderr).toMatch(
			/\d of 3 cases are saved; fix the cause and run the same command again to resume\./
		);
		expect(r.stderr).toMatch(
			/Also, the run's lock could not be released: could not remove the lock file .*\.lock \(EROFS\)/
		);
	});
});

describe('a bundle entry of zeros', () => {
	it('is called damaged, not a cut-off write to resume', async () => {
		const store = new MemoryStore();
		await writeRuns(store, makeDataset(2), [{ runId: 'z', stages: ['gen'] }]);
		const files = [...store.toFiles()].map(([path, text]) => ({
			path,
			bytes: path.endsWith('LCA_results.jsonl')
				? new Uint8Array(1024)
				: new TextEncoder().encode(text)
		}));
		const error = await readBundle(files, 'zeros.zip').catch((e: unknown) => e);
		expect(error).toBeInstanceOf(BundleError);
		const [p] = (error as BundleError).problems;
		expect(p).toMatch(
			/LCA_results\.jsonl, line 1: holds zero bytes \(NUL\), not JSON text: the file is damaged/
		);
		expect(p).not.toMatch(/cut off|resume/);
	});
});

describe('wide text encodings are named', () => {
	const json = '[{"case_number": "1"}]';
	const utf16le = (s: string) => new Uint8Array(Buffer.from(s, 'utf16le'));
	const utf16be = (s: string) => utf16le(s).map((_, i, a) => a[i ^ 1]);
	const utf32le = (s: string) => {
		const out = new Uint8Array(s.length * 4);
		[...s].forEach((ch, i) => new DataView(out.buffer).setUint32(i * 4, ch.codePointAt(0)!, true));
		return out;
	};
	const withBom = (bom: number[], body: Uint8Array) => new Uint8Array([...bom, ...body]);

	it.each([
		['UTF-16 LE without BOM', utf16le(json), 'UTF-16 (little-endian, without a byte-order mark)'],
		['UTF-16 BE without BOM', utf16be(json), 'UTF-16 (big-endian, without a byte-order mark)'],
		['UTF-16 LE with BOM', withBom([0xff, 0xfe], utf16le(json)), 'UTF-16 (little-endian)'],
		['UTF-32 LE with BOM', withBom([0xff, 0xfe, 0, 0], utf32le(json)), 'UTF-32 (little-endian)'],
		['UTF-32 LE without BOM', utf32le(json), 'UTF-32 (little-endian, without a byte-order mark)'],
		[
			'UTF-32 BE with BOM',
			withBom(
				[0, 0, 0xfe, 0xff],
				utf32le(json).map((_, i, a) => a[i ^ 3])
			),
			'UTF-32 (big-endian)'
		]
	])('%s', async (_, bytes, name) => {
		const result = await loadDataset(bytes);
		expect(result.ok).toBe(false);
		if (result.ok) return;
		expect(result.problems.map((p) => p.text)).toEqual([
			`the file is ${name} text; save it as UTF-8 and load it again`
		]);
	});
});

describe('model calls', () => {
	let server: FakeOpenAI | null = null;
	afterEach(async () => {
		await server?.close();
		server = null;
	});

	it('a connection dropped mid-answer does not say to check that the server is running', async () => {
		server = await startFakeOpenAI({ handler: () => ({ dropMidBody: true }) });
		const ep = { baseURL: server.baseURL, apiKey: '', model: 'm' };
		const client = createOpenAIClient({ evaluated: ep, user: ep, judge: ep }, { retries: 0 });
		const error = (await client
			.complete({
				role: 'evaluated',
				task: 'lexawn',
				caseNumber: 'C-1',
				prompt: 'p',
				temperature: 0,
				maxTokens: 8
			})
			.catch((e: unknown) => e)) as Error;
		expect(error.message).toMatch(/the connection dropped while the answer was being received/);
		expect(error.message).toMatch(
			/the server is up, but it or a proxy in between closed the connection/
		);
		expect(error.message).not.toMatch(/check that the server is running|could not connect/);
	});

	it('a hang-up after earlier answers does not either', async () => {
		let n = 0;
		server = await startFakeOpenAI({
			handler: () => (n++ === 0 ? { content: 'ok' } : { hangup: true })
		});
		const ep = { baseURL: server.baseURL, apiKey: '', model: 'm' };
		const client = createOpenAIClient({ evaluated: ep, user: ep, judge: ep }, { retries: 0 });
		const request = {
			role: 'evaluated',
			task: 'lexawn',
			caseNumber: 'C-1',
			prompt: 'p',
			temperature: 0,
			maxTokens: 8
		} as const;
		await client.complete(request);
		const error = (await client.complete(request).catch((e: unknown) => e)) as Error;
		expect(error.message).toMatch(/although this endpoint answered earlier calls/);
		expect(error.message).not.toMatch(/check that the server is running/);
	});

	it('"no model calls" is never said after calls that failed', async () => {
		expect(formatTokens(stageProgress({ retries: 12, failures: 4 }))).toBe(
			'no model call answered (12 retried, 4 cases failed)'
		);
		expect(formatTokens(stageProgress({}))).toBe('no model calls');
		server = await startFakeOpenAI({ handler: () => ({ hang: true }) });
		const root = await mkdtemp(join(tmpdir(), 'lexpilot-calls-'));
		const r = await runCliInProcess(
			runArgs(
				'gen',
				{ dataset: DATASET, root, runId: 't' },
				'--limit',
				'1',
				'--timeout',
				'0.3',
				'--retries',
				'1'
			),
			{
				env: {
					OPENAI_BASE_URL: server.baseURL,
					OPENAI_API_KEY: 'sk-timeouts-0123456789',
					LEXPILOT_MODEL: 'm'
				}
			}
		);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/no answer within 0\.3 s after 2 attempts/);
		expect(r.stderr).not.toContain('no model calls');
		expect(r.stderr).toMatch(/no model call answered \(\d+ retried, 1 case failed\)/);
	});
});
