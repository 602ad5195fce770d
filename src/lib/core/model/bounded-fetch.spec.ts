/**
 * The page's side of the body bounds and the redirect rule: `boundedFetch` over a fetch that
 * behaves as a browser's does (gzip already decoded, a redirect under `redirect: 'manual'` an
 * opaque answer with no status or `Location`). Over real sockets, through Node's fetch and the
 * CLI's, see tests/unit/hardening/provider-redirects.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import {
	BodyTooLarge,
	bodyCutAt,
	boundedFetch,
	ERROR_BODY_BYTES,
	OTHER_BODY_BYTES,
	ResponseTooLarge
} from './bounded-fetch';
import { MAX_REDIRECTS, nextHop, RedirectRefused } from './redirect';

const CHAT = JSON.stringify({ model: 'm', max_tokens: 8 });

/** A body of `bytes` bytes of `x`, made as it is read (never held whole); `pulled()` counts. */
function endless(bytes: number) {
	let pulled = 0;
	const piece = new Uint8Array(64 * 1024).fill(0x78);
	const stream = new ReadableStream<Uint8Array>({
		pull(controller) {
			if (pulled >= bytes) return controller.close();
			pulled += piece.byteLength;
			controller.enqueue(piece);
		}
	});
	return { stream, pulled: () => pulled };
}

/** A fetch answering every request with `answer()`, recording the inits it got. */
function fakeFetch(answer: () => Response) {
	const inits: (RequestInit | undefined)[] = [];
	const f: typeof fetch = async (_input, init) => {
		inits.push(init);
		return answer();
	};
	return { f, inits };
}

describe('boundedFetch: bodies', () => {
	it('cuts an error body of a gigabyte at ERROR_BODY_BYTES and marks it cut', async () => {
		const body = endless(1024 ** 3);
		const { f } = fakeFetch(() => new Response(body.stream, { status: 500 }));
		const response = await boundedFetch(f)('https://p.example/v1/chat/completions', {
			method: 'POST',
			body: CHAT
		});
		expect(response.status).toBe(500);
		const text = await response.text();
		expect(text).toBe('x'.repeat(ERROR_BODY_BYTES));
		expect(bodyCutAt(response.headers)).toBe(ERROR_BODY_BYTES);
		expect(body.pulled()).toBeLessThan(ERROR_BODY_BYTES * 4);
	});

	it('leaves a short error body whole and unmarked', async () => {
		const { f } = fakeFetch(() => new Response('{"error":{"message":"no"}}', { status: 429 }));
		const response = await boundedFetch(f)('https://p.example/v1/chat/completions', {
			method: 'POST',
			body: CHAT
		});
		expect(await response.text()).toBe('{"error":{"message":"no"}}');
		expect(bodyCutAt(response.headers)).toBeUndefined();
	});

	it('fails a successful body without max_tokens (a model list) past OTHER_BODY_BYTES', async () => {
		const body = endless(1024 ** 3);
		const { f } = fakeFetch(() => new Response(body.stream, { status: 200 }));
		const response = await boundedFetch(f)('https://p.example/v1/models');
		await expect(response.text()).rejects.toBeInstanceOf(BodyTooLarge);
		expect(body.pulled()).toBeLessThan(OTHER_BODY_BYTES + 1024 * 1024);
	});

	it('still fails a chat completion past its max_tokens bound', async () => {
		const { f } = fakeFetch(() => new Response(endless(1024 ** 3).stream, { status: 200 }));
		const response = await boundedFetch(f)('https://p.example/v1/chat/completions', {
			method: 'POST',
			body: CHAT
		});
		await expect(response.json()).rejects.toBeInstanceOf(ResponseTooLarge);
	});
});

describe('boundedFetch: redirects in the browser', () => {
	it("asks with redirect: 'manual' and refuses the opaque redirect a browser gives", async () => {
		const opaque = { type: 'opaqueredirect', status: 0, headers: new Headers(), body: null };
		const { f, inits } = fakeFetch(() => opaque as unknown as Response);
		const error = await boundedFetch(f)('https://p.example/v1/chat/completions', {
			method: 'POST',
			body: CHAT
		}).catch((e: unknown) => e);
		expect(inits[0]?.redirect).toBe('manual');
		expect(error).toBeInstanceOf(RedirectRefused);
		expect((error as RedirectRefused).reason).toBe('hidden');
		expect((error as Error).message).toContain(
			'a browser does not tell a page where a redirect points'
		);
		expect((error as RedirectRefused).said).toEqual({ code: 'redirect_hidden', params: {} });
	});
});

describe('nextHop', () => {
	const from = new URL('https://p.example/v1/chat/completions');
	it.each([
		{ status: 307, method: 'POST', location: '/v2/x', keepBody: true, method2: 'POST' },
		{
			status: 308,
			method: 'POST',
			location: 'https://p.example/v2/x',
			keepBody: true,
			method2: 'POST'
		},
		{ status: 301, method: 'GET', location: '/v2/models', keepBody: false, method2: 'GET' },
		{ status: 303, method: 'GET', location: '/v2/models', keepBody: false, method2: 'GET' }
	])(
		'follows a $status of a $method within the origin',
		({ status, method, location, keepBody, method2 }) => {
			const hop = nextHop(from, status, location, method, 1);
			expect(hop.url.origin).toBe('https://p.example');
			expect(hop).toMatchObject({ keepBody, method: method2 });
		}
	);

	it.each([
		{ location: 'http://p.example/v1/chat/completions', why: 'another scheme' },
		{ location: 'https://p.example:8443/v1', why: 'another port' },
		{ location: 'https://evil.example/v1?key=sk-1&x=2', why: 'another host' },
		{ location: 'https://user:pw@p.example/v1', why: 'user-info' }
	])('refuses $why as another origin, the location shown without query values', ({ location }) => {
		const error = (() => {
			try {
				nextHop(from, 307, location, 'POST', 1);
			} catch (e) {
				return e as RedirectRefused;
			}
		})();
		expect(error?.reason).toBe('other_origin');
		expect(error?.location).not.toMatch(/sk-1|pw/);
	});

	it('shows a hostile Location escaped and clipped', () => {
		const location = `https://evil.example/\u001b]52;c;${'a'.repeat(5000)}`;
		try {
			nextHop(from, 302, location, 'POST', 1);
			expect.unreachable();
		} catch (e) {
			expect((e as RedirectRefused).location).not.toContain('\u001b');
			expect((e as RedirectRefused).location.length).toBeLessThan(260);
		}
	});

	it('refuses a POST that a 301, 302 or 303 would turn into a GET, and the hop past the last', () => {
		for (const status of [301, 302, 303]) {
			expect(() => nextHop(from, status, '/v2', 'POST', 1)).toThrow(/turn this POST into a GET/);
		}
		expect(() => nextHop(from, 307, '/v1', 'POST', MAX_REDIRECTS + 1)).toThrow(
			/too many redirects \(more than 5\)/
		);
	});
});
