/**
 * A chat completion read into a `ChatResult`, or refused as the protocol requires (PROTOCOL.md
 * §3): no message, an answer larger than max_tokens allows, a cut-off, empty or tool-call answer.
 */
import type OpenAI from 'openai';
import { ANSWER_MARGIN_BYTES, BYTES_PER_TOKEN, maxAnswerBytes, sizeText } from './bounded-fetch';
import { rejectedOutputSaid, type ClientFailure } from './failure-message';
import { english } from '../voice';
import { splitReasoning } from './output';
import { clipText, RAW_OUTPUT_CHARS, utf8Length } from '../text/clip';
import type { ChatResult } from './types';

/** An output the protocol refuses (PROTOCOL.md §3): retried as a failure, never returned. */
export class RejectedOutput extends Error {
	constructor(readonly failure: ClientFailure) {
		super(failure.detail);
	}
}

/**
 * Where a completion's text is neither text nor absent (`content: 42`, `reasoning_content: 5`):
 * the field and what it is, else null. Such an answer is a failed attempt, never used.
 */
export function notTextField(body: unknown): string | null {
	const choices = (body as { choices?: unknown } | null)?.choices;
	const message = Array.isArray(choices) ? (choices[0] as { message?: unknown })?.message : null;
	if (message === null || typeof message !== 'object') return null;
	for (const field of ['content', 'reasoning_content', 'reasoning']) {
		const value = (message as Record<string, unknown>)[field];
		if (value !== null && value !== undefined && typeof value !== 'string') {
			return `choices[0].message.${field} is ${Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not text`;
		}
	}
	return null;
}

/**
 * Why a completion's message (content plus reasoning) is larger than `maxTokens` allows
 * ({@link maxAnswerBytes}), or null when it is not: the rule an interactive answer and a batch
 * answer are read by alike, so the batch reader refuses before saving what this would refuse.
 */
export function answerTooLarge(
	message: { content?: unknown; reasoning_content?: unknown; reasoning?: unknown },
	maxTokens: number
): string | null {
	const texts = [message.content, message.reasoning_content ?? message.reasoning];
	const bytes = texts.reduce<number>((n, t) => n + (typeof t === 'string' ? utf8Length(t) : 0), 0);
	const limit = maxAnswerBytes(maxTokens);
	if (bytes <= limit) return null;
	return (
		`the answer is ${sizeText(bytes)} (${bytes} bytes), more than the ${sizeText(limit)} ` +
		`allowed for max_tokens ${maxTokens} (${BYTES_PER_TOKEN} bytes a token + ` +
		`${ANSWER_MARGIN_BYTES / 1024} KiB): the provider ignored max_tokens`
	);
}

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
	const notText = notTextField(completion);
	if (notText !== null) {
		throw new RejectedOutput({
			kind: 'invalid_output',
			retryable: true,
			detail: notText,
			rawOutput: clipText(JSON.stringify(choice.message), RAW_OUTPUT_CHARS)
		});
	}
	const message = choice.message as OpenAI.ChatCompletionMessage & {
		reasoning_content?: string | null;
		reasoning?: string | null;
	};
	const tooLarge = answerTooLarge(message, maxTokens);
	if (tooLarge !== null) {
		throw new RejectedOutput({
			kind: 'invalid_output',
			retryable: true,
			detail: tooLarge,
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
		const rejected = rejectedOutputSaid(reason, maxTokens);
		throw new RejectedOutput({
			kind: 'invalid_output',
			retryable: true,
			detail: english(rejected),
			detailSaid: rejected,
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
