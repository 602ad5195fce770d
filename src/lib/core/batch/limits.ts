/**
 * Where a round's input is cut into files: a provider's Batch API takes at most 50,000 requests
 * and 200 MB a file (OpenAI's limits, which the others with the same API share).
 */
export interface BatchFileLimits {
	/** @default 50_000 */
	maxLines: number;
	/** Bytes of one file, newlines included. @default 200 MB (200 × 1000 × 1000) */
	maxBytes: number;
}

export const DEFAULT_BATCH_LIMITS: Readonly<BatchFileLimits> = {
	maxLines: 50_000,
	maxBytes: 200_000_000
};
