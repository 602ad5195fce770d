/**
 * `--batch provider|files`, `--batch-dir D` and `--batch-max-tokens N` of `run` and
 * `batch import` (docs/BATCH.md).
 */
import { join, resolve } from 'node:path';
import { DEFAULT_BATCH_LIMITS, type BatchFileLimits } from '../../lib/core/batch/limits';
import type { BatchSendMode } from '../../lib/core/batch/store';
import { UsageError } from '../../lib/core/errors';
import { escapeControl } from '../../lib/core/text/escape-control';

export const BATCH_OPTIONS = {
	batch: { type: 'string' },
	'batch-dir': { type: 'string' },
	'batch-max-tokens': { type: 'string' }
} as const;

/** The bounds of `--batch-max-tokens`. */
const MIN_BATCH_TOKENS = 1_000;
const MAX_BATCH_TOKENS = 10_000_000_000;

/** Exit code of a run whose round is out, waiting for its outputs (files mode). */
export const EXIT_WAITING = 3;

/** The folder under the output root where files mode writes rounds by default. */
export const DEFAULT_BATCH_DIR = 'batch-rounds';

export const BATCH_HELP = `Batch mode (see docs/BATCH.md):
  --batch provider|files   send each round of calls as a batch: provider uploads it to the
                           endpoints' Batch API (/v1/files + /v1/batches) and polls it;
                           files writes it as JSONL input files for vllm run-batch or a
                           Ray Data LLM job and exits ${EXIT_WAITING} (import the outputs with
                           "lexpilot batch import"); the same command again continues;
                           with a plan, every run of it (one import for all)
  --batch-dir D            where files mode writes rounds, as D/<run-id>/<model>/round-N/
                           [<output root>/${DEFAULT_BATCH_DIR}]
  --batch-max-tokens N     cut each round into batches of at most N estimated enqueued
                           tokens (a prompt's characters + its max_tokens), under the
                           provider's enqueued-token limit; provider mode makes a model's
                           next batch when the one before is done [no budget]`;

/** The mode asked for, or null without `--batch`. */
export function batchMode(raw: string | undefined): BatchSendMode | null {
	if (raw === undefined) return null;
	if (raw === 'provider' || raw === 'files') return raw;
	throw new UsageError(
		`--batch: ${escapeControl(JSON.stringify(raw.slice(0, 40)))} is not a mode; use provider or files`
	);
}

/** The batch folder: `--batch-dir` from the user's directory, or under the output root. */
export function batchFolder(raw: string | undefined, outputRoot: string, cwd: string): string {
	return raw === undefined ? join(outputRoot, DEFAULT_BATCH_DIR) : resolve(cwd, raw);
}

/**
 * The input-file limits with `--batch-max-tokens` (a whole number of tokens from 1,000 to
 * 10,000,000,000), or undefined without it.
 */
export function batchLimits(raw: string | undefined): BatchFileLimits | undefined {
	if (raw === undefined) return undefined;
	const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
	if (!Number.isSafeInteger(n) || n < MIN_BATCH_TOKENS || n > MAX_BATCH_TOKENS) {
		throw new UsageError(
			`--batch-max-tokens: ${escapeControl(JSON.stringify(raw.slice(0, 40)))} is not a budget; give a whole number of tokens from 1000 to 10000000000`
		);
	}
	return { ...DEFAULT_BATCH_LIMITS, maxTokens: n };
}
