/**
 * Cuts a round's request lines into batch input files within {@link BatchFileLimits}, as they
 * come: a file is written line by line and a new one started where the next line would pass a
 * limit (lines, bytes, or the estimated enqueued tokens of `--batch-max-tokens`), so a round of
 * any size is never held whole in memory and no batch asks more than the provider queues.
 */
import { UsageError } from '../errors';
import { coded } from '../said';
import { DEFAULT_BATCH_LIMITS, type BatchFileLimits } from './limits';

/** Where one input file's lines go. */
export interface LineSink {
	write(line: string): Promise<void>;
	close(): Promise<void>;
}

/** What was written: lines, bytes and estimated enqueued tokens per file, in order. */
export interface SplitFile {
	index: number;
	lines: number;
	bytes: number;
	tokens: number;
}

const encoder = new TextEncoder();

export class RoundSplitter {
	readonly #limits: BatchFileLimits;
	readonly #open: (index: number) => Promise<LineSink>;
	#sink: LineSink | null = null;
	readonly #files: SplitFile[] = [];

	/** `open(i)` starts the i-th file (0-based). */
	constructor(
		open: (index: number) => Promise<LineSink>,
		limits: BatchFileLimits = DEFAULT_BATCH_LIMITS
	) {
		this.#open = open;
		this.#limits = limits;
	}

	/**
	 * Adds one request line (a JSON object, without its newline) with its estimated enqueued
	 * tokens (`enqueuedTokens` of limits.ts; 0 when no token budget applies).
	 */
	async add(json: string, tokens = 0): Promise<void> {
		const line = `${json}\n`;
		const bytes = encoder.encode(line).length;
		if (bytes > this.#limits.maxBytes) {
			throw new UsageError([
				coded('batch_request_too_large', { bytes, max: this.#limits.maxBytes })
			]);
		}
		const maxTokens = this.#limits.maxTokens ?? Infinity;
		if (tokens > maxTokens) {
			throw new UsageError([coded('batch_request_over_budget', { tokens, max: maxTokens })]);
		}
		let file = this.#files.at(-1);
		if (
			!this.#sink ||
			!file ||
			file.lines + 1 > this.#limits.maxLines ||
			file.bytes + bytes > this.#limits.maxBytes ||
			file.tokens + tokens > maxTokens
		) {
			await this.#sink?.close();
			file = { index: this.#files.length, lines: 0, bytes: 0, tokens: 0 };
			this.#files.push(file);
			this.#sink = await this.#open(file.index);
		}
		await this.#sink.write(line);
		file.lines++;
		file.bytes += bytes;
		file.tokens += tokens;
	}

	/** Closes the last file; returns what every file holds. */
	async close(): Promise<SplitFile[]> {
		await this.#sink?.close();
		this.#sink = null;
		return this.#files.map((f) => ({ ...f }));
	}
}
