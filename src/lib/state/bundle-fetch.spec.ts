import { describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../tests/support/thrown';
import { BundleFetchError, bundleHead, fetchBundle, type BundleFailure } from './bundle-fetch';

const ZIP = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);
const URL_ = 'https://example.org/runs.zip';

/** A fetch that answers a CORS request with `cors` and a `no-cors` probe with `probe`. */
function fakeFetch(
	cors: () => Response,
	probe: 'answers' | 'fails' = 'answers'
): { fetchImpl: typeof fetch; calls: RequestInit[] } {
	const calls: RequestInit[] = [];
	const fetchImpl = (async (_url: string, init: RequestInit) => {
		calls.push(init);
		if (init.mode === 'no-cors') {
			if (probe === 'fails') throw new TypeError('Failed to fetch');
			return new Response(null);
		}
		return cors();
	}) as unknown as typeof fetch;
	return { fetchImpl, calls };
}

const corsRefused = () => {
	throw new TypeError('Failed to fetch');
};

async function failureOf(promise: Promise<unknown>): Promise<BundleFailure> {
	return (await rejectionOf(promise, BundleFetchError)).failure;
}

describe('fetching a linked bundle', () => {
	it('learns the size with a HEAD, without cookies, and reads the zip with a GET', async () => {
		const { fetchImpl, calls } = fakeFetch(
			() => new Response(ZIP, { headers: { 'content-length': String(ZIP.length) } })
		);
		expect((await bundleHead(URL_, 1000, { fetchImpl })).bytes).toBe(ZIP.length);
		expect(calls[0]).toMatchObject({ method: 'HEAD', mode: 'cors', credentials: 'omit' });
		expect(await fetchBundle(URL_, 1000, { fetchImpl })).toEqual(ZIP);
		expect(calls[1]).toMatchObject({ method: 'GET', credentials: 'omit' });
	});

	it('gives no size for a server that does not answer HEAD or says none', async () => {
		const fetchImpl = fakeFetch(() => new Response(null, { status: 405 })).fetchImpl;
		expect((await bundleHead(URL_, 1000, { fetchImpl })).bytes).toBeNull();
		const none = fakeFetch(() => new Response(null)).fetchImpl;
		expect((await bundleHead(URL_, 1000, { fetchImpl: none })).bytes).toBeNull();
	});

	it('tells a CORS refusal from a server that does not answer, and from being offline', async () => {
		expect(await failureOf(bundleHead(URL_, 10, fakeFetch(corsRefused)))).toEqual({
			kind: 'cors'
		});
		expect(await failureOf(bundleHead(URL_, 10, fakeFetch(corsRefused, 'fails')))).toEqual({
			kind: 'unreachable'
		});
		const offline = { ...fakeFetch(corsRefused), online: () => false };
		expect(await failureOf(fetchBundle(URL_, 10, offline))).toEqual({ kind: 'offline' });
	});

	it.each([
		[404, 'not-found'],
		[410, 'not-found'],
		[403, 'http'],
		[500, 'http']
	])('names HTTP %i as %s', async (status, kind) => {
		const options = fakeFetch(() => new Response('no', { status }));
		expect(await failureOf(bundleHead(URL_, 10, options))).toEqual({ kind, status });
		expect(await failureOf(fetchBundle(URL_, 10, options))).toEqual({ kind, status });
	});

	it('refuses a declared size over the limit before reading, and a body that runs past it', async () => {
		const big = fakeFetch(() => new Response(ZIP, { headers: { 'content-length': '2000' } }));
		expect(await failureOf(bundleHead(URL_, 1000, big))).toEqual({
			kind: 'too-large',
			bytes: 2000,
			max: 1000
		});
		const endless = fakeFetch(() => new Response(new Uint8Array(5000)));
		expect(await failureOf(fetchBundle(URL_, 1000, endless))).toEqual({
			kind: 'too-large',
			bytes: null,
			max: 1000
		});
	});

	it('refuses what is not a zip, naming its type escaped', async () => {
		const page = fakeFetch(
			() => new Response('<html>', { headers: { 'content-type': 'text/html\u001b[2J' } })
		);
		expect(await failureOf(fetchBundle(URL_, 1000, page))).toEqual({
			kind: 'not-zip',
			type: 'text/html\\u001b[2J'
		});
		const empty = fakeFetch(() => new Response(null));
		expect(await failureOf(fetchBundle(URL_, 1000, empty))).toEqual({ kind: 'not-zip', type: '' });
	});

	it('follows no redirect on the GET: a 3xx, an opaque redirect or another origin is refused', async () => {
		const moved = fakeFetch(
			() => new Response(null, { status: 302, headers: { location: 'https://evil.test/x.zip' } })
		);
		expect(await failureOf(fetchBundle(URL_, 1000, moved))).toEqual({
			kind: 'redirected',
			host: 'evil.test'
		});
		expect(moved.calls[0]).toMatchObject({ method: 'GET', redirect: 'manual' });
		// What a browser gives for `redirect: 'manual'`: no status, no Location to read.
		const opaque = fakeFetch(() => {
			const answer = new Response(ZIP);
			Object.defineProperties(answer, {
				type: { value: 'opaqueredirect' },
				status: { value: 0 },
				ok: { value: false }
			});
			return answer;
		});
		expect(await failureOf(fetchBundle(URL_, 1000, opaque))).toEqual({
			kind: 'redirected',
			host: ''
		});
		// A fetch that followed it anyway: the answer's origin is not the one asked.
		const followed = fakeFetch(() => {
			const answer = new Response(ZIP);
			Object.defineProperty(answer, 'url', { value: 'https://cdn.example.net/runs.zip' });
			return answer;
		});
		expect(await failureOf(fetchBundle(URL_, 1000, followed))).toEqual({
			kind: 'redirected',
			host: 'cdn.example.net'
		});
		const samePlace = fakeFetch(() => {
			const answer = new Response(ZIP);
			Object.defineProperty(answer, 'url', { value: 'https://example.org/runs.zip?x=1' });
			return answer;
		});
		expect(await fetchBundle(URL_, 1000, samePlace)).toEqual(ZIP);
	});

	it('reads no further than the size agreed to, cutting an endless body there', async () => {
		let pulled = 0;
		const endless = fakeFetch(
			() =>
				new Response(
					new ReadableStream<Uint8Array>({
						pull(controller) {
							pulled++;
							controller.enqueue(pulled === 1 ? ZIP : new Uint8Array(64));
						}
					})
				)
		);
		const agreed = ZIP.length + 10;
		expect(await failureOf(fetchBundle(URL_, 1_000_000, { ...endless, agreed }))).toEqual({
			kind: 'over-agreed',
			agreed
		});
		expect(pulled).toBeLessThan(5);
		// A Content-Length over the size agreed: refused before reading.
		const declared = fakeFetch(
			() => new Response(ZIP, { headers: { 'content-length': String(ZIP.length + 1) } })
		);
		expect(await failureOf(fetchBundle(URL_, 1000, { ...declared, agreed: ZIP.length }))).toEqual({
			kind: 'over-agreed',
			agreed: ZIP.length
		});
		// Exactly the size agreed: read.
		const exact = fakeFetch(() => new Response(ZIP));
		expect(await fetchBundle(URL_, 1000, { ...exact, agreed: ZIP.length })).toEqual(ZIP);
	});
});
