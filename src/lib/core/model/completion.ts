/**
 * What the interactive client and the batch client share about one chat completion: the request
 * body sent (PROTOCOL.md §2), the output rules an answer must pass (PROTOCOL.md §3), and how an
 * HTTP status with its body becomes a classified failure.
 */
import { APIError } from 'openai';
import type { ClientFailure } from './failure-message';
import { classifyError } from './retry';
import type { ChatRequest } from './types';

/** The body of one chat completion request: the filled prompt as ONE user message. */
export function chatBody(model: string, request: ChatRequest) {
	return {
		model,
		messages: [{ role: 'user' as const, content: request.prompt }],
		n: 1,
		temperature: request.temperature,
		max_tokens: request.maxTokens
	};
}

export type ChatBody = ReturnType<typeof chatBody>;

/**
 * The failure an HTTP error status with its JSON body stands for, classified exactly as the
 * SDK's error for that response would be.
 */
export function statusFailure(status: number, body: unknown): ClientFailure {
	// As the SDK reads a response: a JSON body is the error object, any other body its message.
	const json = typeof body === 'object' && body !== null ? body : undefined;
	const text = json ? undefined : typeof body === 'string' ? body : undefined;
	const error = APIError.generate(status, json, text, new Headers());
	return classifyError(error);
}

// One reading of a completion, whichever client got it (read-completion.ts).
export { readCompletion, RejectedOutput } from './read-completion';
