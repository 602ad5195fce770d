import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../../../tests/fake-openai/server';
import { corsHint, guessProvider, probeCors, testConnection, type Provider } from './diagnose';

describe('guessProvider', () => {
	it.each([
		['https://api.openai.com/v1', 'openai'],
		['https://api.deepseek.com/v1', 'deepseek'],
		['https://api.deepseek.com', 'deepseek'],
		['https://openrouter.ai/api/v1', 'openrouter'],
		['http://localhost:11434/v1', 'ollama'],
		['http://127.0.0.1:1234/v1', 'lmstudio'],
		['http://gpu-box:8000/v1', 'vllm'],
		['http://localhost:8080/v1', 'llamacpp'],
		['https://notopenai.com/v1', 'generic'],
		['https://my-proxy.example/v1', 'generic'],
		['not a url', 'generic']
	])('%s → %s', (url, provider) => {
		expect(guessProvider(url)).toBe(provider);
	});
});

describe('corsHint', () => {
	it.each<[Provider, string]>([
		['ollama', 'OLLAMA_ORIGINS'],
		['lmstudio', 'Enable CORS'],
		['vllm', '--allowed-origins'],
		['llamacpp', '--api-prefix'],
		['openai', 'CLI'],
		['deepseek', 'CLI'],
		['openrouter', 'CLI'],
		['generic', 'Access-Control-Allow-Origin']
	])('%s mentions %s', (provider, text) => {
		expect(corsHint(provider, 'http://127.0.0.1:4173')).toContain(text);
	});

	it('quotes the page origin where the provider needs it', () => {
		expect(corsHint('ollama', 'http://127.0.0.1:4173')).toContain(
			'OLLAMA_ORIGINS="http://127.0.0.1:4173"'
		);
	});
});

type FetchCall = { url: string; mode?: RequestMode };

/** A browser-like fetch: `cors` requests fail like a CORS block, `no-cors` ones per `serverUp`. */
function browserFetch(serverUp: boolean, calls: FetchCall[] = []): typeof fetch {
	return (async (input: RequestInfo | URL, init?: RequestInit) => {
		calls.push({ url: String(input), mode: init?.mode });
		if (init?.mode === 'no-cors' && serverUp) return new Response(null, { status: 200 });
		throw new TypeError('Failed to fetch');
	}) as typeof fetch;
}

describe('probeCors', () => {
	it('an answering server means the call was refused for CORS', async () => {
		const calls: FetchCall[] = [];
		const result = await probeCors('http://localhost:11434/v1/', {
			fetchImpl: browserFetch(true, calls),
			origin: 'http://127.0.0.1:4173'
		});
		expect(result.kind).toBe('cors');
		expect(result.hint).toContain('OLLAMA_ORIGINS');
		expect(calls).toEqual([{ url: 'http://localhost:11434/v1/models', mode: 'no-cors' }]);
	});

	it('a failing probe means nothing answers', async () => {
		const result = await probeCors('http://localhost:11434/v1', { fetchImpl: browserFetch(false) });
		expect(result.kind).toBe('unreachable');
		expect(result.hint).toContain('server is running');
	});
});

const endpoint = (baseURL: string, model = 'fake-model', apiKey = 'sk-test-key-123456') => ({
	baseURL,
	apiKey,
	model
});

describe('testConnection with a browser-like fetch', () => {
	it('classifies a blocked call to a live server as CORS, with the provider fix', async () => {
		const result = await testConnection(endpoint('http://127.0.0.1:1234/v1'), {
			fetchImpl: browserFetch(true)
		});
		expect(result).toMatchObject({ status: 'cors', provider: 'lmstudio' });
		expect(result.hint).toContain('Enable CORS');
	});

	it('classifies a blocked call to a dead server as unreachable', async () => {
		const result = await testConnection(endpoint('http://127.0.0.1:11434/v1'), {
			fetchImpl: browserFetch(false)
		});
		expect(result).toMatchObject({ status: 'unreachable', provider: 'ollama' });
	});

	it('reports a 404 on every path as a wrong base URL path', async () => {
		const notFound = (async () =>
			new Response('{"detail":"Not Found"}', {
				status: 404,
				headers: { 'content-type': 'application/json' }
			})) as typeof fetch;
		const result = await testConnection(endpoint('http://localhost:11434'), {
			fetchImpl: notFound
		});
		expect(result).toMatchObject({ status: 'not_found', httpStatus: 404 });
		expect(result.hint).toContain('/v1');
	});

	it('rejects a base URL that is not a URL without calling anything', async () => {
		const calls: FetchCall[] = [];
		const result = await testConnection(endpoint('localhost:11434'), {
			fetchImpl: browserFetch(true, calls)
		});
		expect(result.status).toBe('other');
		expect(calls).toEqual([]);
	});
});

describe('testConnection against a real server', () => {
	const servers: FakeOpenAI[] = [];
	afterEach(async () => {
		await Promise.all(servers.splice(0).map((s) => s.close()));
	});
	const serve = async (options: Parameters<typeof startFakeOpenAI>[0]) => {
		const s = await startFakeOpenAI(options);
		servers.push(s);
		return s;
	};

	it('ok: one tiny "ping" call, with its latency', async () => {
		const server = await serve({});
		const result = await testConnection(endpoint(server.baseURL));
		expect(result.status).toBe('ok');
		expect(result.latencyMs).toBeGreaterThanOrEqual(0);
		expect(server.chatRequests).toHaveLength(1);
		expect(server.chatRequests[0].prompt).toBe('ping');
		expect(Number(server.chatRequests[0].body?.max_tokens)).toBeLessThanOrEqual(8);
	});

	it('auth: a refused key, without echoing it', async () => {
		const server = await serve({ requireKey: 'the-right-key' });
		const result = await testConnection(endpoint(server.baseURL, 'fake-model', 'sk-wrong-key-999'));
		expect(result).toMatchObject({ status: 'auth', httpStatus: 401 });
		expect(JSON.stringify(result)).not.toContain('sk-wrong-key-999');
	});

	it('auth: a key with an invisible character is named as such, and nothing is sent', async () => {
		const server = await serve({});
		const result = await testConnection(endpoint(server.baseURL, 'fake-model', 'sk-abc\u200bdef'));
		expect(result.status).toBe('auth');
		expect(result.message).toMatch(/U\+200B at position 7/);
		expect(server.requests).toHaveLength(0);
	});

	it('not_found: an unknown model, listing the ones the server has', async () => {
		const server = await serve({ knownModels: ['qwen3:8b', 'llama3.1:8b'] });
		const result = await testConnection(endpoint(server.baseURL, 'qwen3-8b'));
		expect(result).toMatchObject({ status: 'not_found', httpStatus: 404 });
		expect(result.message).toContain('"qwen3-8b"');
		expect(result.hint).toContain('qwen3:8b, llama3.1:8b');
	});

	it('other: any other status with the provider message', async () => {
		const server = await serve({
			handler: () => ({ status: 500, body: { error: { message: 'GPU on fire' } } })
		});
		const result = await testConnection(endpoint(server.baseURL));
		expect(result).toMatchObject({ status: 'other', httpStatus: 500 });
		expect(result.message).toContain('GPU on fire');
	});

	it('unreachable: nothing listens (Node has no CORS, so the probe fails too)', async () => {
		const server = await serve({});
		await server.close();
		const result = await testConnection(endpoint(server.baseURL));
		expect(result.status).toBe('unreachable');
	});
});
