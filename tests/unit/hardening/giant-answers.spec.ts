/**
 * Issue 14, item 5: a provider that ignores max_tokens cannot make a case write megabytes, and
 * no message or log line echoes megabytes of model or provider text. The bound is
 * `maxAnswerBytes(max_tokens)` (max_tokens × 32 + 64 KiB); a longer answer is a rejected output,
 * retried within the retry budget, never saved.
 */
import { mkdtemp, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { maxAnswerBytes } from '../../../src/lib/core/model/openai-client';
import { clipText } from '../../../src/lib/core/text/clip';
import { runCliInProcess } from '../../cli/run-cli';
import { simulatedScript } from '../../engine/simulated-script';
import { byTask } from '../../fake-openai/by-task';
import { startFakeOpenAI, type FakeOpenAI, type Handler } from '../../fake-openai/server';
import { DATASET } from '../faults/harness';

const TEN_MB = 10 * 1024 * 1024;
const simulated = byTask(simulatedScript);
let server: FakeOpenAI | null = null;
afterEach(async () => {
	await server?.close();
	server = null;
});

async function gen(handler: Handler, ...flags: string[]) {
	server = await startFakeOpenAI({ handler });
	const root = await mkdtemp(join(tmpdir(), 'lexpilot-giant-'));
	const result = await runCliInProcess(
		['gen', '--dataset', DATASET, '--output-root', root, '--run-id', 'g', '--limit', '1', ...flags],
		{
			env: {
				OPENAI_BASE_URL: server.baseURL,
				OPENAI_API_KEY: 'sk-giant-0123456789abcdef',
				LEXPILOT_MODEL: 'eval-model',
				LEXPILOT_JUDGE_MODEL: 'judge-model'
			}
		}
	);
	return { ...result, root, calls: server.requests.filter((r) => r.url.includes('chat')).length };
}

/** Total size of every file under `dir`. */
async function bytesUnder(dir: string): Promise<number> {
	let total = 0;
	for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
		if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
	}
	return total;
}

describe('the answer bound', () => {
	it('is max_tokens × 32 bytes + 64 KiB', () => {
		expect(maxAnswerBytes(8192)).toBe(8192 * 32 + 65536);
		expect(maxAnswerBytes(1)).toBe(32 + 65536);
	});

	it('clips echoed text with its length, never inside a surrogate pair', () => {
		expect(clipText('abc', 3)).toBe('abc');
		expect(clipText('abcdef', 3)).toBe('abc… (6 characters in all)');
		expect(clipText('ab😀cd', 3)).toBe('ab… (6 characters in all)');
		expect(clipText(clipText('x'.repeat(1000), 10), 10)).toBe(
			'xxxxxxxxxx… (1000 characters in all)'
		);
	});
});

describe('giant answers through the CLI', () => {
	it('a 10 MB answer on every attempt: refused, retried, nothing written, stderr short', async () => {
		const r = await gen(() => ({ content: 'x'.repeat(TEN_MB) }), '--retries', '1');
		expect(r.code).toBe(1);
		// Both histories of the case, two attempts each at most.
		expect(r.calls).toBeLessThanOrEqual(4);
		expect(r.stderr).toMatch(
			/the answer is 10\.0 MiB \(10485760 bytes\), more than the 320 KiB allowed for max_tokens 8192 \(32 bytes a token \+ 64 KiB\): the provider ignored max_tokens after 2 attempts; nothing was saved/
		);
		expect(r.stderr).toContain(`raw output:\nxxx`);
		expect(r.stderr).toContain(`… (${TEN_MB} characters in all)`);
		expect(r.stderr.length).toBeLessThan(10_000);
		expect(await bytesUnder(r.root)).toBeLessThan(20_000);
	});

	it('an answer within the bound is kept', async () => {
		const big = '长'.repeat(80_000); // 240,000 bytes, under 320 KiB
		const r = await gen((req) => (req.model === 'eval-model' ? { content: big } : simulated(req)));
		expect(r.stderr).not.toMatch(/ignored max_tokens/);
		expect(r.code, r.stderr).toBe(0);
	});

	it('a 10 MB provider error body is quoted in a few hundred characters', async () => {
		const r = await gen(
			() => ({ status: 400, body: { error: { message: `bad ${'x'.repeat(TEN_MB)}` } } }),
			'--retries',
			'0'
		);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain(`… (${TEN_MB + 4} characters in all)`);
		expect(r.stderr.length).toBeLessThan(3_000);
	});

	it("a judge's long invalid answer is printed cut, with its length", async () => {
		const junk = `not json ${'啊'.repeat(100_000)}`;
		const r = await gen((req) =>
			req.model === 'judge-model' ? { content: junk } : simulated(req)
		);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/judge's output was not the expected JSON after 4 asks/);
		expect(r.stderr).toContain(`raw output:\nnot json 啊`);
		expect(r.stderr).toContain(`… (${junk.length} characters in all)`);
		expect(r.stderr.length).toBeLessThan(5_000);
	});
});
