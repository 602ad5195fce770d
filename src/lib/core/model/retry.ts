/**
 * The retry policy of PROTOCOL.md §3: which failures are worth another attempt, and how long to wait.
 * The one policy of every call to a provider: the model client's attempts (`openai-client.ts`)
 * and the batch provider's (`../batch/provider.ts`, through {@link withRetries}); the SDK's own
 * retries are off wherever a client is made. Errors of the `openai` package are told apart with
 * `instanceof`, never by class name (names are minified in production builds).
 */
import type { CoreText } from '../said';
import { DEFAULT_SETTINGS } from '../run-defaults';
import { abortableSleep } from './abortable';
import {
	APIConnectionError,
	APIConnectionTimeoutError,
	APIError,
	APIUserAbortError,
	AuthenticationError,
	BadRequestError,
	InternalServerError,
	NotFoundError,
	PermissionDeniedError,
	RateLimitError,
	UnprocessableEntityError
} from 'openai';
import type { ModelCallError } from '../errors';

export type FailureKind = NonNullable<ModelCallError['details']['kind']>;

/** One failed attempt, classified. */
export interface Failure {
	kind: FailureKind;
	retryable: boolean;
	status?: number;
	/** What the provider (or the transport) said, for the user. */
	detail: string;
	/** `detail` as a code, when it is our own sentence (a CORS fix, an output rule). */
	detailSaid?: CoreText;
	/** The provider's requested wait, from `retry-after-ms` or `Retry-After`. */
	retryAfterMs?: number;
	/** The unusable output, for empty, cut-off or malformed completions. */
	rawOutput?: string;
	/**
	 * For `unreachable`: the server had started answering (headers received) when the connection
	 * dropped, so it is running; the message must not send the user to check that it is.
	 */
	midAnswer?: boolean;
}

/** Statuses retried although they are 4xx: request timeout, conflict/lock, rate limit. */
const RETRYABLE_4XX = new Set([408, 409, 429]);

/** Classifies an error thrown by one SDK call (not an abort or our own timeout). */
export function classifyError(e: unknown, now: () => number = Date.now): Failure {
	if (e instanceof APIConnectionTimeoutError) {
		return { kind: 'timeout', retryable: true, detail: 'the request timed out' };
	}
	if (e instanceof APIUserAbortError) {
		return { kind: 'aborted', retryable: false, detail: 'cancelled' };
	}
	if (e instanceof APIConnectionError) {
		const cause = (e as { cause?: unknown }).cause;
		const why = cause instanceof Error && cause.message !== e.message ? ` (${cause.message})` : '';
		return { kind: 'unreachable', retryable: true, detail: `${e.message}${why}` };
	}
	if (e instanceof APIError) {
		const status = e.status ?? 0;
		const detail = providerMessage(e);
		const retryAfterMs = parseRetryAfter(e.headers, now);
		if (e instanceof RateLimitError)
			return { kind: 'rate_limit', retryable: true, status, detail, retryAfterMs };
		if (e instanceof InternalServerError || RETRYABLE_4XX.has(status)) {
			return {
				kind: status === 408 ? 'timeout' : 'server',
				retryable: true,
				status,
				detail,
				retryAfterMs
			};
		}
		if (e instanceof AuthenticationError || e instanceof PermissionDeniedError) {
			return { kind: 'auth', retryable: false, status, detail };
		}
		if (e instanceof NotFoundError) return { kind: 'not_found', retryable: false, status, detail };
		if (e instanceof BadRequestError || e instanceof UnprocessableEntityError || status >= 400) {
			return { kind: 'bad_request', retryable: false, status, detail };
		}
		return { kind: 'server', retryable: true, status, detail };
	}
	// The SDK parses the body outside its own error handling: a cut-off JSON body surfaces as a
	// SyntaxError, a connection dropped mid-body as a plain TypeError from fetch.
	if (e instanceof SyntaxError) {
		return {
			kind: 'server',
			retryable: true,
			status: 200,
			detail: `malformed response body (${e.message})`
		};
	}
	// The SDK turns every failure of fetch itself into APIConnectionError; what is left failed
	// reading the body, after the server had answered with its headers.
	const message = e instanceof Error ? e.message : String(e);
	return {
		kind: 'unreachable',
		retryable: true,
		detail: `the connection dropped while the answer was being received (${message})`,
		midAnswer: true
	};
}

/** The provider's own words, without the status the SDK puts in front. */
export function providerMessage(e: APIError): string {
	const body = e.error as unknown;
	if (typeof body === 'string' && body.trim()) return body.trim();
	const nested = (body as { message?: unknown } | undefined)?.message;
	if (typeof nested === 'string' && nested.trim()) return nested.trim();
	return e.message.replace(/^\d{3}\s+/, '').trim();
}

/**
 * The wait a response asks for, in ms: `retry-after-ms` (OpenAI's), else `Retry-After` as
 * seconds or as an HTTP date. Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(
	headers: Headers | undefined,
	now: () => number = Date.now
): number | undefined {
	const ms = headers?.get('retry-after-ms')?.trim();
	if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
	const value = headers?.get('retry-after')?.trim();
	if (!value) return undefined;
	if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}

/** Options of {@link backoffDelay}. */
export interface BackoffOptions {
	/** Wait before the first retry, before jitter. @default 1000 */
	baseMs?: number;
	/** Longest computed wait. @default 30000 */
	maxMs?: number;
}

/**
 * Exponential backoff with "equal jitter": after failed attempt n the wait is drawn from
 * [d/2, d] with d = min(max, base·2^(n−1)), so parallel callers spread out but never retry at once.
 */
export function backoffDelay(attempt: number, random: () => number, options: BackoffOptions = {}) {
	const d = Math.min(options.maxMs ?? 30_000, (options.baseMs ?? 1000) * 2 ** (attempt - 1));
	return Math.round(d / 2 + (d / 2) * random());
}

/** How a caller retries: how often, and the waits of {@link retryDelay}. */
export interface RetryPolicy {
	/** Further attempts after a retryable failure (PROTOCOL.md §3). @default DEFAULT_SETTINGS.retries */
	retries?: number;
	/** Wait before the first retry, before jitter; doubles per attempt. @default 1000 */
	backoffBaseMs?: number;
	/** Longest computed backoff. @default 30000 */
	backoffMaxMs?: number;
	/**
	 * Longest wait a provider's Retry-After can impose; a longer request is cut to this, so a
	 * quota reset hours away costs minutes, not hours, before the stage stops. @default 60000
	 */
	maxRetryAfterMs?: number;
	/** Injectable for tests (jitter). @default Math.random */
	random?: () => number;
	/** Injectable for tests. @default abortableSleep */
	sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * The wait after failed attempt `attempt` (1-based): the provider's Retry-After, cut to
 * `maxRetryAfterMs`, else the {@link backoffDelay}.
 */
export function retryDelay(
	failure: Failure,
	attempt: number,
	policy: RetryPolicy = {}
): { delayMs: number; fromRetryAfter: boolean } {
	if (failure.retryAfterMs !== undefined) {
		const delayMs = Math.min(failure.retryAfterMs, policy.maxRetryAfterMs ?? 60_000);
		return { delayMs, fromRetryAfter: true };
	}
	const backoff = { baseMs: policy.backoffBaseMs, maxMs: policy.backoffMaxMs };
	return {
		delayMs: backoffDelay(attempt, policy.random ?? Math.random, backoff),
		fromRetryAfter: false
	};
}

/**
 * `call` under the policy: a failure {@link classifyError} finds retryable is tried again after
 * {@link retryDelay}, at most `retries` times; any other failure, the last one and an abort of
 * `signal` are thrown as they are.
 */
export async function withRetries<T>(
	call: () => Promise<T>,
	signal?: AbortSignal,
	policy: RetryPolicy = {}
): Promise<T> {
	const retries = policy.retries ?? DEFAULT_SETTINGS.retries;
	const sleep = policy.sleep ?? abortableSleep;
	for (let attempt = 1; ; attempt++) {
		signal?.throwIfAborted();
		try {
			return await call();
		} catch (e) {
			const failure = classifyError(e);
			if (signal?.aborted || attempt > retries || !failure.retryable) throw e;
			await sleep(retryDelay(failure, attempt, policy).delayMs, signal);
		}
	}
}
