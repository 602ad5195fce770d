import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../../../tests/fake-openai/server';
import { ModelCallError } from '../errors';
import { sizeText } from '../model/bounded-fetch';
import { chatBody } from '../model/completion';
import { createOpenAIClient } from '../model/openai-client';
import type { PendingRequest } from './client';
import { customId } from './custom-id';
import { BatchRoundFile, type BatchRound } from './store';
import { downloadBytes, providerSender } from './provider';

const BASE = 'http://provider.test/v1';
const endpoint = { baseURL: BASE, apiKey: 'sk-test', model: 'm' };
const endpoints = { evaluated: endpoint, user: endpoint, judge: endpoint };

type Answer = { status: number; headers?: Record<string, string> };

/** A fetch answering `answers` in turn (the last one repeats), counting what it was asked. */
function provider(answers: Answer[]) {
	let calls = 0;
	const fetch: typeof globalThis.fetch = async (input) => {
		const { status, headers = {} } = answers[Math.min(calls++, answers.length - 1)];
		const chat = String(input).includes('/chat/completions');
		const body =
			status !== 200
				? { error: { message: `said ${status}` } }
				: chat
					? {
							id: 'c',
							object: 'chat.completion',
							created: 0,
							model: 'm',
							choices: [
								{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }
							]
						}
					: { id: 'b1', object: 'batch', status: 'cancelling' };
		return new Response(JSON.stringify(body), {
			status,
			headers: { 'content-type': 'application/json', ...headers }
		});
	};
	return { fetch, calls: () => calls };
}

const policy = (sleeps: number[]) => ({
	retries: 3,
	random: () => 0.5,
	sleep: async (ms: number) => void sleeps.push(ms)
});

/** The requests one interactive call makes, and the waits between them. */
async function throughClient(answers: Answer[]) {
	const p = provider(answers);
	const sleeps: number[] = [];
	const client = createOpenAIClient(endpoints, { ...policy(sleeps), fetch: p.fetch });
	await client
		.complete({
			role: 'evaluated',
			task: 'judge_lca',
			prompt: 'hi',
			temperature: 0,
			maxTokens: 16,
			caseNumber: '1'
		})
		.catch(() => null);
	return { requests: p.calls(), sleeps };
}

/** The requests one call of the batch provider makes (cancelling a batch), and the waits. */
async function throughBatch(answers: Answer[]) {
	const p = provider(answers);
	const sleeps: number[] = [];
	const sender = providerSender({
		run: { runId: 'r', modelDir: 'm-1' },
		endpoints,
		fetch: p.fetch,
		retry: policy(sleeps)
	});
	const round: BatchRound = {
		round: 1,
		mode: 'provider',
		status: 'submitted',
		sent_at: '2025-01-01T00:00:00Z',
		requests: 1,
		files: [{ name: 'f', endpoint: BASE, model: 'm', lines: 1, bytes: 1, batch_id: 'b1' }]
	};
	await sender.cancel!(round);
	return { requests: p.calls(), sleeps };
}

describe('the batch provider retries as the model client does (one policy, no SDK retries)', () => {
	it.each<[string, Answer[]]>([
		['answered at once', [{ status: 200 }]],
		['two server errors, then an answer', [{ status: 503 }, { status: 500 }, { status: 200 }]],
		[
			'a rate limit with Retry-After',
			[{ status: 429, headers: { 'retry-after-ms': '1500' } }, { status: 200 }]
		],
		['a bad request: never again', [{ status: 400 }]],
		['a refused key: never again', [{ status: 401 }]],
		['a server that keeps failing', [{ status: 502 }]]
	])('%s', async (_, answers) => {
		const client = await throughClient(answers);
		expect(await throughBatch(answers)).toEqual(client);
	});

	it('stops after the retries the policy allows, with its backoff', async () => {
		expect(await throughBatch([{ status: 502 }])).toEqual({
			requests: 4,
			sleeps: [750, 1500, 3000]
		});
	});
});

/** Two requests of one round, for the fake provider's Batch API at `baseURL`. */
async function roundOf(baseURL: string, content = 'hi') {
	const run = { runId: 'r', modelDir: 'm-1' };
	const ep = { baseURL, apiKey: 'sk-test', model: 'fake-model' };
	const pending: PendingRequest[] = [];
	for (const caseNumber of ['1', '2']) {
		const request = {
			role: 'evaluated' as const,
			task: 'judge_lca' as const,
			prompt: `${content} ${caseNumber}`,
			temperature: 0,
			maxTokens: 16,
			caseNumber
		};
		const id = await customId({
			run,
			stage: 'lca',
			caseNumber,
			task: 'judge_lca',
			prompt: request.prompt,
			occurrence: 0,
			attempt: 1
		});
		pending.push({ customId: id, role: 'evaluated', baseURL, body: chatBody(ep.model, request) });
	}
	const sender = providerSender({
		run,
		endpoints: { evaluated: ep, user: ep, judge: ep },
		pollMs: 5,
		maxPollMs: 20,
		retry: { retries: 2, sleep: async () => {}, random: () => 0.5 }
	});
	/** Sends the round and collects it, as `runBatch` does. */
	const through = async (polled: BatchRoundFile[][] = []) => {
		const files = await sender.send(pending, 1);
		const round: BatchRound = {
			round: 1,
			mode: 'provider',
			status: 'submitted',
			sent_at: '2025-01-01T00:00:00Z',
			requests: pending.length,
			files
		};
		return sender.collect(round, pending, undefined, (f) => void polled.push(f));
	};
	return { pending, sender, through };
}

const servers: FakeOpenAI[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function serve(options: Parameters<typeof startFakeOpenAI>[0] = {}) {
	const server = await startFakeOpenAI(options);
	servers.push(server);
	return server;
}

describe('the batch provider follows the redirect rule of interactive calls (SECURITY.md)', () => {
	it('a 307 on the upload to another origin sends no case there, and is not retried', async () => {
		const other = await serve();
		const provider = await serve({
			batch: {
				redirect: ({ method, path }) =>
					method === 'POST' && path.endsWith('/files')
						? { status: 307, location: `${other.baseURL}/files` }
						: undefined
			}
		});
		const { through } = await roundOf(provider.baseURL);
		const error = await through().catch((e: unknown) => e);
		expect(error).toBeInstanceOf(ModelCallError);
		expect((error as Error).message).toContain('the Batch API call POST /files failed:');
		expect((error as Error).message).toContain('another origin');
		expect(other.requests).toEqual([]);
		// Refused once: asking again would be refused the same way.
		expect(provider.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
		expect(provider.batches.files.size).toBe(0);
	});

	it('a 307 within the origin is followed with its body (the upload arrives whole)', async () => {
		const provider = await serve({
			batch: {
				redirect: ({ method, path }) =>
					method === 'POST' && path === '/v1/files'
						? { status: 307, location: '/v2/files' }
						: undefined
			}
		});
		const { through, pending } = await roundOf(provider.baseURL);
		const answers = (await through()) ?? [];
		expect(answers.map((a) => a.customId).sort()).toEqual(pending.map((p) => p.customId).sort());
		expect(provider.requests.some((r) => r.url === '/v2/files')).toBe(true);
	});

	it('a 302 on the output download to another origin reads no answer from there', async () => {
		const other = await serve({ batch: {} });
		const provider = await serve({
			batch: {
				redirect: ({ method, path }) =>
					method === 'GET' && path.endsWith('/content')
						? { status: 302, location: `${other.url}${path}` }
						: undefined
			}
		});
		const { through } = await roundOf(provider.baseURL);
		const error = await through().catch((e: unknown) => e);
		expect(error).toBeInstanceOf(ModelCallError);
		expect((error as Error).message).toMatch(/the Batch API call GET \/files\/.+\/content failed/);
		expect((error as Error).message).toContain('another origin');
		expect(other.requests).toEqual([]);
	});
});

describe('the batch provider bounds what it reads and keeps', () => {
	it('an output file past its lines × the answer bound is not read: its requests failed', async () => {
		// 16 max_tokens: 64.5 KiB an answer, 129 KiB a line with its envelope; 1 MB answers.
		const provider = await serve({ handler: () => ({ content: 'x'.repeat(1024 * 1024) }) });
		const { through, pending } = await roundOf(provider.baseURL);
		const answers = (await through()) ?? [];
		expect(answers).toHaveLength(2);
		for (const [i, a] of answers.entries()) {
			expect(a.customId).toBe(pending[i].customId);
			expect(a).toMatchObject({ error: { code: 'output_too_large' } });
			expect('error' in a && a.error.message).toContain(`passed ${sizeText(downloadBytes(2, 16))}`);
		}
	});

	it('an answer past its bound in a file within the download bound is a failed attempt; the others are kept', async () => {
		// 16 max_tokens: 64.5 KiB an answer; 100 KB for case 1, within the file's 257 KiB.
		const provider = await serve({
			handler: (request) => ({
				content: request.prompt.endsWith(' 1') ? 'x'.repeat(100_000) : 'ok'
			})
		});
		const { through, pending } = await roundOf(provider.baseURL);
		const answers = (await through()) ?? [];
		const byId = new Map(answers.map((a) => [a.customId, a]));
		expect(byId.get(pending[0].customId)).toMatchObject({
			error: { code: 'answer_too_large' }
		});
		expect(byId.get(pending[1].customId)).toMatchObject({ status: 200 });
	});

	it('keeps counts, file ids and the errors of a failed batch, clipped; shows them escaped', async () => {
		const long = 'y'.repeat(5000);
		const provider = await serve({
			batch: {
				delayMs: 300,
				failWith: () => [
					{ code: 'token_limit\nerror: forged', message: `too many tokens\n${long}`, line: 2 },
					...Array.from({ length: 9 }, (_, i) => ({ code: 'x', message: `m${i}`, line: i }))
				],
				shownStatus: (status) => (status === 'failed' ? status : `${status}\nerror: forged`)
			}
		});
		const polled: BatchRoundFile[][] = [];
		const { through, pending } = await roundOf(provider.baseURL);
		// Its requests failed with the provider's first reason, clipped, and how many more.
		const answers = (await through(polled)) ?? [];
		expect(answers.map((a) => a.customId)).toEqual(pending.map((p) => p.customId));
		for (const a of answers) {
			expect(a).toMatchObject({ error: { code: 'batch_failed' } });
			const message = 'error' in a ? a.error.message! : '';
			expect(message).toMatch(/^batch \S+ failed: token_limit\nerror: forged: too many tokens\ny/);
			expect(message).toMatch(/\(input line 2\) and 9 more$/);
			expect(message.length).toBeLessThan(600);
		}
		expect(polled.map((files) => files[0].status)).toContain('in_progress\nerror: forged');
		const file = polled.at(-1)![0];
		expect(file.status).toBe('failed');
		expect(file.errors).toHaveLength(5);
		expect(file.errors_total).toBe(10);
		expect(file.errors![0].message!.length).toBeLessThan(400);
		// What is saved passes the state's own schema.
		expect(BatchRoundFile.parse(file)).toEqual(file);
	});
});
