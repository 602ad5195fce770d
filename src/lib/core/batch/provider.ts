/**
 * Sending a round through a provider's Batch API (`/v1/files` + `/v1/batches`) with the `openai`
 * SDK: one input file per model and endpoint (cut at the provider's limits), uploaded, made a
 * batch with a 24h window (each batch id told to the caller at once, to be saved), polled with
 * backoff by the saved ids, its output and error files downloaded and read by
 * {@link BatchOutputReader}. An expired, failed or cancelled batch answers what it answered; the
 * rest count as failed and are retried in a later round. Same keys and base URLs as the
 * interactive calls, and the same retry policy (`withRetries` of `../model/retry.ts`; the SDK's
 * own retries are off).
 */
import OpenAI, { toFile } from 'openai';
import { UsageError } from '../errors';
import { publicBaseUrl } from '../model/base-url';
import { coded } from '../said';
import { abortableSleep } from '../model/abortable';
import { withRetries, type RetryPolicy } from '../model/retry';
import { openaiSdk } from '../model/sdk';
import type { RoleEndpoint } from '../model/types';
import { endpointKey, type RunKey } from '../names';
import type { Role } from '../records';
import { runHash } from './custom-id';
import { BATCH_URL, writeRoundFiles } from './input-files';
import type { BatchFileLimits } from './limits';
import { BatchOutputReader, type BatchAnswer } from './output';
import type { RoundSender } from './sender';
import type { LineSink } from './split';
import type { BatchRoundFile } from './store';

export interface ProviderSendOptions {
	run: RunKey;
	endpoints: Record<Role, RoleEndpoint>;
	limits?: BatchFileLimits;
	/** First wait between polls; doubles up to `maxPollMs`. @default 1000 */
	pollMs?: number;
	/** @default 60000 */
	maxPollMs?: number;
	/** How each call to the provider is retried. @default the model client's policy */
	retry?: RetryPolicy;
	/** Injectable for tests. @default globalThis.fetch */
	fetch?: typeof fetch;
}

const DONE = new Set(['completed', 'failed', 'expired', 'cancelled']);

export function providerSender(options: ProviderSendOptions): RoundSender {
	const sdks = new Map<string, OpenAI>();
	/** The role endpoint (with its key) of a file, by the public base URL and model it names. */
	const endpointOf = (file: { endpoint: string; model: string }): RoleEndpoint => {
		const all = Object.values(options.endpoints);
		const same = all.filter((e) => endpointKey(publicBaseUrl(e.baseURL)) === file.endpoint);
		const ep = same.find((e) => e.model === file.model) ?? same[0];
		if (!ep) throw new UsageError([coded('batch_no_endpoint', { endpoint: file.endpoint })]);
		return ep;
	};
	const sdkOf = (ep: RoleEndpoint) => {
		const id = `${ep.baseURL}\0${ep.apiKey}`;
		let sdk = sdks.get(id);
		if (!sdk) {
			sdk = openaiSdk(ep, { maxRetries: 0, ...(options.fetch ? { fetch: options.fetch } : {}) });
			sdks.set(id, sdk);
		}
		return sdk;
	};
	/** One call to the provider under the model client's retry policy. */
	const retrying = <T>(call: () => Promise<T>, signal?: AbortSignal) =>
		withRetries(call, signal, options.retry);

	return {
		mode: 'provider',
		async send(requests, round, signal, onFiles) {
			const texts = new Map<string, string[]>();
			const open = async (name: string): Promise<LineSink> => {
				const lines: string[] = [];
				texts.set(name, lines);
				return { write: async (line) => void lines.push(line), close: async () => {} };
			};
			// Each role's requests go to that role's endpoint as this sender knows it (with its key).
			const routed = requests.map((r) => ({ ...r, baseURL: options.endpoints[r.role].baseURL }));
			const files = await writeRoundFiles(routed, round, open, options.limits);
			// Every file uploaded first (uploads cost nothing and are saved together), then each
			// batch made and saved at once; a crash between the two is found again by `collect`.
			const sent: BatchRoundFile[] = [];
			for (const file of files) {
				signal?.throwIfAborted();
				const text = texts.get(file.name)!.join('');
				texts.delete(file.name);
				const bytes = new TextEncoder().encode(text);
				const uploaded = await retrying(
					async () =>
						sdkOf(endpointOf(file)).files.create({
							file: await toFile(bytes, file.name.replace('/', '-')),
							purpose: 'batch'
						}),
					signal
				);
				sent.push({ ...file, file_id: uploaded.id });
			}
			await onFiles?.(sent.map((f) => ({ ...f })));
			for (const file of sent) {
				const made = await createBatch(file.file_id!, file, signal);
				Object.assign(file, { batch_id: made.id, status: made.status });
				await onFiles?.(sent.map((f) => ({ ...f })));
			}
			return sent;
		},

		async collect(round, pending, signal, onPoll) {
			const reader = new BatchOutputReader(
				new Set(pending.map((p) => p.customId)),
				await runHash(options.run)
			);
			const files = round.files.map((f) => ({ ...f }));
			const out: BatchAnswer[] = [];
			await Promise.all(
				files.map(async (file) => {
					if (!file.file_id) return;
					const sdk = sdkOf(endpointOf(file));
					if (!file.batch_id) {
						// Uploaded, and perhaps made a batch the saved state never heard of.
						file.batch_id =
							(await retrying(() => findBatch(sdk, file.file_id!), signal)) ??
							(await createBatch(file.file_id, file, signal)).id;
						onPoll?.(files.map((f) => ({ ...f })));
					}
					const done = await poll(sdk, file.batch_id!, signal, (status) => {
						file.status = status;
						onPoll?.(files.map((f) => ({ ...f })));
					});
					for (const id of [done.output_file_id, done.error_file_id]) {
						if (!id) continue;
						const text = await retrying(async () => (await sdk.files.content(id)).text(), signal);
						out.push(...reader.read(text, `${done.id}/${id}`));
					}
				})
			);
			return out;
		},

		async cancel(round) {
			await Promise.all(
				round.files.map((f) =>
					f.batch_id
						? retrying(() => sdkOf(endpointOf(f)).batches.cancel(f.batch_id!)).catch(() => {})
						: null
				)
			);
		}
	};

	function createBatch(fileId: string, file: BatchRoundFile, signal?: AbortSignal) {
		const sdk = sdkOf(endpointOf(file));
		return retrying(
			() =>
				sdk.batches.create({
					input_file_id: fileId,
					endpoint: BATCH_URL,
					completion_window: '24h'
				}),
			signal
		);
	}

	/** The id of the batch made of an uploaded input file, among the latest 1,000, or null. */
	async function findBatch(sdk: OpenAI, fileId: string): Promise<string | null> {
		let seen = 0;
		for await (const batch of sdk.batches.list({ limit: 100 })) {
			if (batch.input_file_id === fileId) return batch.id;
			if (++seen >= 1000) break;
		}
		return null;
	}

	async function poll(
		sdk: OpenAI,
		id: string,
		signal: AbortSignal | undefined,
		told: (s: string) => void
	) {
		let wait = options.pollMs ?? 1000;
		let last = '';
		for (;;) {
			signal?.throwIfAborted();
			const batch = await retrying(() => sdk.batches.retrieve(id), signal);
			if (batch.status !== last) told((last = batch.status));
			if (DONE.has(batch.status)) return batch;
			await abortableSleep(wait, signal);
			wait = Math.min(wait * 2, options.maxPollMs ?? 60_000);
		}
	}
}
