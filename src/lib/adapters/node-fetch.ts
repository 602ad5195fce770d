/**
 * A `fetch` for the CLI's model calls over `node:http` / `node:https` with keep-alive agents.
 *
 * Node's own `fetch` (undici) builds a web-streams pipeline for every request and response, which
 * costs the CLI several times the CPU per request that `node:http` does (PERFORMANCE.md, "CLI
 * `run` end to end"). This one sends the body in one write and reads the answer into one buffer,
 * then hands the SDK a `Response` made from it (`BufferedResponse`, which reads the buffer directly).
 *
 * It keeps what the model client relies on from `fetch`, and bounds what fetch does not:
 * - every body is read at most to `bodyBound` (the rule of `boundedFetch`, which it is
 *   registered to replace): a successful answer to a request naming `max_tokens` to
 *   `maxResponseBytes`, one byte more and the connection is cut and the body fails with
 *   `ResponseTooLarge`; an error body (a 500 of a gigabyte) to `ERROR_BODY_BYTES`, then the
 *   connection is cut and the body ends there, marked for `bodyCutAt`; anything else to
 *   `OTHER_BODY_BYTES`;
 * - gzip, deflate and brotli answers are decoded, and the bound counts decoded bytes (a small
 *   gzip that inflates to gigabytes stops at the same place);
 * - a redirect is followed by the rule of `core/model/redirect.ts`: within the origin asked,
 *   at most `MAX_REDIRECTS` times, never a POST turned into a GET; any other redirect rejects
 *   the request with `RedirectRefused`, naming where it pointed (fetch would follow it to any
 *   origin, with no bound on its body);
 * - a connection dropped after the headers makes the body fail (as `fetch` does, so the client
 *   reports a connection dropped mid-answer), not the request;
 * - the request's `signal` aborts it at any point, with an `AbortError`.
 * Anything it does not handle (a `Request` object, a body other than text or bytes) goes to
 * `globalThis.fetch` unchanged, so nothing works differently, only slower.
 */
import {
	Agent as HttpAgent,
	request as httpRequest,
	type IncomingMessage,
	type RequestOptions
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { urlToHttpOptions } from 'node:url';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { bodyBound, markBodyCut, markBoundsBodies, maxTokensOf } from '../core/model/bounded-fetch';
import { nextHop, REDIRECT_STATUSES } from '../core/model/redirect';
import { BufferedResponse } from './buffered-response';

/** Statuses whose Response may carry no body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** A `fetch` over `node:http(s)`; see the module comment. One pair of keep-alive agents each. */
export function createNodeFetch(fallback: typeof fetch = (i, init) => globalThis.fetch(i, init)) {
	const agents = {
		'http:': new HttpAgent({ keepAlive: true }),
		'https:': new HttpsAgent({ keepAlive: true })
	};
	const nodeFetch: typeof fetch = async (input, init) => {
		const url = typeof input === 'string' ? input : input instanceof URL ? input.href : null;
		const body = init?.body;
		if (
			url === null ||
			(body !== undefined &&
				body !== null &&
				typeof body !== 'string' &&
				!(body instanceof Uint8Array))
		) {
			return fallback(input, init);
		}
		let target = urlOf(url);
		if (!agents[target.protocol as keyof typeof agents]) return fallback(input, init);
		const signal = init?.signal ?? undefined;
		if (signal?.aborted) throw abortError(signal);
		let bytes =
			body === undefined || body === null
				? null
				: typeof body === 'string'
					? Buffer.from(body, 'utf8')
					: body;
		let method = init?.method ?? 'GET';
		const headers = headerObject(init?.headers);
		const maxTokens = maxTokensOf(body);
		for (let hops = 1; ; hops++) {
			if (bytes) headers['content-length'] = String(bytes.byteLength);
			// Same origin as asked (redirects never leave it), so the same protocol and agent.
			const agent = agents[target.protocol as keyof typeof agents];
			const answer = await exchange(target, agent, method, headers, bytes, signal);
			const status = answer.res.statusCode ?? 0;
			const location = answer.res.headers.location;
			if (REDIRECT_STATUSES.has(status) && location !== undefined) {
				// Nothing of a redirect's body is read (it may be gigabytes); the socket goes.
				answer.destroy();
				const hop = nextHop(target, status, location, method, hops);
				target = hop.url;
				method = hop.method;
				if (!hop.keepBody) {
					bytes = null;
					delete headers['content-length'];
					delete headers['content-type'];
				}
				continue;
			}
			const read = await readBody(answer.res, answer.destroy, bodyBound(status, maxTokens), signal);
			const responseInit = {
				status,
				statusText: answer.res.statusMessage ?? '',
				headers: responseHeaders(answer.res.rawHeaders)
			};
			if (!('bytes' in read)) return new Response(failingBody(read.error), responseInit);
			// The body is in memory already: no web stream for the SDK to read it back through.
			const response = new BufferedResponse(
				NULL_BODY.has(status) ? null : (read.bytes as Uint8Array<ArrayBuffer>),
				responseInit
			);
			if (read.cutAt !== undefined) markBodyCut(response.headers, read.cutAt);
			return response;
		}
	};
	markBoundsBodies(nodeFetch);
	return nodeFetch;
}

/** URLs asked for, parsed once each: a run asks one or a few thousands of times (bounded). */
const parsedUrls = new Map<string, URL>();
/** What `node:http` makes of each URL (`urlToHttpOptions`), likewise once each. */
const httpOptions = new WeakMap<URL, RequestOptions>();

function urlOf(href: string): URL {
	let url = parsedUrls.get(href);
	if (!url) {
		if (parsedUrls.size >= 64) parsedUrls.clear();
		url = new URL(href);
		parsedUrls.set(href, url);
	}
	return url;
}

function httpOptionsOf(url: URL): RequestOptions {
	let options = httpOptions.get(url);
	if (!options) {
		options = urlToHttpOptions(url);
		httpOptions.set(url, options);
	}
	return options;
}

/** The request headers as a plain object of lower-case names (the SDK passes a `Headers`). */
function headerObject(headers: HeadersInit | undefined): Record<string, string> {
	const out: Record<string, string> = {};
	if (!headers) return out;
	if (headers instanceof Headers || Array.isArray(headers)) {
		for (const [name, value] of headers) out[name.toLowerCase()] = value;
	} else {
		for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = String(value);
	}
	return out;
}

function responseHeaders(raw: readonly string[]): Headers {
	const headers = new Headers();
	for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
	return headers;
}

function abortError(signal: AbortSignal): unknown {
	return signal.reason instanceof Error
		? signal.reason
		: new DOMException('This operation was aborted', 'AbortError');
}

/** Sends the request; resolves with the response once its headers are in. */
function exchange(
	url: URL,
	agent: HttpAgent,
	method: string,
	headers: Record<string, string>,
	body: Uint8Array | null,
	signal: AbortSignal | undefined
): Promise<{ res: IncomingMessage; destroy: (error?: Error) => void }> {
	return new Promise((resolve, reject) => {
		const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
		const req = send({ ...httpOptionsOf(url), method, headers, agent });
		const onAbort = () => {
			const error = abortError(signal!);
			req.destroy(error instanceof Error ? error : undefined);
			reject(error);
		};
		signal?.addEventListener('abort', onAbort, { once: true });
		req.on('error', (e) => {
			signal?.removeEventListener('abort', onAbort);
			// As fetch reports a failed connection: a TypeError whose cause says why.
			reject(new TypeError('fetch failed', { cause: e }));
		});
		req.on('response', (res) => {
			signal?.removeEventListener('abort', onAbort);
			resolve({ res, destroy: (error) => req.destroy(error) });
		});
		req.end(body ?? undefined);
	});
}

/**
 * Reads a response body whole, decoded, at most to `bound` (then the connection is cut, and
 * the body either fails or comes back cut at the bound, with `cutAt`).
 * Never rejects: a failure after the headers comes back as `error`, for the body to fail with,
 * except an abort, which rejects as `fetch` does.
 */
function readBody(
	res: IncomingMessage,
	destroy: (error?: Error) => void,
	bound: ReturnType<typeof bodyBound>,
	signal: AbortSignal | undefined
): Promise<{ bytes: Buffer; cutAt?: number } | { error: unknown }> {
	return new Promise((resolve, reject) => {
		let stream: Readable = res;
		const encoding = String(res.headers['content-encoding'] ?? '')
			.trim()
			.toLowerCase();
		const decoder =
			encoding === 'gzip' || encoding === 'x-gzip'
				? createGunzip()
				: encoding === 'deflate'
					? createInflate()
					: encoding === 'br'
						? createBrotliDecompress()
						: null;
		if (decoder) {
			res.on('error', (e) => decoder.destroy(e));
			stream = res.pipe(decoder);
		}
		const chunks: Buffer[] = [];
		let size = 0;
		let settled = false;
		const whole = () => (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
		const finish = (
			value: { bytes: Buffer; cutAt?: number } | { error: unknown } | null,
			abort?: unknown
		) => {
			if (settled) return;
			settled = true;
			signal?.removeEventListener('abort', onAbort);
			if (value === null) reject(abort);
			else resolve(value);
		};
		const onAbort = () => {
			const error = abortError(signal!);
			destroy(error instanceof Error ? error : undefined);
			finish(null, error);
		};
		if (signal?.aborted) return onAbort();
		signal?.addEventListener('abort', onAbort, { once: true });
		stream.on('data', (chunk: Buffer) => {
			if (settled) return;
			size += chunk.byteLength;
			if (size <= bound.limit) return void chunks.push(chunk);
			destroy();
			decoder?.destroy();
			if (bound.past === 'fail') return finish({ error: bound.error() });
			chunks.push(chunk.subarray(0, chunk.byteLength - (size - bound.limit)));
			finish({ bytes: whole(), cutAt: bound.limit });
		});
		stream.on('end', () => finish({ bytes: whole() }));
		const failed = (e: Error) => finish({ error: new TypeError('terminated', { cause: e }) });
		stream.on('error', failed);
		// A socket closed before the body's end ("aborted" on the response, no "end").
		res.on('aborted', () => failed(new Error('the connection closed before the body ended')));
		res.on('close', () => {
			if (!res.complete) failed(new Error('the connection closed before the body ended'));
		});
	});
}

/** A body that fails with `error` when read (a cut connection, a body past its bound). */
function failingBody(error: unknown): ReadableStream<Uint8Array> {
	return new ReadableStream({
		start(controller) {
			controller.error(error);
		}
	});
}
