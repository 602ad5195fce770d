/**
 * The `ModelClient` for OpenAI-compatible endpoints, over the `openai` package. The SDK's own
 * retries are off (`maxRetries: 0`): this module runs the bounded retry loop of PROTOCOL.md §3 itself so
 * that every attempt is logged, abortable and counted, and so that empty or cut-off outputs are
 * retried like any other failure. Works in browsers and in Node 20.
 */
import OpenAI, { APIConnectionError, APIError } from 'openai';
import { ModelCallError } from '../errors';
import {
	ANSWER_MARGIN_BYTES,
	boundedFetch,
	bodyCutAt,
	BYTES_PER_TOKEN,
	maxAnswerBytes,
	maxResponseBytes,
	RedirectRefused,
	ResponseTooLarge
} from './bounded-fetch';
import { linkSignal, onAbort } from './abort-fan-out';
import type { Role } from '../records';
import { DEFAULT_CONCURRENCY, DEFAULT_SETTINGS } from '../run-config';
import type { CallInfo, ModelEvent } from './events';
import { providerWords, type ClientFailure } from './failure-message';
import { endpointKey } from '../names';
import { keyCharacter } from './key-check';
import { coded } from '../said';
import { english } from '../voice';
import { LimiterPool } from './limiter';
import { clipText, QUOTED_CHARS } from '../text/clip';
import { escapeControl } from '../text/escape-control';
import { redactKeys } from '../text/redact';
import { checkBaseUrl, publicBaseUrl, sdkTarget } from './base-url';
import { classifyError, retryDelay } from './retry';
import { callError } from './call-error';
import { chatBody, readCompletion, RejectedOutput } from './completion';
import type { AttemptTrace, ChatRequest, ChatResult, ModelClient, RoleEndpoint } from './types';
import { type OpenAIClientOptions } from './openai-client-options';
import { abortableSleep, raceAbort } from './abortable';
import { openaiSdk } from './sdk';

/** Thrown inside the loop to stop without further attempts. */
const TIMEOUT = Symbol('timeout');

export function createOpenAIClient(
	endpoints: Record<Role, RoleEndpoint>,
	options: OpenAIClientOptions = {}
): ModelClient {
	const retries = options.retries ?? DEFAULT_SETTINGS.retries;
	// The SDK insists on a positive integer.
	const timeoutMs = Math.max(1, Math.round(options.timeoutMs ?? DEFAULT_SETTINGS.timeout_s * 1000));
	const sleep = options.sleep ?? abortableSleep;
	const emit = (e: ModelEvent) => options.onEvent?.(e);
	const sdks = new Map<Role, OpenAI>();
	const limiters =
		options.limiters ??
		new LimiterPool({
			max: options.concurrency ?? DEFAULT_CONCURRENCY,
			growAfter: options.growAfter,
			// Events end up in logs and on screen: never a query value (`?token=…`) of the base URL.
			onLimitChange: (baseURL, limit, reason) =>
				emit({ type: 'limit', baseURL: publicBaseUrl(baseURL), limit, reason })
		});
	// Base URLs whose answers this page could read: their CORS evidently admits it, so a later
	// failed fetch there is a network fault to retry, not a CORS refusal (which fails every call).
	const answered = new Set<string>();

	const sdkFor = (role: Role) => {
		let sdk = sdks.get(role);
		if (!sdk) {
			const ep = endpoints[role];
			sdk = openaiSdk(ep, {
				maxRetries: 0,
				timeout: timeoutMs,
				// A successful body is read at most to maxResponseBytes(max_tokens) of the request.
				fetch: boundedFetch(options.fetch ?? ((input, init) => globalThis.fetch(input, init)))
			});
			sdks.set(role, sdk);
		}
		return sdk;
	};

	const limiterFor = (baseURL: string) => limiters.get(baseURL);

	// What each call needs to know of its endpoint, worked out once per endpoint, not per call.
	const facts = new WeakMap<RoleEndpoint, EndpointFacts & { baseURL: string; apiKey: string }>();
	const factsOf = (ep: RoleEndpoint): EndpointFacts => {
		const known = facts.get(ep);
		if (known && known.baseURL === ep.baseURL && known.apiKey === ep.apiKey) return known;
		const made = { baseURL: ep.baseURL, apiKey: ep.apiKey, ...endpointFacts(ep) };
		facts.set(ep, made);
		return made;
	};

	async function attemptOnce(request: ChatRequest, ep: RoleEndpoint): Promise<ChatResult> {
		const ctl = new AbortController();
		// Rejected when this attempt is stopped (only here is `ctl` aborted): what the answer is
		// raced against, without listening to `ctl.signal` as well.
		let stopped!: (reason: unknown) => void;
		const stop = new Promise<never>((_, reject) => (stopped = reject));
		stop.catch(() => {});
		const abort = (reason: unknown) => {
			ctl.abort(reason);
			stopped(reason);
		};
		const stopFollowing = request.signal
			? onAbort(request.signal, () => abort(request.signal?.reason))
			: () => {};
		const timer = setTimeout(() => abort(TIMEOUT), timeoutMs);
		try {
			const call = sdkFor(request.role).chat.completions.create(chatBody(ep.model, request), {
				signal: ctl.signal,
				timeout: timeoutMs
			});
			// The SDK stops watching the signal once headers arrive; racing keeps a stalled body
			// from outliving an abort or the timeout.
			call.catch(() => {});
			const completion = await Promise.race([call, stop]);
			return readCompletion(completion, request.maxTokens);
		} finally {
			clearTimeout(timer);
			stopFollowing();
		}
	}

	async function complete(request: ChatRequest): Promise<ChatResult> {
		// Everything this client waits on (limiter queue, attempt, backoff) listens to the run's
		// signal through `onAbort`: one listener for every call in flight. A connection probe (the
		// browser's) is handed the signal itself, so it gets one of the call's own.
		if (!request.signal || !options.probeConnection) return attempts(request);
		const link = linkSignal(request.signal);
		try {
			return await attempts({ ...request, signal: link.signal });
		} finally {
			link.dispose();
		}
	}

	async function attempts(request: ChatRequest): Promise<ChatResult> {
		const ep = endpoints[request.role];
		if (!ep) {
			const said = coded('call_no_endpoint', { modelRole: request.role });
			throw new ModelCallError(english(said), { role: request.role, said: [said] });
		}
		const { shownURL, checked, badKey, endpoint } = factsOf(ep);
		if (!checked.ok) {
			const said = coded('call_base_url', { modelRole: request.role }, { problem: [checked.said] });
			throw new ModelCallError(english(said), {
				kind: 'bad_request',
				caseNumber: request.caseNumber,
				role: request.role,
				task: request.task,
				said: [said]
			});
		}
		if (badKey) {
			const at = { case: request.caseNumber, modelRole: request.role, model: ep.model };
			const problem = coded('key_unsendable', { char: badKey.char, position: badKey.position });
			const said = coded('call_bad_key', { ...at, url: shownURL }, { problem: [problem] });
			throw new ModelCallError(english(said), {
				kind: 'auth',
				caseNumber: request.caseNumber,
				role: request.role,
				task: request.task,
				said: [said]
			});
		}
		const limiter = limiterFor(ep.baseURL);
		const maxAttempts = retries + 1;
		const info = (attempt: number): CallInfo => ({
			caseNumber: request.caseNumber,
			role: request.role,
			task: request.task,
			model: ep.model,
			baseURL: shownURL,
			attempt,
			maxAttempts,
			...(request.stage !== undefined ? { stage: request.stage } : {})
		});
		// Each attempt's outcome, for the call log (returned with the result or the error).
		const trace: AttemptTrace[] = [];
		const fail = (f: ClientFailure, attempt: number): never => {
			const context = {
				caseNumber: request.caseNumber,
				role: request.role,
				model: ep.model,
				baseURL: shownURL,
				attempts: attempt,
				maxTokens: request.maxTokens,
				timeoutMs,
				answeredBefore: answered.has(endpoint)
			};
			const error = callError(f, context, request, trace, ep.apiKey);
			emit({
				type: 'failure',
				...info(attempt),
				kind: f.kind,
				status: f.status,
				message: error.message
			});
			throw error;
		};
		const aborted: ClientFailure = { kind: 'aborted', retryable: false, detail: 'cancelled' };

		for (let attempt = 1; ; attempt++) {
			if (request.signal?.aborted) return fail(aborted, attempt - 1);
			let slot;
			try {
				slot = await limiter.acquire(request.signal, request.priority);
			} catch {
				return fail(aborted, attempt - 1);
			}
			emit({ type: 'attempt', ...info(attempt) });
			const started = Date.now();
			let failure: ClientFailure;
			try {
				const result = await attemptOnce(request, ep);
				const latencyMs = Date.now() - started;
				const handOver = limiter.waiting > 0;
				slot.release('success');
				answered.add(endpoint);
				// The call waiting for this slot goes on the wire before this answer is used. Node writes
				// a request a tick later, after every pending microtask, so without a turn of the event
				// loop each of a burst of answers would wait for the ones before it to be saved. (A
				// browser has no setImmediate: its fetch starts the request itself.)
				if (handOver && typeof setImmediate === 'function') await new Promise(setImmediate);
				emit({
					type: 'success',
					...info(attempt),
					latencyMs,
					usage: result.usage,
					finishReason: result.finishReason
				});
				trace.push({ attempt, outcome: 'ok', latencyMs });
				return { ...result, attempts: trace };
			} catch (e) {
				if (request.signal?.aborted) failure = aborted;
				else if (e === TIMEOUT)
					failure = { kind: 'timeout', retryable: true, detail: 'the request timed out' };
				else if (e instanceof RejectedOutput) failure = e.failure;
				else if (e instanceof ResponseTooLarge)
					failure = { kind: 'invalid_output', retryable: true, detail: e.message };
				else if (e instanceof APIConnectionError && e.cause instanceof RedirectRefused)
					failure = {
						kind: 'bad_request',
						retryable: false,
						detail: e.cause.message,
						redirect: e.cause
					};
				else {
					failure = classifyError(e);
					// Only a prefix of a giant error body was read: the message must not call it whole.
					const cutAt = e instanceof APIError ? bodyCutAt(e.headers) : undefined;
					if (cutAt !== undefined) failure.bodyCutAt = cutAt;
				}
				slot.release(failure.kind === 'rate_limit' ? 'rate_limited' : 'other');
				if (failure.status !== undefined) answered.add(endpoint);
				trace.push({
					attempt,
					outcome: failure.kind,
					status: failure.status,
					// A cut error body goes to the call log as its quote, saying it was cut.
					reason: redact(
						failure.bodyCutAt !== undefined
							? providerWords(failure.detail, failure.bodyCutAt)
							: failure.detail,
						ep.apiKey
					),
					latencyMs: Date.now() - started,
					rawOutput:
						failure.rawOutput === undefined ? undefined : redact(failure.rawOutput, ep.apiKey)
				});
			}
			const last = !failure.retryable || attempt >= maxAttempts;
			// Before any answer every attempt asks (a CORS refusal stops at once); after answers only
			// the last one, whose message the probe words.
			if (
				failure.kind === 'unreachable' &&
				options.probeConnection &&
				!request.signal?.aborted &&
				(last || !answered.has(endpoint))
			) {
				const probe = await options
					.probeConnection(sdkTarget(ep.baseURL).baseURL, request.signal)
					.catch(() => null);
				if (probe?.kind === 'offline') failure.offline = true;
				else if (probe?.kind === 'unreachable') failure.silent = true;
				else if (probe?.kind === 'cors' && !answered.has(endpoint))
					return fail(
						{ kind: 'cors', retryable: false, detail: probe.hint, detailSaid: probe.hintSaid },
						attempt
					);
			}
			if (last) return fail(failure, attempt);

			const { delayMs, fromRetryAfter } = retryDelay(failure, attempt, options);
			trace[trace.length - 1].delayMs = delayMs;
			emit({
				type: 'retry',
				...info(attempt),
				delayMs,
				fromRetryAfter,
				kind: failure.kind,
				status: failure.status,
				reason: redact(
					escapeControl(
						failure.bodyCutAt !== undefined
							? `${failure.status} ${providerWords(failure.detail, failure.bodyCutAt)}`
							: clipText(
									failure.status ? `${failure.status} ${failure.detail}` : failure.detail,
									QUOTED_CHARS
								)
					),
					ep.apiKey
				)
			});
			try {
				await raceAbort(sleep(delayMs, request.signal), request.signal);
			} catch {
				return fail(aborted, attempt);
			}
		}
	}

	return { complete, simulated: false, limiters };
}

// The bounds live with the fetch that enforces the body's; re-exported for the client's users.
export { ANSWER_MARGIN_BYTES, BYTES_PER_TOKEN, maxAnswerBytes, maxResponseBytes };

/** What a call needs to know of its endpoint (`factsOf` keeps them per endpoint). */
interface EndpointFacts {
	/** What messages and events show of the base URL: no query value, no key. */
	shownURL: string;
	checked: ReturnType<typeof checkBaseUrl>;
	badKey: ReturnType<typeof keyCharacter>;
	/** The limiter's and `answered`'s name of the endpoint. */
	endpoint: string;
}

function endpointFacts(ep: RoleEndpoint): EndpointFacts {
	return {
		shownURL: publicBaseUrl(ep.baseURL, [ep.apiKey]),
		checked: checkBaseUrl(ep.baseURL),
		badKey: keyCharacter(ep.apiKey),
		endpoint: endpointKey(ep.baseURL)
	};
}

/**
 * Providers sometimes echo the key in an error, whole, in part or encoded; it must not reach a
 * log or a saved message (see `redactKeys`).
 */
function redact(text: string, apiKey: string): string {
	return redactKeys(text, [apiKey]);
}

export type { OpenAIClientOptions } from './openai-client-options';
