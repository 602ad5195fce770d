/** What `createOpenAIClient` (`./openai-client.ts`) takes. */
import type { ModelEvent } from './events';
import { type CoreText } from '../said';
import { LimiterPool } from './limiter';

/** Options of {@link createOpenAIClient}. */
export interface OpenAIClientOptions {
	/** Further attempts after a retryable failure (PROTOCOL.md §3). @default DEFAULT_SETTINGS.retries */
	retries?: number;
	/** Per-attempt timeout in ms. @default DEFAULT_SETTINGS.timeout_s × 1000 */
	timeoutMs?: number;
	/** Most calls in flight per endpoint (keyed by base URL), halved on 429s. @default DEFAULT_CONCURRENCY */
	concurrency?: number;
	/**
	 * The limiters to take slots from, shared with the engine (`--concurrency auto` makes them
	 * probe). When given, `concurrency` and `growAfter` are ignored. @default one pool of this client's
	 */
	limiters?: LimiterPool;
	/** Successes in a row before a rate-limited endpoint's limit grows by one. @default 10 */
	growAfter?: number;
	/** Wait before the first retry, before jitter; doubles per attempt. @default 1000 */
	backoffBaseMs?: number;
	/** Longest computed backoff. @default 30000 */
	backoffMaxMs?: number;
	/**
	 * Longest wait a provider's Retry-After can impose; a longer request is cut to this, so a
	 * quota reset hours away costs minutes, not hours, before the stage stops. @default 60000
	 */
	maxRetryAfterMs?: number;
	/** Progress and log events; see {@link ModelEvent}. Never receives a key. */
	onEvent?: (event: ModelEvent) => void;
	/**
	 * Tells a CORS refusal from a server that is down, and both from a browser that is offline,
	 * after a connection error. The browser app passes `probeCors` from `./diagnose`; a refused
	 * origin then stops at once (retrying cannot help) with the provider-specific fix. Once the
	 * base URL has answered this client a dropped connection there is retried whatever the probe
	 * says, which then only words the final message: offline, or nothing answering any more,
	 * never "the server is up" when it is not. Without it connection errors are plain retries.
	 */
	probeConnection?: (
		baseURL: string,
		signal?: AbortSignal
	) => Promise<{ kind: 'cors' | 'unreachable' | 'offline'; hint: string; hintSaid?: CoreText }>;
	/** Injectable for tests. @default an abortable setTimeout */
	sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
	/** Injectable for tests (jitter). @default Math.random */
	random?: () => number;
	/** Injectable for tests and proxies. @default globalThis.fetch */
	fetch?: typeof fetch;
}
