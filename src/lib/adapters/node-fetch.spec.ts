import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI, type Reply } from '../../../tests/fake-openai/server';
import { boundedFetch, maxResponseBytes, ResponseTooLarge } from '../core/model/bounded-fetch';
import { createNodeFetch } from './node-fetch';

let server: FakeOpenAI | null = null;
let plain: Server | null = null;

afterEach(async () => {
	await server?.close();
	server = null;
	await new Promise((r) => (plain ? plain.close(r) : r(undefined)));
	plain = null;
});

const chat = (maxTokens = 100) => ({
	method: 'POST',
	headers: new Headers({ 'content-type': 'application/json', authorization: 'Bearer sk-x' }),
	body: JSON.stringify({
		model: 'm',
		messages: [{ role: 'user', content: '问题' }],
		max_tokens: maxTokens
	})
});

async function fake(reply: (prompt: string) => Reply): Promise<FakeOpenAI> {
	server = await startFakeOpenAI({ handler: ({ prompt }) => reply(prompt) });
	return server;
}

describe('createNodeFetch', () => {
	it('sends the request as fetch would and answers with a standard Response', async () => {
		const s = await fake((prompt) => ({ content: `echo ${prompt}` }));
		const response = await createNodeFetch()(`${s.baseURL}/chat/completions`, chat());
		expect(response).toBeInstanceOf(Response);
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toContain('application/json');
		const body = (await response.json()) as { choices: [{ message: { content: string } }] };
		expect(body.choices[0].message.content).toBe('echo 问题');
		expect(s.chatRequests[0]?.headers.authorization).toBe('Bearer sk-x');
		expect((s.chatRequests[0]?.body as { max_tokens?: number }).max_tokens).toBe(100);
	});

	it('passes an error status and its headers through', async () => {
		const s = await fake(() => ({ status: 429, headers: { 'Retry-After': '2' } }));
		const response = await createNodeFetch()(`${s.baseURL}/chat/completions`, chat());
		expect(response.status).toBe(429);
		expect(response.headers.get('retry-after')).toBe('2');
		expect(await response.text()).toContain('error');
	});

	it('stops reading a giant answer at the body bound and fails its body with ResponseTooLarge', async () => {
		const done: { sent: number; finished: boolean }[] = [];
		const s = await fake(() => ({
			giant: { bytes: 50 * 1024 * 1024, done: (sent, finished) => done.push({ sent, finished }) }
		}));
		const nodeFetch = createNodeFetch();
		// It bounds bodies itself, so the client does not wrap it in a second stream.
		expect(boundedFetch(nodeFetch)).toBe(nodeFetch);
		const response = await nodeFetch(`${s.baseURL}/chat/completions`, chat(8192));
		const error = await response.json().then(
			() => null,
			(e: unknown) => e
		);
		expect(error).toBeInstanceOf(ResponseTooLarge);
		expect((error as ResponseTooLarge).limit).toBe(maxResponseBytes(8192));
		for (let i = 0; i < 200 && done.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
		expect(done[0].finished).toBe(false);
		expect(done[0].sent).toBeLessThan(25 * 1024 * 1024);
	});

	it('a connection dropped mid-body fails the body, not the request', async () => {
		const s = await fake(() => ({ dropMidBody: true }));
		const response = await createNodeFetch()(`${s.baseURL}/chat/completions`, chat());
		expect(response.status).toBe(200);
		await expect(response.json()).rejects.toThrow(TypeError);
	});

	it('a connection closed without an answer rejects like fetch (TypeError with a cause)', async () => {
		const s = await fake(() => ({ hangup: true }));
		const error = await createNodeFetch()(`${s.baseURL}/chat/completions`, chat()).then(
			() => null,
			(e: unknown) => e
		);
		expect(error).toBeInstanceOf(TypeError);
		expect((error as Error).cause).toBeInstanceOf(Error);
	});

	it('an abort stops a request in flight', async () => {
		const s = await fake(() => ({ hang: true }));
		const ctl = new AbortController();
		const pending = createNodeFetch()(`${s.baseURL}/chat/completions`, {
			...chat(),
			signal: ctl.signal
		});
		setTimeout(() => ctl.abort(), 50);
		await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
	});

	it('decodes a gzip answer, and follows a redirect within the origin itself, not through fetch', async () => {
		plain = createServer((req, res) => {
			if (req.url === '/old') {
				res.writeHead(307, { location: '/gz' }).end();
				return;
			}
			res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
			res.end(gzipSync(JSON.stringify({ ok: '是' })));
		});
		await new Promise<void>((r) => plain!.listen(0, '127.0.0.1', r));
		const base = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
		const nodeFetch = createNodeFetch(() => Promise.reject(new Error('fetch was asked')));
		expect(await (await nodeFetch(`${base}/gz`, chat())).json()).toEqual({ ok: '是' });
		expect(await (await nodeFetch(`${base}/old`, chat())).json()).toEqual({ ok: '是' });
	});
});
