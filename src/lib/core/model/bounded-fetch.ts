/**
 * A `fetch` for the openai SDK that counts a chat completion's body bytes as they arrive and
 * stops reading past a bound derived from the request's `max_tokens`. The SDK
 * reads a body whole before the client can look at it, so without this a provider that ignores
 * max_tokens makes the CLI or the page hold its entire answer (megabytes, or a gigabyte) in
 * memory before the answer bound refuses it. Every other body is bounded too (an error body, a
 * model list), and redirects are followed only within one origin (`./redirect`). Web-standard
 * globals only (Response, ReadableStream): the same code runs in Node and in the page.
 */
import { nextHop, REDIRECT_STATUSES, RedirectRefused } from './redirect';

export { RedirectRefused } from './redirect';

/** UTF-8 bytes a token may take at most (see {@link maxAnswerBytes}). */
export const BYTES_PER_TOKEN = 32;
/** Slack on top, for a provider's rounding and short outputs. */
export const ANSWER_MARGIN_BYTES = 64 * 1024;
/**
 * JSON may write one byte of text as six characters (`\u001b`), so a body holding an answer
 * within the bound can be this many times the answer's size, plus the envelope.
 */
export const JSON_ESCAPE_FACTOR = 6;

/**
 * The largest answer (content plus reasoning, in UTF-8 bytes) accepted for `maxTokens`:
 * `maxTokens × 32 + 64 KiB` (8192 tokens: 320 KiB). A token of the usual byte-level vocabularies
 * is at most a few dozen bytes (a CJK character is 3), so a longer answer means the provider
 * ignored max_tokens; it is refused like an empty or cut-off output, never saved, and retried
 * (a run-away sampling may not repeat), within the same retry budget.
 */
export function maxAnswerBytes(maxTokens: number): number {
	return maxTokens * BYTES_PER_TOKEN + ANSWER_MARGIN_BYTES;
}

/**
 * The most of a successful chat completion's body that is read for `maxTokens`: six times the
 * answer bound plus 64 KiB (8192 tokens: 1.9 MiB). No body longer than this can hold an answer
 * the answer bound accepts, so reading stops there and the answer is refused the same way.
 */
export function maxResponseBytes(maxTokens: number): number {
	return maxAnswerBytes(maxTokens) * JSON_ESCAPE_FACTOR + ANSWER_MARGIN_BYTES;
}

/** A size for messages: KiB below one MiB, MiB with one decimal above. */
export function sizeText(bytes: number): string {
	return bytes >= 1024 * 1024
		? `${(bytes / 1024 / 1024).toFixed(1)} MiB`
		: `${Math.ceil(bytes / 1024)} KiB`;
}

/** The error a bounded body fails with once it passes its bound; the client reports it. */
export class ResponseTooLarge extends Error {
	constructor(
		readonly limit: number,
		readonly maxTokens: number
	) {
		super(
			`the response passed ${sizeText(limit)} (${limit} bytes) and was not read further: ` +
				`no answer within the ${sizeText(maxAnswerBytes(maxTokens))} allowed for max_tokens ` +
				`${maxTokens} (${BYTES_PER_TOKEN} bytes a token + ${ANSWER_MARGIN_BYTES / 1024} KiB) ` +
				`is that long, even as escaped JSON: the provider ignored max_tokens`
		);
		this.name = 'ResponseTooLarge';
	}
}

/**
 * `max_tokens` of a chat completion request body as the SDK sends it (a JSON string), or null.
 * Only a key can read `"max_tokens":` followed by a digit: inside a JSON string the closing
 * quote would be escaped (`\"`).
 */
export function maxTokensOf(body: unknown): number | null {
	if (typeof body !== 'string') return null;
	const match = /"max_tokens":\s*(\d{1,9})\b/.exec(body);
	return match ? Number(match[1]) : null;
}

/**
 * The most of an error answer's body that is read (64 KiB): a provider's JSON error is a few
 * hundred bytes, and only 300 characters of it are ever quoted (`QUOTED_CHARS`). Past it the body
 * is cut (ended there, the connection dropped) rather than failed, so the error still reads as
 * the provider's status and words; {@link bodyCutAt} tells it was cut.
 */
export const ERROR_BODY_BYTES = 64 * 1024;
/** The most of any other successful body (a model list, say) that is read: 16 MiB. */
export const OTHER_BODY_BYTES = 16 * 1024 * 1024;

/**
 * How far a body is read, by its response's status and the request's `max_tokens`: a
 * successful chat completion to {@link maxResponseBytes} (past it the body fails with
 * {@link ResponseTooLarge}), an error (status 300 or more) to {@link ERROR_BODY_BYTES} (past it
 * the body is cut), anything else to {@link OTHER_BODY_BYTES} (past it the body fails with
 * {@link BodyTooLarge}). Bytes are counted decoded, so a small gzip that inflates to gigabytes
 * stops at the same place.
 */
export function bodyBound(
	status: number,
	maxTokens: number | null,
	otherBytes: number = OTHER_BODY_BYTES
): { limit: number; past: 'cut' } | { limit: number; past: 'fail'; error: () => Error } {
	if (status >= 300) return { limit: ERROR_BODY_BYTES, past: 'cut' };
	if (maxTokens !== null) {
		const limit = maxResponseBytes(maxTokens);
		return { limit, past: 'fail', error: () => new ResponseTooLarge(limit, maxTokens) };
	}
	return { limit: otherBytes, past: 'fail', error: () => new BodyTooLarge(otherBytes) };
}

/** A successful body other than a chat completion that passed {@link OTHER_BODY_BYTES}. */
export class BodyTooLarge extends Error {
	constructor(readonly limit: number) {
		super(`the response passed ${sizeText(limit)} (${limit} bytes) and was not read further`);
		this.name = 'BodyTooLarge';
	}
}

/** Headers of responses whose body was cut at its bound, with the bound. */
const cutBodies = new WeakMap<Headers, number>();

/** Records that the body of the response with these headers was cut at `limit` bytes. */
export function markBodyCut(headers: Headers, limit: number): void {
	cutBodies.set(headers, limit);
}

/**
 * The bound an error body was cut at, or undefined when it was read whole. Takes the headers
 * because they are what the SDK's `APIError` keeps of the response (`error.headers`).
 */
export function bodyCutAt(headers: Headers | undefined): number | undefined {
	return headers ? cutBodies.get(headers) : undefined;
}

/** Fetch implementations that bound bodies by this very rule themselves (`markBoundsBodies`). */
const bounding = new WeakSet<typeof fetch>();

/**
 * Registers a `fetch` that applies {@link bodyBound} to every body and the redirect rule of
 * `./redirect` itself (the CLI's `node:http` fetch): `boundedFetch` then returns it unwrapped,
 * without a second stream per response.
 */
export function markBoundsBodies(fetchImpl: typeof fetch): void {
	bounding.add(fetchImpl);
}

/** What {@link boundedFetch} may be told beyond its defaults. */
export interface BoundedFetchOptions {
	/**
	 * The bound of a successful body that names no `max_tokens` for a request to `url` (past it
	 * the body fails with {@link BodyTooLarge}), or undefined for the default: a batch's output
	 * file is bounded by its lines, not by a model list's size (`core/batch/provider.ts`).
	 * A `fetch` given this bound is not registered as bounding bodies by the default rule.
	 * @default OTHER_BODY_BYTES for every request
	 */
	otherBodyBytes?: (url: URL) => number | undefined;
}

/**
 * Wraps `inner` so that every body is read at most to {@link bodyBound}: a successful chat
 * completion fails one byte past {@link maxResponseBytes} (with {@link ResponseTooLarge}, what
 * the SDK's `response.json()` then rejects with), an error body ends at {@link ERROR_BODY_BYTES}
 * (marked for {@link bodyCutAt}), and the connection is cancelled, so the rest is never
 * downloaded.
 *
 * Redirects are not left to `inner`, which would follow them to any origin with no bound: the
 * request goes out with `redirect: 'manual'`. Where the redirect can be read (Node's fetch gives
 * the 3xx and its `Location`), it is followed by the rule of `./redirect` (the same origin only,
 * at most `MAX_REDIRECTS`, never a POST turned into a GET); a browser gives a page only an
 * opaque answer (`type: 'opaqueredirect'`, no status, no `Location`), so there every redirect is
 * refused with {@link RedirectRefused} (`hidden`). Either way no request leaves the origin.
 */
export function boundedFetch(inner: typeof fetch, options: BoundedFetchOptions = {}): typeof fetch {
	const { otherBodyBytes } = options;
	if (bounding.has(inner) && !otherBodyBytes) return inner;
	const wrapped: typeof fetch = async (input, init) => {
		const maxTokens = maxTokensOf(init?.body);
		if (typeof input !== 'string' && !(input instanceof URL)) {
			return bound(await inner(input, { ...init, redirect: 'manual' }), maxTokens);
		}
		let url = new URL(input);
		const other = otherBodyBytes?.(url) ?? OTHER_BODY_BYTES;
		let next: RequestInit = { ...init, redirect: 'manual' };
		for (let hops = 1; ; hops++) {
			const response = await inner(url.href, next);
			if (response.type === 'opaqueredirect') {
				throw new RedirectRefused('hidden', 0, '');
			}
			const location = response.headers.get('location');
			if (!REDIRECT_STATUSES.has(response.status) || location === null) {
				return bound(response, maxTokens, other);
			}
			await response.body?.cancel().catch(() => {});
			const hop = nextHop(url, response.status, location, next.method ?? 'GET', hops);
			url = hop.url;
			next = hop.keepBody ? { ...next, method: hop.method } : withoutBody(next, hop.method);
		}
	};
	// Wrapping it again would only add a stream per response.
	if (!otherBodyBytes) bounding.add(wrapped);
	return wrapped;
}

/** `init` for a request that carries no body (a GET after a 301, 302 or 303). */
function withoutBody(init: RequestInit, method: string): RequestInit {
	const headers = new Headers(init.headers);
	headers.delete('content-type');
	headers.delete('content-length');
	// eslint-disable-next-line @typescript-eslint/no-unused-vars
	const { body, ...rest } = init;
	return { ...rest, method, headers };
}

/** `response` with its body read at most to {@link bodyBound}. */
function bound(response: Response, maxTokens: number | null, otherBytes?: number): Response {
	if (!response.body) return response;
	const rule = bodyBound(response.status, maxTokens, otherBytes);
	const reader = response.body.getReader();
	let read = 0;
	let headers: Headers | null = null;
	const body = new ReadableStream<Uint8Array>({
		async pull(controller) {
			const { done, value } = await reader.read();
			if (done) {
				// A body `inner` cut already is still a cut body.
				const cutAt = bodyCutAt(response.headers);
				if (cutAt !== undefined) markBodyCut(headers!, cutAt);
				return controller.close();
			}
			read += value.byteLength;
			if (read <= rule.limit) return controller.enqueue(value);
			if (rule.past === 'cut') {
				controller.enqueue(value.subarray(0, value.byteLength - (read - rule.limit)));
				markBodyCut(headers!, rule.limit);
				controller.close();
				await reader.cancel().catch(() => {});
				return;
			}
			const error = rule.error();
			controller.error(error);
			await reader.cancel(error).catch(() => {});
		},
		cancel: (reason) => reader.cancel(reason)
	});
	const out = new Response(body, {
		status: response.status,
		statusText: response.statusText,
		headers: response.headers
	});
	headers = out.headers;
	return out;
}
