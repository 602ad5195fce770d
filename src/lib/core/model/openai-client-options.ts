/** What `createOpenAIClient` (`./openai-client.ts`) takes. */
import type { ModelEvent } from './events';
import { type CoreText } from '../said';
import { LimiterPool } from './limiter';
import type { RetryPolicy } from './retry';

/** Options of {@link createOpenAIClient}; how it retries is the shared {@link RetryPolicy}. */
export interface OpenAIClientOptions extends RetryPolicy {
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
	/** Injectable for tests and proxies. @default globalThis.fetch */
	fetch?: typeof fetch;
}
