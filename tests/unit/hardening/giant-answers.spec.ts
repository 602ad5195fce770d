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
import { ModelCallError } from '../../../src/lib/core/errors';
import { maxTokensOf } from '../../../src/lib/core/model/bounded-fetch';
import {
	createOpenAIClient,
	maxAnswerBytes,
	maxResponseBytes
} from '../../../src/lib/core/model/openai-client';
import { clipText } from '../../../src/lib/core/text/clip';
import { runCliInProcess } from '../../cli/run-cli';
import { simulatedScript } from '../../engine/simulated-script';
import { byTask } from '../../fake-openai/by-task';
import {
	startFakeOpenAI,
	type FakeOpenAI,
	type Handler,
	type Reply
} from '../../fake-openai/server';
import { DATASET } from '../faults/harness';

const TEN_MB = 10 * 1024 * 1024;
const ONE_MIB = 1024 * 1024;
const FIFTY_MB = 50 * 1000 * 1000;
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

describe('giant answers through the CLI', { timeout: 60_000 }, () => {
	it('a 1 MiB answer on every attempt: refused, retried, nothing written, stderr short', async () => {
		const r = await gen(() => ({ content: 'x'.repeat(ONE_MIB) }), '--retries', '1');
		expect(r.code).toBe(1);
		// Both histories of the case, two attempts each at most.
		expect(r.calls).toBeLessThanOrEqual(4);
		expect(r.stderr).toMatch(
			/the answer is 1\.0 MiB \(1048576 bytes\), more than the 320 KiB allowed for max_tokens 8192 \(32 bytes a token \+ 64 KiB\): the provider ignored max_tokens after 2 attempts; nothing was saved/
		);
		expect(r.stderr).toContain(`raw output:\nxxx`);
		expect(r.stderr).toContain(`… (${ONE_MIB} characters in all)`);
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
		// Only its first 64 KiB are read (ERROR_BODY_BYTES), cut JSON, quoted raw, saying so.
		const head = `{"error":{"message":"bad ${'x'.repeat(300 - 25)}`;
		expect(r.stderr).toContain(`"${head}… (more than 65536 bytes; the rest was not read)"`);
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

/** What the server managed to send of each giant body, and whether it got to the end. */
function giantLog() {
	const sent: { bytes: number; finished: boolean }[] = [];
	const reply = (): Reply => ({
		giant: { bytes: FIFTY_MB, done: (bytes, finished) => void sent.push({ bytes, finished }) }
	});
	return { sent, reply };
}

/** Waits until the server has reported `n` giant bodies (it learns of a cut after the client). */
async function reported(sent: unknown[], n: number) {
	for (let i = 0; i < 200 && sent.length < n; i++) await new Promise((r) => setTimeout(r, 10));
	expect(sent).toHaveLength(n);
}

describe('a giant body is refused while it streams in, not after', () => {
	it('a 50 MB answer: the client reads at most the body bound, then hangs up', async () => {
		const log = giantLog();
		server = await startFakeOpenAI({ handler: log.reply });
		// Bytes the client pulled off the socket, counted under the bounded fetch.
		let read = 0;
		const counting: typeof fetch = async (input, init) => {
			const response = await fetch(input, init);
			const counted = response.body!.pipeThrough(
				new TransformStream<Uint8Array, Uint8Array>({
					transform(chunk, controller) {
						read += chunk.byteLength;
						controller.enqueue(chunk);
					}
				})
			);
			return new Response(counted, { status: response.status, headers: response.headers });
		};
		const endpoint = { baseURL: server.baseURL, apiKey: 'sk-giant-0123456789abcdef', model: 'm' };
		const client = createOpenAIClient(
			{ evaluated: endpoint, user: endpoint, judge: endpoint },
			{ retries: 0, fetch: counting }
		);
		// Memory the process holds meanwhile, sampled: reading 50 MB whole would add ≥ 50 MB.
		const held = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
		const before = held();
		let peak = before;
		const sampler = setInterval(() => (peak = Math.max(peak, held())), 2);
		const error = await client
			.complete({
				role: 'evaluated',
				task: 'lexawn',
				prompt: 'hi',
				temperature: 0,
				maxTokens: 8192,
				caseNumber: 'c1'
			})
			.then(
				() => null,
				(e: unknown) => e
			);
		clearInterval(sampler);
		expect(read).toBeLessThan(maxResponseBytes(8192) + 1024 * 1024);
		expect(peak - before).toBeLessThan(20 * 1024 * 1024);
		expect(error).toBeInstanceOf(ModelCallError);
		expect((error as ModelCallError).details.kind).toBe('invalid_output');
		expect((error as Error).message).toContain(
			`the response passed 1.9 MiB (${maxResponseBytes(8192)} bytes) and was not read further: ` +
				'no answer within the 320 KiB allowed for max_tokens 8192 (32 bytes a token + 64 KiB) ' +
				'is that long, even as escaped JSON: the provider ignored max_tokens'
		);
		await reported(log.sent, 1);
		expect(log.sent[0].finished).toBe(false);
		expect(log.sent[0].bytes).toBeLessThan(FIFTY_MB / 2);
	});

	it('through the CLI: refused as the provider ignoring max_tokens, nothing saved', async () => {
		const log = giantLog();
		const r = await gen(
			(req) => (req.model === 'eval-model' ? log.reply() : simulated(req)),
			'--retries',
			'0'
		);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(
			/the response passed 1\.9 MiB \(\d+ bytes\) and was not read further: .* the provider ignored max_tokens/
		);
		expect(r.stderr.length).toBeLessThan(5_000);
		expect(await bytesUnder(r.root)).toBeLessThan(20_000);
		await reported(log.sent, r.calls);
		for (const s of log.sent) expect(s.finished).toBe(false);
	});

	it('an answer within the bound is read whole even when JSON escapes every byte', async () => {
		server = await startFakeOpenAI({ handler: () => ({ content: '\u0001'.repeat(300_000) }) });
		const endpoint = { baseURL: server.baseURL, apiKey: 'sk-giant-0123456789abcdef', model: 'm' };
		const client = createOpenAIClient(
			{ evaluated: endpoint, user: endpoint, judge: endpoint },
			{ retries: 0 }
		);
		// 300,000 bytes of answer, 1.8 MB of body (`\u0001` is six characters).
		const result = await client.complete({
			role: 'evaluated',
			task: 'lexawn',
			prompt: 'hi',
			temperature: 0,
			maxTokens: 8192,
			caseNumber: 'c1'
		});
		expect(result.response).toHaveLength(300_000);
	});
});

describe('maxTokensOf', () => {
	it('reads the key, never a quoted "max_tokens" inside the prompt', () => {
		const body = JSON.stringify({
			model: 'm',
			messages: [{ role: 'user', content: '"max_tokens": 99999999' }],
			max_tokens: 512
		});
		expect(maxTokensOf(body)).toBe(512);
		expect(maxTokensOf(JSON.stringify({ messages: [{ content: '"max_tokens":7' }] }))).toBe(null);
		expect(maxTokensOf(undefined)).toBe(null);
	});
});
