/**
 * createOpenAIClient against a fake OpenAI-compatible server: the request, retries, errors not
 * retried, output rules, abort, concurrency, events, connection failures. One file because every
 * block starts and stops the same fake server (`startFakeOpenAI`) with the same client set-up, and
 * each describes one behaviour of the one client.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../../tests/support/thrown';
import {
	startFakeOpenAI,
	type FakeOpenAI,
	type FakeOpenAIOptions,
	type Reply
} from '../../../../tests/fake-openai/server';
import { ModelCallError } from '../errors';
import type { Role } from '../records';
import type { ModelEvent } from './events';
import { createOpenAIClient, type OpenAIClientOptions } from './openai-client';
import type { ChatRequest } from './types';

const KEY = 'sk-test-secret-0123456789';
const servers: FakeOpenAI[] = [];

afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(options: FakeOpenAIOptions) {
	const server = await startFakeOpenAI(options);
	servers.push(server);
	return server;
}

/** A fake server answering with `replies` in turn (the last one repeats). */
async function scripted(replies: Reply[], options: FakeOpenAIOptions = {}) {
	return serve({
		...options,
		handler: ({ callIndex }) => replies[Math.min(callIndex, replies.length - 1)]
	});
}

function setup(server: FakeOpenAI, options: OpenAIClientOptions = {}, model = 'fake-model') {
	const sleeps: number[] = [];
	const events: ModelEvent[] = [];
	const endpoint = { baseURL: server.baseURL, apiKey: KEY, model };
	const client = createOpenAIClient(
		{ evaluated: endpoint, user: endpoint, judge: endpoint },
		{
			sleep: async (ms) => void sleeps.push(ms),
			random: () => 0.5,
			onEvent: (e) => events.push(e),
			...options
		}
	);
	return { client, sleeps, events };
}

/**
 * A handler that holds each call until `n` are in flight at the server, then lets those go: a
 * client that keeps its limit of `n` always gets there (`n` divides the calls of the test), and
 * one that sends more shows it in `peak()`.
 */
function holdUntil(n: number) {
	let inFlight = 0;
	let peak = 0;
	let waiting: (() => void)[] = [];
	const handler = async () => {
		peak = Math.max(peak, ++inFlight);
		const go = new Promise<void>((resolve) => waiting.push(resolve));
		if (waiting.length >= n) {
			for (const resolve of waiting) resolve();
			waiting = [];
		}
		await go;
		inFlight--;
		return { content: 'ok' };
	};
	return { handler, peak: () => peak };
}

function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
	return {
		role: 'judge',
		task: 'judge_lca',
		prompt: '请判断：<对话历史>User: 你好</对话历史>',
		temperature: 0.1,
		maxTokens: 512,
		caseNumber: '2023-041',
		...overrides
	};
}

const failure = (promise: Promise<unknown>) => rejectionOf(promise, ModelCallError);

describe('createOpenAIClient: the request', () => {
	it('sends the filled prompt as one user message with n=1, temperature and max_tokens', async () => {
		const server = await scripted([
			{ content: '  答复  ', usage: { prompt_tokens: 7, completion_tokens: 3 } }
		]);
		const { client } = setup(server, {}, 'DeepSeek-R1');
		const result = await client.complete(
			request({ prompt: 'P1', temperature: 0.7, maxTokens: 8192 })
		);

		expect(result).toEqual({
			response: '答复',
			reasoning: null,
			finishReason: 'stop',
			usage: { promptTokens: 7, completionTokens: 3 },
			// The content as received differs (spaces), so the call log keeps it too.
			rawContent: '  答复  ',
			attempts: [{ attempt: 1, outcome: 'ok', latencyMs: expect.any(Number) }]
		});
		expect(server.chatRequests).toHaveLength(1);
		expect(server.chatRequests[0].body).toMatchObject({
			model: 'DeepSeek-R1',
			messages: [{ role: 'user', content: 'P1' }],
			n: 1,
			temperature: 0.7,
			max_tokens: 8192
		});
		expect(client.simulated).toBe(false);
	});

	it('sends the key only in the Authorization header, never in the URL or an event', async () => {
		const server = await scripted([{ status: 500 }, { content: 'ok' }], { requireKey: KEY });
		const { client, events } = setup(server);
		await client.complete(request());
		for (const r of server.chatRequests) {
			expect(r.url).not.toContain(KEY);
			const carrying = Object.entries(r.headers).filter(([, v]) => String(v).includes(KEY));
			expect(carrying).toEqual([['authorization', `Bearer ${KEY}`]]);
			expect(JSON.stringify(r.body)).not.toContain(KEY);
		}
		expect(JSON.stringify(events)).not.toContain(KEY);
	});

	it('sends each role to its own endpoint with its own key and model', async () => {
		const a = await scripted([{ content: 'from A' }]);
		const b = await scripted([{ content: 'from B' }]);
		const ep = (s: FakeOpenAI, n: string) => ({
			baseURL: s.baseURL,
			apiKey: `key-${n}`,
			model: `model-${n}`
		});
		const client = createOpenAIClient({
			evaluated: ep(a, 'a'),
			user: ep(a, 'u'),
			judge: ep(b, 'b')
		});
		const roles: Role[] = ['evaluated', 'judge'];
		const out = await Promise.all(roles.map((role) => client.complete(request({ role }))));
		expect(out.map((r) => r.response)).toEqual(['from A', 'from B']);
		expect(a.chatRequests[0].headers.authorization).toBe('Bearer key-a');
		expect(a.chatRequests[0].model).toBe('model-a');
		expect(b.chatRequests[0].headers.authorization).toBe('Bearer key-b');
		expect(b.chatRequests[0].model).toBe('model-b');
	});

	it('calls a keyless local server when no key is set, instead of failing before the request', async () => {
		const server = await scripted([{ content: '好的' }]);
		const ep = { baseURL: server.baseURL, apiKey: '', model: 'qwen2.5:7b' };
		const client = createOpenAIClient({ evaluated: ep, user: ep, judge: ep });
		const out = await client.complete(request({ role: 'evaluated', task: 'lexawn' }));
		expect(out.response).toBe('好的');
		expect(server.chatRequests).toHaveLength(1);
	});
});

describe('createOpenAIClient: retries', () => {
	it('honours Retry-After seconds on 429, then succeeds', async () => {
		const server = await scripted([
			{ status: 429, headers: { 'Retry-After': '7' } },
			{ status: 429, headers: { 'retry-after-ms': '250' } },
			{ content: 'ok' }
		]);
		const { client, sleeps } = setup(server);
		expect((await client.complete(request())).response).toBe('ok');
		expect(sleeps).toEqual([7000, 250]);
		expect(server.chatRequests).toHaveLength(3);
	});

	it('returns every attempt with its cause and wait, for the call log', async () => {
		const server = await scripted([
			{ status: 429, headers: { 'retry-after-ms': '250' } },
			{ status: 503, body: { error: { message: 'overloaded' } } },
			{
				content: 'ok',
				usage: {
					prompt_tokens: 5,
					completion_tokens: 9,
					completion_tokens_details: { reasoning_tokens: 4 }
				}
			}
		]);
		const { client } = setup(server, { backoffBaseMs: 1000 });
		const result = await client.complete(request());
		expect(result.usage).toEqual({ promptTokens: 5, completionTokens: 9, reasoningTokens: 4 });
		expect(result.attempts).toMatchObject([
			{ attempt: 1, outcome: 'rate_limit', status: 429, delayMs: 250 },
			{ attempt: 2, outcome: 'server', status: 503, delayMs: 1500 },
			{ attempt: 3, outcome: 'ok' }
		]);
		expect(result.attempts![1].reason).toMatch(/overloaded/);
	});

	it('gives the attempts of a call that failed for good with its error', async () => {
		const server = await scripted([{ status: 503 }, { status: 503 }]);
		const { client } = setup(server, { retries: 1 });
		const e = await failure(client.complete(request()));
		expect(e.details.attempts).toMatchObject([
			{ attempt: 1, outcome: 'server', status: 503 },
			{ attempt: 2, outcome: 'server', status: 503 }
		]);
	});

	it('caps a long Retry-After at maxRetryAfterMs', async () => {
		const server = await scripted([
			{ status: 429, headers: { 'Retry-After': '3600' } },
			{ content: 'ok' }
		]);
		const { client, sleeps } = setup(server, { maxRetryAfterMs: 60_000 });
		await client.complete(request());
		expect(sleeps).toEqual([60_000]);
	});

	it.each([408, 409, 500, 502, 503])(
		'retries status %i with exponential backoff',
		async (status) => {
			const server = await scripted([{ status }, { status }, { content: 'ok' }]);
			const { client, sleeps } = setup(server, { backoffBaseMs: 1000 });
			expect((await client.complete(request())).response).toBe('ok');
			// random 0.5 → ¾ of 1000·2^(n−1)
			expect(sleeps).toEqual([750, 1500]);
		}
	);

	it.each([
		{ name: 'hang-up', reply: { hangup: true } as Reply },
		{ name: 'malformed body', reply: { malformed: true } as Reply }
	])('retries a $name, then succeeds', async ({ reply }) => {
		const server = await scripted([reply, { content: 'ok' }]);
		const { client, events } = setup(server);
		expect((await client.complete(request())).response).toBe('ok');
		expect(events.filter((e) => e.type === 'retry')).toHaveLength(1);
	});

	it('names the request’s stage in its events, for per-stage counts', async () => {
		const server = await scripted([{ status: 503 }, { content: 'ok' }]);
		const { client, events } = setup(server);
		await client.complete({ ...request(), stage: 'dcg' });
		expect(events.find((e) => e.type === 'retry')).toMatchObject({ stage: 'dcg' });
		expect(events.find((e) => e.type === 'success')).toMatchObject({ stage: 'dcg' });
	});

	it('retries a timeout, then succeeds', async () => {
		const server = await scripted([{ hang: true }, { content: 'ok' }]);
		const { client, events } = setup(server, { timeoutMs: 200 });
		expect((await client.complete(request())).response).toBe('ok');
		expect(events.find((e) => e.type === 'retry')).toMatchObject({ kind: 'timeout' });
	});

	it('stops after retries+1 timeouts, naming the case and the timeout setting', async () => {
		const server = await scripted([{ hang: true }]);
		const { client } = setup(server, { timeoutMs: 150, retries: 2 });
		const e = await failure(client.complete(request()));
		expect(e.details).toMatchObject({
			kind: 'timeout',
			caseNumber: '2023-041',
			role: 'judge',
			task: 'judge_lca'
		});
		expect(e.message).toContain('case 2023-041');
		expect(e.message).toContain('after 3 attempts');
		expect(e.message).toContain('--timeout');
		expect(server.chatRequests).toHaveLength(3);
	});

	it('gives up on a persistent 503 after retries+1 attempts with the provider message', async () => {
		const server = await scripted([
			{ status: 503, body: { error: { message: 'overloaded, try later' } } }
		]);
		const { client, sleeps } = setup(server, { retries: 3 });
		const e = await failure(client.complete(request()));
		expect(e.details).toMatchObject({ kind: 'server', status: 503 });
		expect(e.message).toContain('overloaded, try later');
		expect(server.chatRequests).toHaveLength(4);
		expect(sleeps).toHaveLength(3);
	});
});

describe('createOpenAIClient: errors that are not retried', () => {
	it('401: one attempt, and a message telling which key to check', async () => {
		const server = await scripted([{ content: 'never' }], { requireKey: 'the-right-key' });
		const { client, sleeps } = setup(server, {}, 'DeepSeek-R1');
		const e = await failure(client.complete(request()));
		expect(server.chatRequests).toHaveLength(1);
		expect(sleeps).toEqual([]);
		expect(e.details).toMatchObject({
			kind: 'auth',
			status: 401,
			caseNumber: '2023-041',
			role: 'judge'
		});
		expect(e.message).toContain(
			`case 2023-041, judge model DeepSeek-R1 at ${server.baseURL}: 401 Unauthorized`
		);
		expect(e.message).toContain('the key was refused');
		expect(e.message).toContain('LEXPILOT_JUDGE_API_KEY');
		expect(e.message).toContain('Incorrect API key provided');
		expect(e.message).not.toContain(KEY);
	});

	it('a key with an invisible character: no request, and a message that names the character', async () => {
		const server = await scripted([{ content: 'never sent' }]);
		const ep = { baseURL: server.baseURL, apiKey: 'sk-abc\u00a0def', model: 'm' };
		const client = createOpenAIClient({ evaluated: ep, user: ep, judge: ep });
		const error = await client.complete(request()).catch((e) => e);
		expect(error).toBeInstanceOf(ModelCallError);
		expect(error.details.kind).toBe('auth');
		expect(error.message).toMatch(/case 2023-041, judge model m at .*U\+00A0 at position 7/);
		expect(server.requests).toHaveLength(0);
	});

	it('404 unknown model: one attempt, names the model and where to change it', async () => {
		const server = await scripted([{ content: 'never' }], { knownModels: ['gpt-x'] });
		const { client } = setup(server, {}, 'gpt-typo');
		const e = await failure(client.complete(request({ role: 'evaluated', task: 'lexawn' })));
		expect(server.chatRequests).toHaveLength(1);
		expect(e.details).toMatchObject({ kind: 'not_found', status: 404, role: 'evaluated' });
		expect(e.message).toContain('model "gpt-typo" is unknown');
		expect(e.message).toContain('--model / LEXPILOT_MODEL');
		expect(e.message).toContain('LEXPILOT_EVAL_BASE_URL');
	});

	it.each([400, 403, 422])('%i: one attempt, with the provider message', async (status) => {
		const server = await scripted([
			{ status, body: { error: { message: `provider says ${status}` } } }
		]);
		const { client } = setup(server);
		const e = await failure(client.complete(request()));
		expect(server.chatRequests).toHaveLength(1);
		expect(e.details.status).toBe(status);
		expect(e.message).toContain(`provider says ${status}`);
	});

	it('redacts the key if a provider echoes it back', async () => {
		const server = await scripted([
			{ status: 401, body: { error: { message: `bad key ${KEY}` } } }
		]);
		const { client, events } = setup(server);
		const e = await failure(client.complete(request()));
		expect(e.message).not.toContain(KEY);
		expect(JSON.stringify(events)).not.toContain(KEY);
	});
});

describe('createOpenAIClient: output rules', () => {
	it.each([
		{ name: 'empty content', reply: { content: '' }, expected: 'empty content' },
		{ name: 'whitespace content', reply: { content: ' \n\t ' }, expected: 'empty content' },
		{ name: 'null content', reply: { content: null }, expected: 'empty content' },
		{
			name: 'only a think block',
			reply: { content: '<think>hmm</think>  ' },
			expected: 'empty content'
		},
		{
			name: 'finish_reason length',
			reply: { content: '部分回答', finish_reason: 'length' },
			expected: 'cut off at max_tokens 512'
		}
	])('rejects $name, retries it, and fails with the raw output', async ({ reply, expected }) => {
		const server = await scripted([reply as Reply]);
		const { client, events } = setup(server, { retries: 2 });
		const e = await failure(client.complete(request()));
		expect(server.chatRequests).toHaveLength(3);
		expect(e.details.kind).toBe('invalid_output');
		expect(e.details.rawOutput).toBe((reply as { content: string | null }).content ?? '');
		expect(e.message).toContain(expected);
		expect(events.filter((ev) => ev.type === 'retry')).toHaveLength(2);
	});

	it.each([
		{ reply: { content: 42 }, field: 'content is a number' },
		{ reply: { content: '答案', reasoning_content: 5 }, field: 'reasoning_content is a number' },
		{ reply: { content: ['答案'] }, field: 'content is an array' }
	])('an answer whose text is not text is a failed attempt: $field', async ({ reply, field }) => {
		const server = await scripted([reply as unknown as Reply, { content: '完整回答' }]);
		const { client, events } = setup(server, { retries: 1 });
		expect((await client.complete(request())).response).toBe('完整回答');
		const retry = events.find((ev) => ev.type === 'retry');
		expect(retry?.type === 'retry' && [retry.kind, retry.reason]).toEqual([
			'invalid_output',
			`choices[0].message.${field}, not text`
		]);
	});

	it('accepts a good answer after a rejected one', async () => {
		const server = await scripted([
			{ content: 'cut', finish_reason: 'length' },
			{ content: '完整回答' }
		]);
		const { client } = setup(server);
		expect((await client.complete(request())).response).toBe('完整回答');
	});

	it.each([
		{ reply: { content: '<think>先分析</think>\n\n答案' }, response: '答案', reasoning: '先分析' },
		{ reply: { content: '答案', reasoning_content: '推理' }, response: '答案', reasoning: '推理' },
		{
			reply: { content: '答案', reasoning: '推理 (OpenRouter)' },
			response: '答案',
			reasoning: '推理 (OpenRouter)'
		}
	])('splits reasoning off the response: $reply', async ({ reply, response, reasoning }) => {
		const server = await scripted([reply]);
		const { client } = setup(server);
		expect(await client.complete(request())).toMatchObject({ response, reasoning });
	});
});

describe('createOpenAIClient: abort', () => {
	it('stops a hanging call promptly when aborted', async () => {
		const ctl = new AbortController();
		// Aborted once the server holds the request, so the call is in flight.
		const server = await serve({
			handler: () => {
				ctl.abort();
				return { hang: true };
			}
		});
		const { client } = setup(server, { timeoutMs: 60_000 });
		const started = Date.now();
		const e = await failure(client.complete(request({ signal: ctl.signal })));
		expect(e.details.kind).toBe('aborted');
		expect(Date.now() - started).toBeLessThan(2000);
	});

	it('stops during the backoff wait when aborted', async () => {
		const server = await scripted([{ status: 503 }]);
		const ctl = new AbortController();
		// Aborted as the 30 s backoff begins (the retry event comes just before the wait).
		const { client } = setup(server, {
			sleep: undefined,
			backoffBaseMs: 30_000,
			onEvent: (event) => event.type === 'retry' && ctl.abort()
		});
		const started = Date.now();
		const e = await failure(client.complete(request({ signal: ctl.signal })));
		expect(e.details.kind).toBe('aborted');
		expect(Date.now() - started).toBeLessThan(2000);
		expect(server.chatRequests).toHaveLength(1);
	});

	it('keeps one abort listener on a run signal shared by many calls, and none once they end', async () => {
		// Half the calls are rate limited first, so calls wait in the limiter's queue, in flight
		// and in the backoff sleep at the same time, as in a 429 storm at high concurrency.
		const limited = new Set<string>();
		const server = await serve({
			handler: ({ prompt }) => {
				const even = Number(prompt.slice(1)) % 2 === 0;
				if (!even || limited.has(prompt)) return { content: 'ok' };
				limited.add(prompt);
				return { status: 429 };
			}
		});
		const { client } = setup(server, { concurrency: 4, sleep: undefined, backoffBaseMs: 5 });
		const controller = new AbortController();
		const { signal } = controller;
		const live = new Set<unknown>();
		let most = 0;
		const add = signal.addEventListener.bind(signal);
		const remove = signal.removeEventListener.bind(signal);
		signal.addEventListener = ((type: string, listener: () => void, options?: unknown) => {
			if (type === 'abort') most = Math.max(most, live.add(listener).size);
			add(type, listener, options as AddEventListenerOptions);
		}) as typeof signal.addEventListener;
		signal.removeEventListener = ((type: string, listener: () => void) => {
			if (type === 'abort') live.delete(listener);
			remove(type, listener);
		}) as typeof signal.removeEventListener;

		const results = await Promise.all(
			Array.from({ length: 40 }, (_, i) =>
				client.complete(request({ caseNumber: `c${i}`, prompt: `P${i}`, signal }))
			)
		);
		expect(results.map((r) => r.response)).toEqual(Array(40).fill('ok'));
		expect(server.chatRequests).toHaveLength(60);
		expect(most).toBe(1);
		expect(live.size).toBe(0);
	});

	it('sends nothing when the signal is already aborted', async () => {
		const server = await scripted([{ content: 'ok' }]);
		const { client } = setup(server);
		const e = await failure(client.complete(request({ signal: AbortSignal.abort() })));
		expect(e.details.kind).toBe('aborted');
		expect(server.chatRequests).toHaveLength(0);
	});
});

describe('createOpenAIClient: concurrency', () => {
	it('never has more calls in flight per endpoint than the concurrency', async () => {
		const held = holdUntil(3);
		const server = await serve({ handler: held.handler });
		const { client } = setup(server, { concurrency: 3 });
		await Promise.all(
			Array.from({ length: 12 }, (_, i) => client.complete(request({ caseNumber: `c${i}` })))
		);
		expect(held.peak()).toBe(3);
	});

	it('shares one limit between roles on the same base URL', async () => {
		const held = holdUntil(2);
		const server = await serve({ handler: held.handler });
		const { client } = setup(server, { concurrency: 2 });
		const roles: Role[] = ['evaluated', 'user', 'judge'];
		await Promise.all(
			roles.flatMap((role) => [1, 2].map(() => client.complete(request({ role }))))
		);
		expect(held.peak()).toBe(2);
	});

	it('sends the call waiting for a slot before handing the freed slot’s answer back', async () => {
		const server = await scripted([{ content: 'ok' }]);
		const order: string[] = [];
		const { client } = setup(server, {
			concurrency: 1,
			fetch: (url, init) => {
				order.push(`sent ${JSON.stringify(init?.body).includes('c1') ? 'c1' : 'c0'}`);
				return fetch(url, init);
			}
		});
		const prompt = (c: string) => `请判断：<对话历史>User: ${c}</对话历史>`;
		await Promise.all(
			['c0', 'c1'].map((c) =>
				client
					.complete(request({ caseNumber: c, prompt: prompt(c) }))
					.then(() => order.push(`answered ${c}`))
			)
		);
		expect(order).toEqual(['sent c0', 'sent c1', 'answered c0', 'answered c1']);
	});

	it('halves the endpoint limit on 429 and grows it back after successes', async () => {
		const server = await scripted([
			{ status: 429, headers: { 'Retry-After': '0' } },
			{ content: 'ok' }
		]);
		const { client, events } = setup(server, { concurrency: 4, growAfter: 2 });
		await client.complete(request());
		for (let i = 0; i < 4; i++) await client.complete(request());
		const limits = events
			.filter((e) => e.type === 'limit')
			.map((e) => e.type === 'limit' && [e.limit, e.reason]);
		expect(limits).toEqual([
			[2, 'rate_limited'],
			[3, 'recovered'],
			[4, 'recovered']
		]);
	});
});

describe('createOpenAIClient: events', () => {
	it('reports every attempt, each retry with its delay and reason, and the success', async () => {
		const server = await scripted([
			{ status: 500, body: { error: { message: 'boom' } } },
			{ status: 429, headers: { 'Retry-After': '2' } },
			{ content: 'ok' }
		]);
		const { client, events } = setup(server);
		await client.complete(request());
		const calls = events.filter((e) => e.type !== 'limit');
		expect(calls.map((e) => [e.type, 'attempt' in e ? e.attempt : null])).toEqual([
			['attempt', 1],
			['retry', 1],
			['attempt', 2],
			['retry', 2],
			['attempt', 3],
			['success', 3]
		]);
		expect(calls[1]).toMatchObject({
			kind: 'server',
			status: 500,
			delayMs: 750,
			fromRetryAfter: false,
			reason: '500 boom'
		});
		expect(calls[3]).toMatchObject({
			kind: 'rate_limit',
			status: 429,
			delayMs: 2000,
			fromRetryAfter: true
		});
		expect(calls[5]).toMatchObject({
			caseNumber: '2023-041',
			role: 'judge',
			task: 'judge_lca',
			model: 'fake-model',
			maxAttempts: 4
		});
	});

	it('reports the final failure with the thrown message', async () => {
		const server = await scripted([{ status: 400 }]);
		const { client, events } = setup(server);
		const e = await failure(client.complete(request()));
		expect(events.at(-1)).toMatchObject({
			type: 'failure',
			kind: 'bad_request',
			status: 400,
			message: e.message
		});
	});
});

describe('createOpenAIClient: connection failures', () => {
	it('retries an unreachable endpoint, then says to check the server and base URL', async () => {
		const server = await scripted([{ content: 'ok' }]);
		await server.close();
		const { client } = setup(server, { retries: 1 });
		const e = await failure(client.complete(request({ role: 'user', task: 'user_standard' })));
		expect(e.details.kind).toBe('unreachable');
		expect(e.message).toContain('could not connect after 2 attempts');
		expect(e.message).toContain('LEXPILOT_USER_BASE_URL');
	});

	it('stops at once with the fix when the probe says CORS', async () => {
		const server = await scripted([{ content: 'ok' }]);
		await server.close();
		const probed: string[] = [];
		const { client, sleeps } = setup(server, {
			probeConnection: async (url) => {
				probed.push(url);
				return { kind: 'cors', hint: 'Start Ollama with OLLAMA_ORIGINS set to this page.' };
			}
		});
		const e = await failure(client.complete(request()));
		expect(probed).toEqual([server.baseURL]);
		expect(sleeps).toEqual([]);
		expect(e.details.kind).toBe('cors');
		expect(e.message).toContain('OLLAMA_ORIGINS');
		expect(e.message).toContain('CLI');
	});
});
