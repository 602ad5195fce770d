/** The one interface every model provider implements: a filled prompt in, a response out. */
import type { Role } from '../records';

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
	/** The filled prompt, sent as ONE user message (SPEC §2). */
	prompt: string;
	temperature: number;
	maxTokens: number;
	/** The case this call is for, so errors and logs can name it. */
	caseNumber: string;
	signal?: AbortSignal;
}

export interface ChatResult {
	/** Content with any leading `<think>` block removed. */
	response: string;
	/** `<think>` content or a `reasoning_content`/`reasoning` field, when present. */
	reasoning: string | null;
	finishReason: string | null;
	usage: { promptTokens: number; completionTokens: number } | null;
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
	 * One chat completion, with retries per SPEC §3 already applied. Throws `ModelCallError`
	 * when the call finally fails.
	 */
	complete(request: ChatRequest): Promise<ChatResult>;
	/** True for the offline simulated provider; recorded in the manifest. */
	readonly simulated: boolean;
}
