/**
 * Sending a round through a provider's Batch API (`/v1/files` + `/v1/batches`) with the `openai`
 * SDK: one input file per model and endpoint (cut at the provider's limits), uploaded, made a
 * batch with a 24h window, polled with backoff, its output and error files downloaded and read
 * by {@link BatchOutputReader}; cancelled when the signal aborts. Same keys and base URLs as the
 * interactive calls.
 */
import OpenAI, { toFile } from 'openai';
import { sdkTarget } from '../model/base-url';
import { NO_KEY } from '../model/openai-client';
import type { RoleEndpoint } from '../model/types';
import type { RunKey } from '../names';
import type { Role } from '../records';
import type { PendingRequest } from './client';
import { runHash } from './custom-id';
import { DEFAULT_BATCH_LIMITS, type BatchFileLimits } from './limits';
import { BatchOutputReader, type BatchAnswer } from './output';
import type { SendRound } from './rounds';
import { RoundSplitter } from './split';

export interface ProviderSendOptions {
	run: RunKey;
	endpoints: Record<Role, RoleEndpoint>;
	signal?: AbortSignal;
	limits?: BatchFileLimits;
	/** First wait between polls; doubles up to `maxPollMs`. @default 1000 */
	pollMs?: number;
	/** @default 60000 */
	maxPollMs?: number;
	/** Told each batch made: its id and input file, for the round's saved state. */
	onBatch?: (batch: { id: string; inputFileId: string; round: number }) => void;
	/** Injectable for tests. @default globalThis.fetch */
	fetch?: typeof fetch;
}

const DONE = new Set(['completed', 'failed', 'expired', 'cancelled']);

export function providerSender(options: ProviderSendOptions): SendRound {
	const sdks = new Map<string, OpenAI>();
	const sdkOf = (ep: RoleEndpoint) => {
		const id = `${ep.baseURL}\0${ep.apiKey}`;
		let sdk = sdks.get(id);
		if (!sdk) {
			const target = sdkTarget(ep.baseURL);
			sdk = new OpenAI({
				baseURL: target.baseURL,
				...(target.defaultQuery ? { defaultQuery: target.defaultQuery } : {}),
				apiKey: ep.apiKey || NO_KEY,
				dangerouslyAllowBrowser: true,
				...(options.fetch ? { fetch: options.fetch } : {})
			});
			sdks.set(id, sdk);
		}
		return sdk;
	};

	return async (requests, round) => {
		const groups = new Map<string, { ep: RoleEndpoint; requests: PendingRequest[] }>();
		for (const r of requests) {
			const ep = options.endpoints[r.role];
			const key = `${ep.baseURL}\0${ep.apiKey}\0${r.body.model}`;
			const group = groups.get(key) ?? { ep, requests: [] };
			group.requests.push(r);
			groups.set(key, group);
		}
		const hash = await runHash(options.run);
		const answers = await Promise.all(
			[...groups.values()].map(async ({ ep, requests }, g) => {
				const sdk = sdkOf(ep);
				const reader = new BatchOutputReader(new Set(requests.map((r) => r.customId)), hash);
				const files = await inputFiles(requests, options.limits ?? DEFAULT_BATCH_LIMITS);
				const out: BatchAnswer[] = [];
				await Promise.all(
					files.map(async (text, i) => {
						const name = `round-${round}-${g}-${i}.jsonl`;
						const file = await sdk.files.create({
							file: await toFile(new TextEncoder().encode(text), name),
							purpose: 'batch'
						});
						const made = await sdk.batches.create({
							input_file_id: file.id,
							endpoint: '/v1/chat/completions',
							completion_window: '24h'
						});
						options.onBatch?.({ id: made.id, inputFileId: file.id, round });
						const done = await poll(sdk, made.id);
						for (const id of [done.output_file_id, done.error_file_id]) {
							if (!id) continue;
							const text = await (await sdk.files.content(id)).text();
							out.push(...reader.read(text, `${done.id}/${id}`));
						}
					})
				);
				return out;
			})
		);
		return answers.flat();
	};

	async function poll(sdk: OpenAI, id: string) {
		let wait = options.pollMs ?? 1000;
		for (;;) {
			if (options.signal?.aborted) {
				await sdk.batches.cancel(id).catch(() => {});
				throw options.signal.reason;
			}
			const batch = await sdk.batches.retrieve(id);
			if (DONE.has(batch.status)) return batch;
			await sleep(wait, options.signal);
			wait = Math.min(wait * 2, options.maxPollMs ?? 60_000);
		}
	}
}

/** The round's request lines for one endpoint, cut into files at the limits. */
async function inputFiles(
	requests: readonly PendingRequest[],
	limits: BatchFileLimits
): Promise<string[]> {
	const files: string[][] = [];
	const splitter = new RoundSplitter(async (i) => {
		files[i] = [];
		return { write: async (line) => void files[i].push(line), close: async () => {} };
	}, limits);
	for (const r of requests) {
		await splitter.add(
			JSON.stringify({
				custom_id: r.customId,
				method: 'POST',
				url: '/v1/chat/completions',
				body: r.body
			})
		);
	}
	await splitter.close();
	return files.map((lines) => lines.join(''));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
	return new Promise((resolve) => {
		const timer = setTimeout(done, ms);
		signal?.addEventListener('abort', done, { once: true });
		function done() {
			clearTimeout(timer);
			signal?.removeEventListener('abort', done);
			resolve();
		}
	});
}
