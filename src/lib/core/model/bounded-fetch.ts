/**
 * A `fetch` for the openai SDK that counts a chat completion's body bytes as they arrive and
 * stops reading past a bound derived from the request's `max_tokens` (issue 14, item 5). The SDK
 * reads a body whole before the client can look at it, so without this a provider that ignores
 * max_tokens makes the CLI or the page hold its entire answer (megabytes, or a gigabyte) in
 * memory before the answer bound refuses it. Web-standard globals only (Response,
 * ReadableStream): the same code runs in Node and in the page.
 */

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

/** Fetch implementations that bound bodies by this very rule themselves (`markBoundsBodies`). */
const bounding = new WeakSet<typeof fetch>();

/**
 * Registers a `fetch` that applies {@link maxResponseBytes} to successful bodies itself, failing
 * the body with {@link ResponseTooLarge} past it (the CLI's `node:http` fetch): `boundedFetch`
 * then returns it unwrapped, without a second stream per response.
 */
export function markBoundsBodies(fetchImpl: typeof fetch): void {
	bounding.add(fetchImpl);
}

/**
 * Wraps `inner` so that the body of every successful response to a request naming `max_tokens`
 * is read at most to {@link maxResponseBytes}: one byte more and the body fails with
 * {@link ResponseTooLarge} (what the SDK's `response.json()` then rejects with) and the
 * connection is cancelled, so the rest is never downloaded. Error statuses and other requests
 * pass through unchanged.
 */
export function boundedFetch(inner: typeof fetch): typeof fetch {
	if (bounding.has(inner)) return inner;
	return async (input, init) => {
		const response = await inner(input, init);
		const maxTokens = maxTokensOf(init?.body);
		if (!response.ok || !response.body || maxTokens === null) return response;
		const limit = maxResponseBytes(maxTokens);
		const reader = response.body.getReader();
		let read = 0;
		const body = new ReadableStream<Uint8Array>({
			async pull(controller) {
				const { done, value } = await reader.read();
				if (done) return controller.close();
				read += value.byteLength;
				if (read > limit) {
					const error = new ResponseTooLarge(limit, maxTokens);
					controller.error(error);
					await reader.cancel(error).catch(() => {});
					return;
				}
				controller.enqueue(value);
			},
			cancel: (reason) => reader.cancel(reason)
		});
		return new Response(body, {
			status: response.status,
			statusText: response.statusText,
			headers: response.headers
		});
	};
}
