import { spawn } from 'node:child_process';
import { connect, type ClientHttp2Session } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { byTask } from '../../fake-openai/by-task';
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from '../../fake-openai/server';

const servers: FakeOpenAI[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function serve(options: FakeOpenAIOptions = {}) {
	const s = await startFakeOpenAI(options);
	servers.push(s);
	return s;
}

const chat = (baseURL: string, prompt: string, init: RequestInit = {}) =>
	fetch(`${baseURL}/chat/completions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
		body: JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content: prompt }] }),
		...init
	});

const preflight = (baseURL: string) =>
	fetch(`${baseURL}/chat/completions`, {
		method: 'OPTIONS',
		headers: {
			origin: 'http://127.0.0.1:4173',
			'access-control-request-method': 'POST',
			'access-control-request-headers': 'authorization,content-type,x-stainless-os,x-evil'
		}
	});

describe('fake OpenAI server: CORS', () => {
	it('cors: true answers the preflight and allows the SDK headers', async () => {
		const server = await serve({ cors: true });
		const res = await preflight(server.baseURL);
		expect(res.status).toBe(204);
		expect(res.headers.get('access-control-allow-origin')).toBe('*');
		const allowed = res.headers.get('access-control-allow-headers')!.split(', ');
		expect(allowed).toEqual(
			expect.arrayContaining(['authorization', 'content-type', 'x-stainless-os'])
		);
		expect(allowed).not.toContain('x-evil');
		const post = await chat(server.baseURL, 'hi');
		expect(post.headers.get('access-control-expose-headers')).toContain('Retry-After');
	});

	it('cors: false sends no CORS header at all', async () => {
		const server = await serve({ cors: false });
		for (const res of [await preflight(server.baseURL), await chat(server.baseURL, 'hi')]) {
			const cors = [...res.headers.keys()].filter((h) => h.startsWith('access-control-'));
			expect(cors).toEqual([]);
		}
	});
});

describe('fake OpenAI server: routes and scripting', () => {
	it('serves chat completions under any prefix and records model, prompt and headers', async () => {
		const seen: number[] = [];
		const server = await serve({
			handler: ({ prompt, callIndex }) => (seen.push(callIndex), { content: `re: ${prompt}` })
		});
		for (const base of [server.baseURL, `${server.url}/api/v1`, server.url]) {
			const body = await (await chat(base, 'ping')).json();
			expect(body.choices[0].message.content).toBe('re: ping');
		}
		expect(seen).toEqual([0, 1, 2]);
		expect(server.chatRequests.map((r) => [r.model, r.prompt, r.headers.authorization])).toEqual([
			['fake-model', 'ping', 'Bearer k'],
			['fake-model', 'ping', 'Bearer k'],
			['fake-model', 'ping', 'Bearer k']
		]);
	});

	it('lists the known models', async () => {
		const server = await serve({ knownModels: ['a', 'b'] });
		const body = await (await fetch(`${server.baseURL}/models`)).json();
		expect(body.data.map((m: { id: string }) => m.id)).toEqual(['a', 'b']);
	});

	it('delays a reply by delayMs', async () => {
		const server = await serve({ handler: () => ({ content: 'late', delayMs: 150 }) });
		const started = Date.now();
		await chat(server.baseURL, 'x');
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
	});

	it('byTask routes each request to its task and refuses loudly otherwise', async () => {
		const server = await serve({
			handler: byTask({
				detect: ({ prompt }) =>
					prompt.startsWith('LCA') ? 'judge_lca' : prompt.startsWith('DCG') ? 'judge_dcg' : null,
				responders: { judge_lca: () => ({ content: '{"label": "澄清"}' }) }
			})
		});
		const ok = await (await chat(server.baseURL, 'LCA: …')).json();
		expect(ok.choices[0].message.content).toBe('{"label": "澄清"}');
		const missing = await chat(server.baseURL, 'DCG: …');
		expect(missing.status).toBe(501);
		expect((await missing.json()).error.message).toContain('no responder for task judge_dcg');
		expect((await chat(server.baseURL, '???')).status).toBe(501);
	});
});

/** One chat call over HTTP/2 on `session`: status, headers and body text. */
function h2Chat(session: ClientHttp2Session, path: string, prompt: string) {
	return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>(
		(resolve, reject) => {
			const stream = session.request({
				':method': 'POST',
				':path': path,
				'content-type': 'application/json',
				authorization: 'Bearer k'
			});
			let status = 0;
			let headers: Record<string, unknown> = {};
			let text = '';
			stream.on('response', (h) => ((status = Number(h[':status'])), (headers = h)));
			stream.setEncoding('utf8');
			stream.on('data', (c: string) => (text += c));
			stream.on('end', () => resolve({ status, headers, text }));
			stream.on('error', reject);
			stream.end(
				JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content: prompt }] })
			);
		}
	);
}

describe("fake OpenAI server: transport 'h2'", () => {
	const script = ({ prompt }: { prompt: string }) =>
		prompt === 'hang up'
			? { hangup: true as const }
			: prompt === 'busy'
				? { status: 429, headers: { 'Retry-After': '2' } }
				: prompt === 'cut'
					? { malformed: true as const }
					: { content: `re: ${prompt}`, delayMs: 100 };

	it('answers over HTTP/2 with TLS, one session for concurrent calls, and records the version', async () => {
		// Every answer waits until all eight calls have come: they are answered only if all eight
		// are in flight at once on the one connection (one at a time, the first would wait for ever).
		let arrived = 0;
		let release = () => {};
		const together = new Promise<void>((ok) => (release = ok));
		const server = await serve({
			transport: 'h2',
			handler: async (request) => {
				if (++arrived === 8) release();
				await together;
				return script(request);
			}
		});
		expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
		expect(server.certificate).toContain('BEGIN CERTIFICATE');
		const session = connect(server.url, { ca: server.certificate! });
		try {
			const path = new URL(`${server.baseURL}/chat/completions`).pathname;
			const replies = await Promise.all(
				['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((p) => h2Chat(session, path, p))
			);
			expect(replies.map((r) => JSON.parse(r.text).choices[0].message.content)).toEqual(
				['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((p) => `re: ${p}`)
			);
			expect(replies[0].headers['access-control-allow-origin']).toBe('*');
		} finally {
			session.close();
		}
		expect(server.chatRequests.map((r) => r.httpVersion)).toEqual(Array(8).fill('2.0'));
		expect(Object.keys(server.chatRequests[0].headers).filter((h) => h.startsWith(':'))).toEqual(
			[]
		);
		expect(server.chatRequests[0].headers.authorization).toBe('Bearer k');
	});

	it('gives the same faults as over HTTP/1.1; a hang-up resets only its own stream', async () => {
		const server = await serve({ transport: 'h2', handler: script });
		const session = connect(server.url, { ca: server.certificate! });
		try {
			const path = '/v1/chat/completions';
			const [dropped, fine, busy, cut] = await Promise.allSettled([
				h2Chat(session, path, 'hang up'),
				h2Chat(session, path, 'fine'),
				h2Chat(session, path, 'busy'),
				h2Chat(session, path, 'cut')
			]);
			expect(dropped.status).toBe('rejected');
			expect(String((dropped as PromiseRejectedResult).reason)).toMatch(/INTERNAL_ERROR/);
			const ok = (fine as PromiseFulfilledResult<{ text: string }>).value;
			expect(JSON.parse(ok.text).choices[0].message.content).toBe('re: fine');
			const refused = (
				busy as PromiseFulfilledResult<{ status: number; headers: Record<string, unknown> }>
			).value;
			expect([refused.status, refused.headers['retry-after']]).toEqual([429, '2']);
			const truncated = (cut as PromiseFulfilledResult<{ status: number; text: string }>).value;
			expect(truncated.status).toBe(200);
			expect(() => JSON.parse(truncated.text)).toThrow();
		} finally {
			session.close();
		}
	});

	it('still answers HTTP/1.1 clients over TLS', async () => {
		const server = await serve({ transport: 'h2', handler: script });
		const text = await new Promise<string>((resolve, reject) => {
			const req = httpsRequest(
				`${server.baseURL}/chat/completions`,
				{
					method: 'POST',
					ca: server.certificate!,
					headers: { 'content-type': 'application/json' }
				},
				(res) => {
					let body = '';
					res.setEncoding('utf8');
					res.on('data', (c: string) => (body += c));
					res.on('end', () => resolve(body));
				}
			);
			req.on('error', reject);
			req.end(
				JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content: 'one' }] })
			);
		});
		expect(JSON.parse(text).choices[0].message.content).toBe('re: one');
		expect(server.chatRequests.map((r) => r.httpVersion)).toEqual(['1.1']);
	});

	it('says openssl is missing when it cannot make its certificate', async () => {
		const path = process.env.PATH;
		process.env.PATH = '/nonexistent';
		try {
			await expect(startFakeOpenAI({ transport: 'h2' })).rejects.toThrow(
				/makes its TLS certificate with openssl, which is not on PATH/
			);
		} finally {
			process.env.PATH = path;
		}
	});

	it('keeps HTTP/1.1 without TLS the default', async () => {
		const server = await serve();
		expect(server.url).toMatch(/^http:\/\//);
		expect(server.certificate).toBeNull();
		await chat(server.baseURL, 'x');
		expect(server.chatRequests[0].httpVersion).toBe('1.1');
	});
});

describe('fake OpenAI CLI', () => {
	it('starts with a script module, prints its URL and stops on SIGTERM', async () => {
		const child = spawn(
			process.execPath,
			[
				'--import',
				'tsx',
				'tests/fake-openai/cli.ts',
				'--script',
				'tests/fake-openai/examples/echo-script.ts'
			],
			{ stdio: ['ignore', 'pipe', 'inherit'] }
		);
		try {
			const line = await new Promise<string>((resolve, reject) => {
				createInterface({ input: child.stdout! }).once('line', resolve);
				child.once('exit', (code) => reject(new Error(`cli exited with ${code}`)));
			});
			const { baseURL } = JSON.parse(line);
			const body = await (await chat(baseURL, 'abc')).json();
			expect(body.choices[0].message.content).toBe('cba');
		} finally {
			const exited = new Promise((r) => child.once('exit', r));
			child.kill('SIGTERM');
			expect(await exited).toBe(0);
		}
	}, 20_000);
});
