/** The one interface every model provider implements: a filled prompt in, a response out. */
import type { Role } from '../records';
import type { LimiterPool } from './limiter';
import type { FailureKind } from './retry';

/** Which prompt of the pack a call serves; used for logs, progress and the simulated provider. */
export type Task =
	| 'lexawn'
	| 'force_ask'
	| 'force_judge'
	| 'user_standard'
	| 'judge_lca'
	| 'judge_dcg'
	| 'judge_extract';

export interface ChatRequest {
	role: Role;
	task: Task;
	/** The filled prompt, sent as ONE user message (PROTOCOL.md §2). */
	prompt: string;
	temperature: number;
	maxTokens: number;
	/** The case this call is for, so errors and logs can name it. */
	caseNumber: string;
	signal?: AbortSignal;
	/**
	 * Order among calls waiting for a slot of the same endpoint: lower first, ties in arrival
	 * order. The engine passes the number of the task the call belongs to. @default last
	 */
	priority?: number;
	/**
	 * The engine's stage this call serves, so a wrapper (the Run page's pause, its per-stage
	 * retries) can tell stages of one case apart when they run together. Not sent anywhere.
	 */
	stage?: string;
}

export interface ChatResult {
	/** Content with any leading `<think>` block removed. */
	response: string;
	/** `<think>` content or a `reasoning_content`/`reasoning` field, when present. */
	reasoning: string | null;
	finishReason: string | null;
	/** `reasoningTokens` only where the provider reports it (`completion_tokens_details`). */
	usage: { promptTokens: number; completionTokens: number; reasoningTokens?: number } | null;
	/** The message content as received, when it differs from `response` (a `<think>` block). */
	rawContent?: string;
	/** Every attempt the call took, for the call log; a client that does not retry may leave it out. */
	attempts?: AttemptTrace[];
	/** A batch answer used again by a later pass: already logged, not logged again. */
	replayed?: boolean;
}

/** One attempt of a call: how it ended, how long it took, and the wait before the next. */
export interface AttemptTrace {
	/** 1-based. */
	attempt: number;
	outcome: 'ok' | FailureKind;
	status?: number;
	/** Why it failed, key redacted. */
	reason?: string;
	latencyMs: number;
	/** The wait before the next attempt. */
	delayMs?: number;
	/** The unusable output of an empty, cut-off or malformed completion. */
	rawOutput?: string;
}

/** Endpoint settings of one role. The key stays in memory; it is never written to a record. */
export interface RoleEndpoint {
	/** @default 'https://api.openai.com/v1' */
	baseURL: string;
	apiKey: string;
	model: string;
}

export interface ModelClient {
	/**
	 * One chat completion, with retries per PROTOCOL.md §3 already applied. Throws `ModelCallError`
	 * when the call finally fails.
	 */
	complete(request: ChatRequest): Promise<ChatResult>;
	/** True for the offline simulated provider; recorded in the manifest. */
	readonly simulated: boolean;
	/**
	 * The per-endpoint limiters this client takes a slot from for every attempt, when it limits
	 * itself (the OpenAI client). The engine reads them to size its window of cases and show
	 * the limits; a client without them gets its calls limited by the engine.
	 */
	readonly limiters?: LimiterPool;
}
