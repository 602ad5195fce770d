/**
 * A hostile provider's redirects and error bodies, through the model client with each fetch a
 * call can go out by: the CLI's `node:http` fetch (`createNodeFetch`) and the page's path,
 * `boundedFetch` over a standard fetch (Node's, which unlike a browser lets the page read a
 * redirect's `Location`; the browser's opaque redirect is in bounded-fetch.spec.ts).
 *
 * Before: redirects went to fetch, which follows them to any origin (the case histories sent to
 * a server the manifest does not name) with no bound on the body (a 307 to a 1.5 GB body), a
 * 302 turned the POST into a GET that read as an unknown model, a loop read as "could not
 * connect", and an error body was read whole.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFetch } from '../../../src/lib/adapters/node-fetch';
import { ModelCallError } from '../../../src/lib/core/errors';
import { boundedFetch, maxResponseBytes } from '../../../src/lib/core/model/bounded-fetch';
import { createOpenAIClient } from '../../../src/lib/core/model/openai-client';
import { MAX_REDIRECTS } from '../../../src/lib/core/model/redirect';
import { runCliInProcess } from '../../cli/run-cli';
import type { FakeOpenAI } from '../../fake-openai/server';
import { fakeServers } from '../../support/fake-servers';
import { DATASET } from '../faults/harness';

const KEY = 'sk-test-0123456789abcdef';
const serve = fakeServers();

const FETCHES: [string, () => typeof fetch][] = [
	['node-fetch (CLI)', () => createNodeFetch()],
	['boundedFetch (page)', () => boundedFetch((i, init) => fetch(i, init))]
];

/** One call of the evaluated model at `server`, no retries; the error it fails with, or null. */
async function call(server: FakeOpenAI, fetchImpl: typeof fetch) {
	const endpoint = { baseURL: server.baseURL, apiKey: KEY, model: 'm' };
	const client = createOpenAIClient(
		{ evaluated: endpoint, user: endpoint, judge: endpoint },
		{ retries: 0, fetch: fetchImpl }
	);
	return client
		.complete({
			role: 'evaluated',
			task: 'lexawn',
			prompt: '案情',
			temperature: 0,
			maxTokens: 8192,
			caseNumber: 'c1'
		})
		.then(
			(r) => ({ ok: r.response, error: null }),
			(e: unknown) => ({ ok: null, error: e as ModelCallError })
		);
}

describe.each(FETCHES)('redirects through %s', (_name, makeFetch) => {
	it('follows a 307 within the origin, with the same POST and body', async () => {
		const server = await serve(({ callIndex }) =>
			callIndex === 0
				? { redirect: { status: 307, location: '/v2/chat/completions' } }
				: { content: 'moved' }
		);
		const r = await call(server, makeFetch());
		expect(r.error).toBeNull();
		expect(r.ok).toBe('moved');
		expect(server.chatRequests.map((q) => [q.method, q.url, q.prompt])).toEqual([
			['POST', '/v1/chat/completions', '案情'],
			['POST', '/v2/chat/completions', '案情']
		]);
	});

	it('refuses a redirect to another origin, naming it with query values hidden; the other server gets nothing', async () => {
		const other = await serve(() => ({ content: 'stolen' }));
		const server = await serve(() => ({
			redirect: { status: 307, location: `${other.url}/v1/chat/completions?token=s3cret` }
		}));
		const r = await call(server, makeFetch());
		expect(other.requests).toEqual([]);
		expect(r.error).toBeInstanceOf(ModelCallError);
		expect(r.error!.details.kind).toBe('bad_request');
		expect(r.error!.message).toContain(
			`the endpoint redirected (307) to ${other.url}/v1/chat/completions?token=***, another origin than the base URL's: not followed`
		);
		expect(r.error!.message).not.toContain('s3cret');
		expect(r.error!.details.said?.[0]).toMatchObject({
			code: 'fail_redirect',
			parts: { detail: [{ code: 'redirect_other_origin', params: { status: 307 } }] }
		});
	});

	it.each([301, 302, 303])(
		'refuses a %i that would turn the POST into a GET, saying so (not "unknown model")',
		async (status) => {
			const server = await serve(() => ({
				redirect: { status, location: '/v2/chat/completions' }
			}));
			const r = await call(server, makeFetch());
			expect(r.error!.message).toContain(
				`the endpoint redirected (${status}) to ${server.url}/v2/chat/completions, which would turn this POST into a GET without its body`
			);
			expect(r.error!.message).not.toMatch(/unknown to this endpoint/);
			expect(server.requests.map((q) => q.method)).toEqual(['POST']);
		}
	);

	it('a redirect loop reads as too many redirects, not "could not connect"', async () => {
		const server = await serve(() => ({
			redirect: { status: 307, location: '/v1/chat/completions' }
		}));
		const r = await call(server, makeFetch());
		expect(r.error!.message).toContain(
			`too many redirects (more than ${MAX_REDIRECTS}), the last (307) to ${server.url}/v1/chat/completions: a redirect loop`
		);
		expect(r.error!.message).not.toMatch(/could not connect/);
		expect(server.chatRequests).toHaveLength(MAX_REDIRECTS + 1);
	});

	it("reads none of a redirect's own giant body, and bounds the answer it leads to", async () => {
		let giantDone: (finished: boolean) => void = () => {};
		const finished = new Promise<boolean>((r) => (giantDone = r));
		const server = await serve(({ callIndex }) =>
			callIndex === 0
				? { redirect: { status: 307, location: '/v2/chat/completions', bytes: 1.5e9 } }
				: { giant: { bytes: 1.5e9, done: (_sent, f) => giantDone(f) } }
		);
		const held = () => process.memoryUsage().rss;
		const before = held();
		const r = await call(server, makeFetch());
		expect(held() - before).toBeLessThan(200 * 1024 * 1024);
		expect(r.error!.message).toContain(
			`the response passed 1.9 MiB (${maxResponseBytes(8192)} bytes) and was not read further`
		);
		expect(await finished).toBe(false);
	});
});

describe.each(FETCHES)('error bodies through %s', (_name, makeFetch) => {
	it.each([false, true])(
		'a 500 of 1 GB (gzip: %s) is read to 64 KiB and quoted saying the rest was not read',
		async (gzip) => {
			let done: (finished: boolean) => void = () => {};
			const finished = new Promise<boolean>((r) => (done = r));
			const server = await serve(() => ({
				giantError: { status: 500, bytes: 1024 ** 3, gzip, done: (_s, f) => done(f) }
			}));
			const r = await call(server, makeFetch());
			expect(r.error!.details.kind).toBe('server');
			expect(r.error!.message).toContain(
				`500 Internal Server Error (${'x'.repeat(300)}… (more than 65536 bytes; the rest was not read))`
			);
			expect(r.error!.details.said?.[0]).toMatchObject({
				code: 'fail_server',
				parts: {
					detail: [{ code: 'provider_body_cut', params: { said: 'x'.repeat(300), bytes: 65536 } }]
				}
			});
			expect(await finished).toBe(false);
		}
	);
});

describe('a redirect to another origin, through the CLI', () => {
	it('gen stops naming where it pointed; the other server never hears of the case', async () => {
		const other = await serve(() => ({ content: 'stolen' }));
		const server = await serve(() => ({
			redirect: { status: 308, location: `${other.url}/v1/chat/completions` }
		}));
		const root = await mkdtemp(join(tmpdir(), 'lexpilot-redirect-'));
		const r = await runCliInProcess(
			['gen', '--dataset', DATASET, '--output-root', root, '--run-id', 'r', '--limit', '1'],
			{
				env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: KEY, LEXPILOT_MODEL: 'm' }
			}
		);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain(
			`the endpoint redirected (308) to ${other.url}/v1/chat/completions, another origin than the base URL's: not followed`
		);
		expect(other.requests).toEqual([]);
	});
});
