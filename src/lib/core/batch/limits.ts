/**
 * Where a round's input is cut into files: a provider's Batch API takes at most 50,000 requests
 * and 200 MB a file (OpenAI's limits, which the others with the same API share), and a provider
 * refuses a batch that would put more tokens in its queue than its enqueued-token limit
 * (`maxTokens`, `--batch-max-tokens`; none by default).
 */
export interface BatchFileLimits {
	/** @default 50_000 */
	maxLines: number;
	/** Bytes of one file, newlines included. @default 200 MB (200 × 1000 × 1000) */
	maxBytes: number;
	/**
	 * Estimated enqueued tokens of one file ({@link enqueuedTokens} of its requests together);
	 * undefined puts no bound. @default undefined
	 */
	maxTokens?: number;
}

export const DEFAULT_BATCH_LIMITS: Readonly<BatchFileLimits> = {
	maxLines: 50_000,
	maxBytes: 200_000_000
};

/**
 * Characters of a prompt counted as one token in the enqueued estimate: 1, about right for
 * Chinese (one character is one token or a little less in the tokenizers of the models run
 * here) and an overestimate for English (about 4 characters a token), so a batch cut by the
 * estimate stays under the provider's count.
 */
export const CHARS_PER_TOKEN = 1;

/**
 * A request's estimated enqueued tokens, as a provider counts them against its limit: the
 * characters of its messages' text / {@link CHARS_PER_TOKEN}, rounded up, plus its `max_tokens`
 * (the most it may answer).
 */
export function enqueuedTokens(body: {
	messages: readonly { content?: unknown }[];
	max_tokens: number;
}): number {
	let chars = 0;
	for (const m of body.messages) if (typeof m.content === 'string') chars += m.content.length;
	return Math.ceil(chars / CHARS_PER_TOKEN) + body.max_tokens;
}
