/**
 * What the interactive client and the batch client share about one chat completion: the request
 * body sent (PROTOCOL.md §2), the output rules an answer must pass (PROTOCOL.md §3), and how an
 * HTTP status with its body becomes a classified failure.
 */
import OpenAI, { APIError } from 'openai';
import { ANSWER_MARGIN_BYTES, BYTES_PER_TOKEN, maxAnswerBytes, sizeText } from './bounded-fetch';
import { describeRejectedOutput, type ClientFailure } from './failure-message';
import { splitReasoning } from './output';
import { classifyError } from './retry';
import { coded } from '../said';
import { clipText, RAW_OUTPUT_CHARS, utf8Length } from '../text/clip';
import type { ChatRequest, ChatResult } from './types';

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

/** An output the protocol refuses (PROTOCOL.md §3): retried as a failure, never returned. */
export class RejectedOutput extends Error {
	constructor(readonly failure: ClientFailure) {
		super(failure.detail);
	}
}

/** The usable answer of a completion, or a thrown {@link RejectedOutput}. */
export function readCompletion(completion: unknown, maxTokens: number): ChatResult {
	const choice = (completion as OpenAI.ChatCompletion | null)?.choices?.[0];
	if (!choice?.message) {
		const raw = typeof completion === 'string' ? completion : JSON.stringify(completion ?? null);
		throw new RejectedOutput({
			kind: 'server',
			retryable: true,
			status: 200,
			detail: 'the response is not a chat completion (no choices[0].message)',
			rawOutput: clipText(raw, RAW_OUTPUT_CHARS)
		});
	}
	const message = choice.message as OpenAI.ChatCompletionMessage & {
		reasoning_content?: string | null;
		reasoning?: string | null;
	};
	const texts = [message.content, message.reasoning_content ?? message.reasoning];
	const bytes = texts.reduce((n, t) => n + (typeof t === 'string' ? utf8Length(t) : 0), 0);
	const limit = maxAnswerBytes(maxTokens);
	if (bytes > limit) {
		throw new RejectedOutput({
			kind: 'invalid_output',
			retryable: true,
			detail:
				`the answer is ${sizeText(bytes)} (${bytes} bytes), more than the ${sizeText(limit)} ` +
				`allowed for max_tokens ${maxTokens} (${BYTES_PER_TOKEN} bytes a token + ` +
				`${ANSWER_MARGIN_BYTES / 1024} KiB): the provider ignored max_tokens`,
			rawOutput: clipText(
				typeof message.content === 'string' ? message.content : '',
				RAW_OUTPUT_CHARS
			)
		});
	}
	const { response, reasoning } = splitReasoning(
		message.content,
		message.reasoning_content ?? message.reasoning
	);
	const finishReason = choice.finish_reason ?? null;
	if (finishReason === 'length' || !response) {
		// Tool calls and no text: a model (or a proxy) forcing tool use, not a model that is mute.
		const reason =
			finishReason === 'length'
				? 'length'
				: Array.isArray(message.tool_calls) && message.tool_calls.length > 0
					? 'tool_calls'
					: 'empty';
		throw new RejectedOutput({
			kind: 'invalid_output',
			retryable: true,
			detail: describeRejectedOutput(reason, maxTokens),
			detailSaid:
				reason === 'length'
					? coded('output_cut_off', { maxTokens })
					: coded(reason === 'tool_calls' ? 'output_tool_calls' : 'output_empty', {}),
			rawOutput: clipText(message.content ?? '', RAW_OUTPUT_CHARS)
		});
	}
	const usage = (completion as OpenAI.ChatCompletion).usage;
	const reasoningTokens = usage?.completion_tokens_details?.reasoning_tokens;
	return {
		response,
		reasoning,
		finishReason,
		usage: usage
			? {
					promptTokens: usage.prompt_tokens,
					completionTokens: usage.completion_tokens,
					...(typeof reasoningTokens === 'number' ? { reasoningTokens } : {})
				}
			: null,
		...(message.content !== response && typeof message.content === 'string'
			? { rawContent: message.content }
			: {})
	};
}
