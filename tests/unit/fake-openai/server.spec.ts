import { spawn } from 'node:child_process';
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
