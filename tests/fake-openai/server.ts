/**
 * A scripted OpenAI-compatible HTTP server for tests: real sockets, real status codes and
 * headers, so the model client is tested through the `openai` package exactly as in production.
 * A handler decides each chat completion's reply; faults (status codes, delays, hang-ups, hangs,
 * malformed bodies) are replies too.
 *
 * Two transports share one request handler: plain HTTP/1.1 (the default), and HTTP/2 over TLS
 * with a throw-away self-signed certificate (`transport: 'h2'`), as the hosted providers speak;
 * a browser multiplexes every call to such a host on one connection instead of opening at most
 * 6 HTTP/1.1 connections.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import {
	createServer,
	type IncomingHttpHeaders,
	type IncomingMessage,
	type ServerResponse
} from 'node:http';
import {
	constants as h2constants,
	createSecureServer,
	type Http2ServerRequest,
	type Http2ServerResponse
} from 'node:http2';
import { isIP, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { completionBody, FakeBatches, lastUserContent, type FakeBatchOptions } from './batches';

/** What the handler sees of one chat completion request. */
export interface FakeRequest {
	model: string;
	/** Content of the last user message: the filled prompt. */
	prompt: string;
	/** The parsed JSON body as sent. */
	body: Record<string, unknown>;
	headers: IncomingHttpHeaders;
	/** Zero-based count of the calls to the handler (refused requests are not counted). */
	callIndex: number;
}

/** A normal completion. `content: null` sends a null message content. */
export interface ContentReply {
	content: string | null;
	reasoning_content?: string;
	/** Some providers (OpenRouter, vLLM) name the field `reasoning`. */
	reasoning?: string;
	/** OpenAI's `message.tool_calls`, sent as given (with `content: null`: tool calls, no text). */
	tool_calls?: unknown[];
	/** @default 'stop' */
	finish_reason?: string;
	usage?: {
		prompt_tokens: number;
		completion_tokens: number;
		/** As OpenAI's reasoning models report it. */
		completion_tokens_details?: { reasoning_tokens?: number };
	};
}

/** An HTTP error. `body` defaults to an OpenAI-style `{ error: { message } }`. */
export interface StatusReply {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
}

/**
 * One scripted answer. `delayMs` may be added to any reply (alone it delays the default reply);
 * `hangup` closes the socket without answering, `hang` never answers (the client times out),
 * `malformed` sends a 200 whose JSON body is cut off, `dropMidBody` sends the headers of a 200
 * and part of its body, then closes the socket (a connection dropped mid-answer). `giant` sends
 * a valid completion whose content is `giant.bytes` bytes of `a`, written in 64 KiB pieces as
 * fast as the client reads them (never held whole in memory), and tells `giant.done` how many
 * body bytes the socket accepted and whether the body was finished or the client went away.
 * `giantError` does the same with an error status and a body of `x` (gzip-encoded on the fly
 * with `gzip: true`: a bomb of a few kilobytes a megabyte), and `redirect` answers a redirect
 * status with a `Location`, and a body of `redirect.bytes` bytes when given.
 */
export type Reply = (
	| ContentReply
	| StatusReply
	| { hangup: true }
	| { hang: true }
	| { malformed: true }
	| { dropMidBody: true }
	| { giant: GiantReply }
	| { giantError: GiantErrorReply }
	| { redirect: RedirectReply }
	| { delayMs: number }
) & { delayMs?: number };

/** An error answer too large to build in memory; see {@link Reply}. */
export interface GiantErrorReply {
	status: number;
	/** Bytes of the body (decoded, with `gzip`). */
	bytes: number;
	/** Send it `content-encoding: gzip`, compressed as it goes. @default false */
	gzip?: boolean;
	/** Bytes the socket accepted (compressed, with `gzip`), and whether the body was finished. */
	done?: (sent: number, finished: boolean) => void;
}

/** A redirect answer; see {@link Reply}. */
export interface RedirectReply {
	/** 301, 302, 303, 307 or 308. */
	status: number;
	/** The `Location` header, sent as given. */
	location: string;
	/** Bytes of `x` in the body, written as fast as the client reads them. @default 0 */
	bytes?: number;
}

/** A completion too large to build in memory; see {@link Reply}. */
export interface GiantReply {
	bytes: number;
	done?: (sent: number, finished: boolean) => void;
}

export type Handler = (request: FakeRequest) => Reply | Promise<Reply>;

/** Options of {@link startFakeOpenAI}. */
export interface FakeOpenAIOptions {
	/** Scripts chat completions. @default replies `{ content: 'OK' }` */
	handler?: Handler;
	/**
	 * When true, answer the OPTIONS preflight and send Access-Control-Allow-Origin: *; when
	 * false, send no CORS header at all, as a provider that refuses browser pages does.
	 * @default true
	 */
	cors?: boolean;
	/** When set, a request without `Authorization: Bearer <requireKey>` gets a 401. */
	requireKey?: string;
	/** When set, a chat request for any other model gets a 404 `model_not_found`. */
	knownModels?: string[];
	/** @default 0 (any free port) */
	port?: number;
	/** @default '127.0.0.1' */
	host?: string;
	/**
	 * `'http1'`: plain HTTP/1.1 (`http://`). `'h2'`: HTTP/2 over TLS (`https://`), HTTP/1.1 over
	 * TLS too for clients that do not offer h2 (ALPN), with a self-signed certificate for `host`
	 * made by `openssl` at start (in a temporary folder, removed at once; see `certificate`).
	 * Replies, faults and recording are the same in both.
	 * @default 'http1'
	 */
	transport?: 'http1' | 'h2';
	/** The Files and Batches APIs' timing and faults (batches.ts). */
	batch?: FakeBatchOptions;
}

/** Every request the server received, in arrival order, including preflights and /models. */
export interface RecordedRequest {
	method: string;
	/** Path and query as received. */
	url: string;
	/** Without HTTP/2's pseudo-headers (`:method`, `:path`, …), as over HTTP/1.1. */
	headers: IncomingHttpHeaders;
	/** The HTTP version the request came over: `'1.1'` or `'2.0'`. */
	httpVersion: string;
	/** Set for chat completion requests. */
	model?: string;
	prompt?: string;
	/** True for chat completion requests, answered or refused (401, 404). */
	chat?: boolean;
	body?: Record<string, unknown>;
	/** Set when the handler was asked; the `callIndex` it saw. */
	callIndex?: number;
}

export interface FakeOpenAI {
	/** `http://127.0.0.1:<port>`, or `https://…` with `transport: 'h2'` */
	url: string;
	/** The self-signed certificate (PEM) of `transport: 'h2'`, for a client to trust; else null. */
	certificate: string | null;
	/** `url + '/v1'`, what a client uses as its base URL. */
	baseURL: string;
	requests: RecordedRequest[];
	/** Chat completion requests only, including refused ones. */
	readonly chatRequests: RecordedRequest[];
	/** The uploaded files, the batches and every line a batch answered. */
	batches: FakeBatches;
	close(): Promise<void>;
}

const DEFAULT_MODELS = ['fake-model'];
const ALLOWED_HEADER = /^(authorization|content-type|x-stainless-[a-z0-9-]+)$/i;

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
	const handler: Handler = options.handler ?? (() => ({ content: 'OK' }));
	const cors = options.cors ?? true;
	const requests: RecordedRequest[] = [];
	let callIndex = 0;
	const batches = new FakeBatches(handler, options.batch ?? {}, () => callIndex++);

	const onRequest = (req: Req, res: Res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const url = req.url ?? '/';
			const path = url.split('?')[0].replace(/\/+$/, '');
			const headers = withoutPseudoHeaders(req.headers);
			const record: RecordedRequest = {
				method: req.method ?? '',
				url,
				headers,
				httpVersion: req.httpVersion
			};
			requests.push(record);
			if (cors) setCorsHeaders(res, headers);

			if (req.method === 'OPTIONS') return void res.writeHead(204).end();
			const isChat = req.method === 'POST' && path.endsWith('/chat/completions');
			let body: Record<string, unknown> = {};
			if (isChat) {
				try {
					body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
				} catch {
					return sendError(res, 400, 'We could not parse the JSON body of your request.', null);
				}
				const model = String(body.model ?? '');
				Object.assign(record, { chat: true, model, prompt: lastUserContent(body.messages), body });
			}
			if (options.requireKey !== undefined && !isAuthorized(headers, options.requireKey)) {
				return sendError(res, 401, 'Incorrect API key provided.', 'invalid_api_key');
			}
			if (req.method === 'GET' && path.endsWith('/models')) {
				const ids = options.knownModels ?? DEFAULT_MODELS;
				return sendJson(res, 200, {
					object: 'list',
					data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' }))
				});
			}
			if (FakeBatches.handles(path)) {
				const body = Buffer.concat(chunks);
				return void batches.route({ method: req.method ?? '', path, body, headers }).then((r) => {
					for (const [name, value] of Object.entries(r.headers ?? {})) res.setHeader(name, value);
					if (r.bytes) {
						res.writeHead(r.status, { 'content-type': 'application/octet-stream' });
						return void res.end(r.bytes);
					}
					sendJson(res, r.status, r.json);
				});
			}
			if (!isChat) return sendError(res, 404, `No route for ${req.method} ${path}.`, 'not_found');

			const model = record.model!;
			if (options.knownModels && !options.knownModels.includes(model)) {
				return sendError(
					res,
					404,
					`The model \`${model}\` does not exist or you do not have access to it.`,
					'model_not_found'
				);
			}
			const index = callIndex++;
			record.callIndex = index;
			const scripted = {
				model,
				prompt: record.prompt!,
				body,
				headers,
				callIndex: index
			};
			void answer(res, model, () => handler(scripted));
		});
	};

	const host = options.host ?? '127.0.0.1';
	const h2 = options.transport === 'h2';
	const tls = h2 ? await selfSignedCertificate(host) : null;
	const server = tls
		? createSecureServer({ ...tls, allowHTTP1: true }, onRequest)
		: createServer(onRequest);
	// Every socket, so close() can end hanging requests and HTTP/2 sessions too.
	const sockets = new Set<Socket>();
	server.on('connection', (socket: Socket) => {
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
	const { address, port } = server.address() as AddressInfo;
	const url = `${h2 ? 'https' : 'http'}://${isIP(address) === 6 ? `[${address}]` : address}:${port}`;
	return {
		url,
		certificate: tls?.cert ?? null,
		baseURL: `${url}/v1`,
		requests,
		get chatRequests() {
			return requests.filter((r) => r.chat);
		},
		batches,
		close: () =>
			new Promise<void>((resolve) => {
				batches.close();
				server.close(() => resolve());
				// Hanging requests (and idle HTTP/2 sessions) would keep close() waiting for ever.
				for (const socket of sockets) socket.destroy();
			})
	};
}

type Req = IncomingMessage | Http2ServerRequest;
type Res = ServerResponse | Http2ServerResponse;
/** What `sendGiant` writes with: the part of both responses' streams it needs. */
type BodyStream = Pick<ServerResponse, 'on' | 'off'> & {
	write(chunk: Buffer | string): boolean;
};

/**
 * Drops the request's connection without an answer. Over HTTP/2 that is its stream (reset with
 * INTERNAL_ERROR, as a proxy that lost its upstream does), not the session other calls share.
 */
function dropConnection(res: Res) {
	if ('stream' in res) res.stream.close(h2constants.NGHTTP2_INTERNAL_ERROR);
	else res.socket?.destroy();
}

function withoutPseudoHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
	return Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith(':')));
}

/**
 * A key and a self-signed certificate for `host` (an IP address or a name), valid one day,
 * made by `openssl` in a temporary folder that is removed at once: nothing is kept on disk.
 */
async function selfSignedCertificate(host: string): Promise<{ key: string; cert: string }> {
	const dir = await mkdtemp(join(tmpdir(), 'fake-openai-tls-'));
	try {
		const key = join(dir, 'key.pem');
		const cert = join(dir, 'cert.pem');
		const san = isIP(host) ? `IP:${host}` : `DNS:${host}`;
		// prettier-ignore
		const args = [
			'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
			'-days', '1', '-subj', `/CN=${host}`, '-addext', `subjectAltName=${san}`,
			'-keyout', key, '-out', cert
		];
		await new Promise<void>((resolve, reject) =>
			execFile('openssl', args, (error, _stdout, stderr) => {
				if (!error) return resolve();
				if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
					return reject(
						new Error(
							"fake-openai: transport 'h2' makes its TLS certificate with openssl, which is not on PATH (apt-get install openssl)"
						)
					);
				}
				reject(new Error(`fake-openai: openssl could not make a certificate: ${stderr.trim()}`));
			})
		);
		return { key: await readFile(key, 'utf8'), cert: await readFile(cert, 'utf8') };
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}

async function answer(res: Res, model: string, script: () => Reply | Promise<Reply>) {
	let reply: Reply;
	try {
		reply = await script();
	} catch (e) {
		return sendError(res, 500, `fake server handler threw: ${(e as Error).message}`, null);
	}
	if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
	if ('hang' in reply) return;
	if ('hangup' in reply) return dropConnection(res);
	if ('dropMidBody' in reply) {
		res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
		(res as BodyStream).write('{"id": "chatcmpl-fake", "choices": [{"message": {"content": "par');
		return void setTimeout(() => dropConnection(res), 20);
	}
	if ('giant' in reply) return sendGiant(res, model, reply.giant);
	if ('giantError' in reply) return sendGiantError(res, reply.giantError);
	if ('redirect' in reply) {
		const { status, location, bytes = 0 } = reply.redirect;
		res.writeHead(status, { location, 'content-type': 'text/plain' });
		const out = bodyWriter(res);
		await out.pieces(bytes, 'x');
		if (!out.closed()) res.end();
		return;
	}
	if ('malformed' in reply) {
		res.writeHead(200, { 'content-type': 'application/json' });
		return void res.end('{"id": "chatcmpl-fake", "choices": [{"message": {"content": "trunc');
	}
	if ('status' in reply) {
		const body = reply.body ?? {
			error: { message: `fake status ${reply.status}`, type: 'fake_error', code: null }
		};
		res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
		return void res.end(typeof body === 'string' ? body : JSON.stringify(body));
	}
	sendJson(res, 200, completionBody(model, 'content' in reply ? reply : { content: 'OK' }));
}

/**
 * Writes to `res` as fast as the client reads (waiting for `drain`), counting the bytes the
 * socket took, and stops once the client goes away.
 */
function bodyWriter(res: Res | NodeJS.WritableStream) {
	const out = res as BodyStream;
	let sent = 0;
	let closed = false;
	out.on('close', () => (closed = true));
	const write = async (chunk: Buffer | string) => {
		if (closed) return;
		if (!out.write(chunk)) {
			await new Promise<void>((resolve) => {
				const go = () => {
					out.off('drain', go);
					out.off('close', go);
					resolve();
				};
				out.on('drain', go);
				out.on('close', go);
			});
		}
		if (!closed) sent += Buffer.byteLength(chunk);
	};
	/** `bytes` bytes of `fill`, in 64 KiB pieces. */
	const pieces = async (bytes: number, fill: string) => {
		const piece = Buffer.alloc(64 * 1024, fill);
		for (let left = bytes; left > 0 && !closed; left -= piece.length) {
			await write(left >= piece.length ? piece : piece.subarray(0, left));
		}
	};
	return { write, pieces, sent: () => sent, closed: () => closed };
}

async function sendGiant(res: Res, model: string, giant: GiantReply) {
	const head = `{"id":"chatcmpl-fake","object":"chat.completion","created":0,"model":${JSON.stringify(model)},"choices":[{"index":0,"message":{"role":"assistant","content":"`;
	const tail = `"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`;
	const out = bodyWriter(res);
	res.writeHead(200, { 'content-type': 'application/json' });
	await out.write(head);
	await out.pieces(giant.bytes, 'a');
	await out.write(tail);
	const finished = !out.closed();
	if (finished) res.end();
	giant.done?.(out.sent(), finished);
}

async function sendGiantError(res: Res, giant: GiantErrorReply) {
	const headers: Record<string, string> = { 'content-type': 'text/plain' };
	if (giant.gzip) headers['content-encoding'] = 'gzip';
	res.writeHead(giant.status, headers);
	const socket = bodyWriter(res);
	if (!giant.gzip) {
		await socket.pieces(giant.bytes, 'x');
	} else {
		// Compressed as it goes, each piece flushed to the socket before the next is made.
		const gzip = createGzip({ level: 9 });
		gzip.on('data', (chunk: Buffer) => void socket.write(chunk));
		// The client hanging up ends the compression too (its 'close' stops the pieces).
		(res as BodyStream).on('close', () => gzip.destroy());
		const input = bodyWriter(gzip);
		await input.pieces(giant.bytes, 'x');
		if (!gzip.destroyed) await new Promise<void>((resolve) => gzip.end(resolve));
	}
	const finished = !socket.closed();
	if (finished) res.end();
	giant.done?.(socket.sent(), finished);
}

function setCorsHeaders(res: Res, headers: IncomingHttpHeaders) {
	res.setHeader('Access-Control-Allow-Origin', '*');
	res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
	// CORS has no wildcard inside a header name, so echo back the requested ones we allow.
	const requested = String(headers['access-control-request-headers'] ?? '')
		.split(',')
		.map((h) => h.trim())
		.filter((h) => ALLOWED_HEADER.test(h));
	res.setHeader(
		'Access-Control-Allow-Headers',
		['authorization', 'content-type', ...requested].join(', ')
	);
	res.setHeader('Access-Control-Expose-Headers', 'Retry-After, retry-after-ms, x-request-id');
	res.setHeader('Access-Control-Max-Age', '600');
}

function isAuthorized(headers: IncomingHttpHeaders, key: string) {
	return headers.authorization === `Bearer ${key}`;
}

function sendJson(res: Res, status: number, body: unknown) {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

function sendError(res: Res, status: number, message: string, code: string | null) {
	sendJson(res, status, { error: { message, type: 'invalid_request_error', param: null, code } });
}
