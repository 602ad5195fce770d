/**
 * A round's input files: its pending requests as batch input lines
 * (`{custom_id, method, url, body}`), one group of files per model and endpoint, each group cut
 * at the provider's limits by {@link RoundSplitter} as the lines come, so a round of any size is
 * streamed to its sink and never held whole.
 */
import { endpointKey } from '../names';
import { publicBaseUrl } from '../model/base-url';
import type { PendingRequest } from './client';
import { groupFileBase, roundFileName } from './file-names';
import { DEFAULT_BATCH_LIMITS, enqueuedTokens, type BatchFileLimits } from './limits';
import { RoundSplitter, type LineSink } from './split';
import type { BatchRoundFile } from './store';

/** The one url every request line names (the body is the interactive request's). */
export const BATCH_URL = '/v1/chat/completions';

/** One request's input line, without its newline. */
export function requestLine(r: PendingRequest): string {
	return JSON.stringify({ custom_id: r.customId, method: 'POST', url: BATCH_URL, body: r.body });
}

/** The round's requests by model and endpoint, each group in the order given. */
export function groupRequests(requests: readonly PendingRequest[]): PendingRequest[][] {
	const groups = new Map<string, PendingRequest[]>();
	for (const r of requests) {
		const key = `${endpointKey(r.baseURL)}\0${r.body.model}`;
		const group = groups.get(key);
		if (group) group.push(r);
		else groups.set(key, [r]);
	}
	return [...groups.values()];
}

/**
 * Writes the round's input files through `open(name)` (`name` from `roundFileName`) and returns
 * what each holds; with a token budget (`limits.maxTokens`) a group is cut where the next
 * request's estimated enqueued tokens would pass it. `endpoint` in the result is the public form of the base URL (no key).
 */
export async function writeRoundFiles(
	requests: readonly PendingRequest[],
	round: number,
	open: (name: string) => Promise<LineSink>,
	limits: BatchFileLimits = DEFAULT_BATCH_LIMITS
): Promise<BatchRoundFile[]> {
	const out: BatchRoundFile[] = [];
	for (const group of groupRequests(requests)) {
		const { baseURL, body } = group[0];
		const base = await groupFileBase(baseURL, body.model);
		const splitter = new RoundSplitter((i) => open(roundFileName(round, base, i)), limits);
		const budget = limits.maxTokens !== undefined;
		for (const r of group) await splitter.add(requestLine(r), budget ? enqueuedTokens(r.body) : 0);
		for (const file of await splitter.close()) {
			out.push({
				name: roundFileName(round, base, file.index),
				endpoint: endpointKey(publicBaseUrl(baseURL)),
				model: body.model,
				lines: file.lines,
				bytes: file.bytes
			});
		}
	}
	return out;
}

/**
 * The round's input files as texts (the browser offers them for download), named
 * `round-<n>-<endpoint+model>-<i>.jsonl` (one flat name per file).
 */
export async function roundInputFiles(
	requests: readonly PendingRequest[],
	limits?: BatchFileLimits,
	round = 1
): Promise<{ name: string; endpoint: string; model: string; text: string }[]> {
	const texts = new Map<string, string[]>();
	const open = async (name: string): Promise<LineSink> => {
		const lines: string[] = [];
		texts.set(name, lines);
		return { write: async (line) => void lines.push(line), close: async () => {} };
	};
	const files = await writeRoundFiles(requests, round, open, limits);
	return files.map((f) => ({
		name: f.name.replace('/', '-'),
		endpoint: f.endpoint,
		model: f.model,
		text: texts.get(f.name)!.join('')
	}));
}
