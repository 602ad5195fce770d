/**
 * Messages that named the wrong thing when a provider (or the network) misbehaved, each now
 * with its own code: a browser gone offline read "the server is up, but … closed the
 * connection", an endpoint that stopped answering altogether read the same, and an answer of
 * tool calls with null content sent the user to "check that the model id is a chat model".
 * The redirect messages are in provider-redirects.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { ModelCallError } from '../../../src/lib/core/errors';
import { probeCors, testConnection } from '../../../src/lib/core/model/diagnose';
import { createOpenAIClient } from '../../../src/lib/core/model/openai-client';
import { startFakeOpenAI } from '../../fake-openai/server';
import { fakeServers } from '../../support/fake-servers';

const KEY = 'sk-test-0123456789abcdef';
const serve = fakeServers();

const request = (caseNumber: string) => ({
	role: 'evaluated' as const,
	task: 'lexawn' as const,
	prompt: '案情',
	temperature: 0,
	maxTokens: 512,
	caseNumber
});

/**
 * A browser-like client of `server` (the page's probe, `navigator.onLine` as `online()`): one
 * call answered, then the server goes away; the second call's error.
 */
async function lostAfterAnswer(online: () => boolean) {
	const server = await startFakeOpenAI({ handler: () => ({ content: 'ok' }) });
	const endpoint = { baseURL: server.baseURL, apiKey: KEY, model: 'm' };
	const client = createOpenAIClient(
		{ evaluated: endpoint, user: endpoint, judge: endpoint },
		{
			retries: 0,
			probeConnection: (baseURL, signal) => probeCors(baseURL, { signal, online })
		}
	);
	expect((await client.complete(request('c1'))).response).toBe('ok');
	await server.close();
	return client.complete(request('c2')).then(
		() => null,
		(e: unknown) => e as ModelCallError
	);
}

describe('the connection lost after answers, in the browser', () => {
	it('offline (navigator.onLine false): says the browser is offline, not that the server is up', async () => {
		const error = await lostAfterAnswer(() => false);
		expect(error).toBeInstanceOf(ModelCallError);
		expect(error!.details.kind).toBe('unreachable');
		expect(error!.message).toMatch(
			/: the browser is offline \(.*\) — the network connection was lost, not the server; reconnect, then resume the run\.$/
		);
		expect(error!.message).not.toMatch(/the server is up/);
		expect(error!.details.said?.[0]?.code).toBe('fail_offline');
	});

	it('online, but the no-cors probe gets no answer either: nothing answers there any more', async () => {
		const error = await lostAfterAnswer(() => true);
		expect(error!.message).toContain(
			'and nothing answers at this address any more, although it answered earlier calls — the server stopped, or the network to it is down'
		);
		expect(error!.message).not.toMatch(/the server is up/);
		expect(error!.details.said?.[0]?.code).toBe('fail_stopped_answering');
	});
});

describe('Test connection offline', () => {
	it('says the browser is offline, not "could not connect"', async () => {
		const server = await startFakeOpenAI();
		const baseURL = server.baseURL;
		await server.close();
		const result = await testConnection(
			{ baseURL, apiKey: KEY, model: 'm' },
			{ online: () => false }
		);
		expect(result.status).toBe('unreachable');
		expect(result.message).toBe(
			`The browser is offline: nothing was sent to ${baseURL}. Connect to the network, then test again.`
		);
		expect(result.said).toEqual({ code: 'conn_offline', params: { url: baseURL } });
	});
});

describe('tool calls with null content', () => {
	it('say the model answered with tool calls and no text, not "check the model id is a chat model"', async () => {
		const server = await serve(() => ({
			content: null,
			tool_calls: [
				{
					id: 'call_1',
					type: 'function',
					function: { name: 'search_law', arguments: '{"q":"合同"}' }
				}
			],
			finish_reason: 'tool_calls'
		}));
		const endpoint = { baseURL: server.baseURL, apiKey: KEY, model: 'm' };
		const client = createOpenAIClient(
			{ evaluated: endpoint, user: endpoint, judge: endpoint },
			{ retries: 1, sleep: async () => {} }
		);
		const error = await client.complete(request('c1')).then(
			() => null,
			(e: unknown) => e as ModelCallError
		);
		expect(error!.details.kind).toBe('invalid_output');
		expect(error!.message).toContain(
			'the model answered with tool calls and no text — the benchmark offers no tools and needs a text answer'
		);
		expect(error!.message).not.toMatch(/is a chat model/);
		expect(error!.details.said?.[0]).toMatchObject({
			code: 'fail_invalid_output',
			parts: { detail: [{ code: 'output_tool_calls' }] }
		});
		// Retried like an empty output: a sampling may not repeat.
		expect(server.chatRequests).toHaveLength(2);
	});
});

describe('Test connection and a hostile provider', () => {
	it('a redirect to another origin: named, the other server never asked', async () => {
		const other = await serve(() => ({ content: 'stolen' }));
		const server = await serve(() => ({
			redirect: { status: 307, location: `${other.url}/v1/chat/completions` }
		}));
		const result = await testConnection({ baseURL: server.baseURL, apiKey: KEY, model: 'm' });
		expect(result.message).toContain(
			`the endpoint redirected (307) to ${other.url}/v1/chat/completions, another origin`
		);
		expect(result.said?.code).toBe('conn_redirect');
		expect(other.requests).toEqual([]);
	});

	it('a 500 of a gigabyte: quoted cut, saying the rest was not read', async () => {
		const server = await serve(() => ({ giantError: { status: 500, bytes: 1024 ** 3 } }));
		const result = await testConnection({ baseURL: server.baseURL, apiKey: KEY, model: 'm' });
		expect(result.message).toBe(
			`m at ${server.baseURL} answered 500: ${'x'.repeat(300)}… (more than 65536 bytes; the rest was not read)`
		);
		expect(result.said).toMatchObject({
			code: 'conn_status',
			parts: { said: [{ code: 'provider_body_cut', params: { bytes: 65536 } }] }
		});
	});
});
