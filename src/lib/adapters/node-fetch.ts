/**
 * A `fetch` for the CLI's model calls over `node:http` / `node:https` with keep-alive agents.
 *
 * Node's own `fetch` (undici) builds a web-streams pipeline for every request and response, which
 * costs the CLI several times the CPU per request that `node:http` does (PERFORMANCE.md, "CLI
 * `run` end to end"). This one sends the body in one write and reads the answer into one buffer,
 * then hands the SDK a standard `Response` made from it.
 *
 * It keeps what the model client relies on from `fetch`:
 * - the body of a successful answer to a request naming `max_tokens` is read at most to
 *   `maxResponseBytes` (the rule of `boundedFetch`, which it is registered to replace): one byte
 *   more and the connection is cut, and the response's body fails with `ResponseTooLarge`;
 * - a connection dropped after the headers makes the body fail (as `fetch` does, so the client
 *   reports a connection dropped mid-answer), not the request;
 * - the request's `signal` aborts it at any point, with an `AbortError`;
 * - gzip, deflate and brotli answers are decoded (the bound counts decoded bytes, as with fetch).
 * Anything it does not handle (a `Request` object, a body other than text or bytes, a redirect)
 * goes to `globalThis.fetch` unchanged, so nothing works differently, only slower.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import {
	markBoundsBodies,
	maxResponseBytes,
	maxTokensOf,
	ResponseTooLarge
} from '../core/model/bounded-fetch';

/** Statuses whose Response may carry no body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
const REDIRECT = new Set([301, 302, 303, 307, 308]);

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
		const target = new URL(url);
		const agent = agents[target.protocol as keyof typeof agents];
		if (!agent) return fallback(input, init);
		const signal = init?.signal ?? undefined;
		if (signal?.aborted) throw abortError(signal);
		const bytes =
			body === undefined || body === null
				? null
				: typeof body === 'string'
					? Buffer.from(body, 'utf8')
					: body;
		const headers = headerObject(init?.headers);
		if (bytes) headers['content-length'] = String(bytes.byteLength);
		const maxTokens = maxTokensOf(body);
		const answer = await exchange(target, agent, init?.method ?? 'GET', headers, bytes, signal);
		if (REDIRECT.has(answer.res.statusCode ?? 0) && answer.res.headers.location) {
			answer.res.resume();
			return fallback(input, init);
		}
		const status = answer.res.statusCode ?? 0;
		const bound = status >= 200 && status < 300 && maxTokens !== null ? maxTokens : null;
		const read = await readBody(answer.res, answer.destroy, bound, signal);
		const responseInit = {
			status,
			statusText: answer.res.statusMessage ?? '',
			headers: headerPairs(answer.res.rawHeaders)
		};
		if (!('bytes' in read)) return new Response(failingBody(read.error), responseInit);
		return new Response(
			NULL_BODY.has(status) ? null : (read.bytes as Uint8Array<ArrayBuffer>),
			responseInit
		);
	};
	markBoundsBodies(nodeFetch);
	return nodeFetch;
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

function headerPairs(raw: readonly string[]): [string, string][] {
	const pairs: [string, string][] = [];
	for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i], raw[i + 1]]);
	return pairs;
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
		const req = send(url, { method, headers, agent });
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
 * Reads a response body whole, decoded, at most `maxResponseBytes(maxTokens)` bytes when
 * `maxTokens` is given (then the connection is cut).
 * Never rejects: a failure after the headers comes back as `error`, for the body to fail with,
 * except an abort, which rejects as `fetch` does.
 */
function readBody(
	res: IncomingMessage,
	destroy: (error?: Error) => void,
	maxTokens: number | null,
	signal: AbortSignal | undefined
): Promise<{ bytes: Buffer } | { error: unknown }> {
	const limit = maxTokens === null ? null : maxResponseBytes(maxTokens);
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
		const finish = (value: { bytes: Buffer } | { error: unknown } | null, abort?: unknown) => {
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
			size += chunk.byteLength;
			if (limit !== null && size > limit) {
				const error = new ResponseTooLarge(limit, maxTokens!);
				destroy();
				decoder?.destroy();
				return finish({ error });
			}
			chunks.push(chunk);
		});
		stream.on('end', () =>
			finish({ bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks) })
		);
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
