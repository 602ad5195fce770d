/**
 * Sending a round through a provider's Batch API (`/v1/files` + `/v1/batches`) with the `openai`
 * SDK: one input file per model and endpoint (cut at the provider's limits), uploaded, made a
 * batch with a 24h window (each batch id told to the caller at once, to be saved), polled with
 * backoff by the saved ids, its output and error files read by {@link BatchOutputReader}. An
 * expired, failed or cancelled batch answers what it answered; the rest fail and are retried in a
 * later round. Same keys, base URLs and retry policy as interactive calls (`withRetries`).
 *
 * The provider is as untrusted as any model endpoint (SECURITY.md): every call goes through the
 * interactive client's `boundedFetch`, so a redirect is followed only within the base URL's
 * origin (a round's case histories never go to a server the settings do not name, and no answer
 * is read from one), and every body is bounded: an output or error file to its lines × the answer
 * bound ({@link downloadBytes}) as inflated, a line at a time (one past its bound is a failed
 * attempt). What the provider says is kept bounded and escaped wherever it is shown.
 */
import OpenAI, { APIConnectionError, APIError } from 'openai';
import { CheckpointError, ModelCallError, UsageError } from '../errors';
import { publicBaseUrl } from '../model/base-url';
import { coded } from '../said';
import { english } from '../voice';
import { abortableSleep } from '../model/abortable';
import {
	ANSWER_MARGIN_BYTES,
	BodyTooLarge,
	boundedFetch,
	maxAnswerBytes,
	sizeText
} from '../model/bounded-fetch';
import { RedirectRefused } from '../model/redirect';
import { classifyError, providerMessage, withRetries, type RetryPolicy } from '../model/retry';
import { clipText, QUOTED_CHARS } from '../text/clip';
import { escapeControl } from '../text/escape-control';
import { openaiSdk } from '../model/sdk';
import type { RoleEndpoint } from '../model/types';
import { endpointKey, type RunKey } from '../names';
import type { Role } from '../records';
import { runHash } from './custom-id';
import { BATCH_URL, writeRoundFiles } from './input-files';
import type { BatchFileLimits } from './limits';
import { BatchOutputReader, type BatchAnswer } from './output';
import type { PendingRequest } from './client';
import type { RoundSender } from './sender';
import type { LineSink } from './split';
import { groupOf, uploadRound, type Uploader } from './uploads';
import { reasonsText, type BatchRoundFile } from './store';

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
/** Characters of a provider's status kept (the saved state's bound). */
const STATUS_CHARS = 64;
/** Characters of a provider's id kept: a longer one cannot be saved, and is refused. */
const ID_CHARS = 256;
/** Errors of a failed batch kept (`errors.data`), each message clipped to `QUOTED_CHARS`. */
export const KEPT_ERRORS = 5;

/**
 * The most of a batch's output or error file that is read: its `lines` × (the answer bound of
 * the largest `max_tokens` asked + 64 KiB for the line's envelope). An honest file is far
 * below it (an answer within the bound is a few KB of JSON); a provider that ignored
 * `max_tokens`, or a gzip that inflates without end, stops there instead of filling memory.
 */
export function downloadBytes(lines: number, maxTokens: number): number {
	return Math.max(1, lines) * (maxAnswerBytes(maxTokens) + ANSWER_MARGIN_BYTES);
}

export function providerSender(options: ProviderSendOptions): RoundSender {
	const sdks = new Map<string, OpenAI>();
	/** The bound of each file being downloaded, by its id (`GET …/files/{id}/content`). */
	const downloads = new Map<string, number>();
	const fetchImpl = boundedFetch(
		options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
		{
			otherBodyBytes: (url) => {
				const id = /\/files\/([^/]+)\/content$/.exec(url.pathname)?.[1];
				return id === undefined ? undefined : downloads.get(decodeURIComponent(id));
			}
		}
	);
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
			sdk = openaiSdk(ep, { maxRetries: 0, fetch: fetchImpl });
			sdks.set(id, sdk);
		}
		return sdk;
	};
	/**
	 * One call to the provider (`step`, as `POST /files`) under the model client's retry policy;
	 * a redirect it refused is not tried again, and a failure ends as a {@link ModelCallError}
	 * whose message quotes the provider escaped and clipped.
	 */
	const retrying = async <T>(step: string, call: () => Promise<T>, signal?: AbortSignal) => {
		let got: { value: T } | { refused: RedirectRefused };
		try {
			got = await withRetries(
				async () => {
					try {
						return { value: await call() };
					} catch (e) {
						// Not tried again: the next try would be refused the same way.
						if (e instanceof APIConnectionError && e.cause instanceof RedirectRefused)
							return { refused: e.cause };
						throw e;
					}
				},
				signal,
				options.retry
			);
		} catch (e) {
			if (signal?.aborted) throw e;
			throw providerError(step, e);
		}
		if ('refused' in got) throw providerError(step, got.refused);
		return got.value;
	};

	const uploader: Uploader = {
		files: (file) => sdkOf(endpointOf(file)).files,
		retrying,
		providerId
	};

	return {
		mode: 'provider',
		async send(requests, round, signal, onFiles, earlier = []) {
			const texts = new Map<string, string[]>();
			const open = async (name: string): Promise<LineSink> => {
				const lines: string[] = [];
				texts.set(name, lines);
				return { write: async (line) => void lines.push(line), close: async () => {} };
			};
			// Each role's requests go to that role's endpoint as this sender knows it (with its key).
			const routed = requests.map((r) => ({ ...r, baseURL: options.endpoints[r.role].baseURL }));
			const files = await writeRoundFiles(routed, round, open, options.limits);
			// Every file uploaded first (uploads cost nothing; `uploads.ts`), then each batch made
			// and saved at once; a crash between the two is found again by `collect`.
			const sent = await uploadRound(files, texts, earlier, uploader, signal, onFiles);
			const told = () => onFiles?.(sent.map((f) => ({ ...f })));
			// Under a token budget a model's batches go one at a time: the next is made by
			// `collect` when the one before is done, so the provider's queue holds one budget.
			const made = new Set<string>();
			for (const file of sent) {
				if (options.limits?.maxTokens !== undefined && made.has(groupOf(file))) continue;
				made.add(groupOf(file));
				const batch = await createBatch(file.file_id!, file, signal);
				Object.assign(file, {
					batch_id: providerId(batch.id, 'POST /batches'),
					status: statusOf(batch.status)
				});
				await told();
			}
			return sent;
		},

		async collect(round, pending, signal, onPoll) {
			const reader = new BatchOutputReader(
				new Map(pending.map((p) => [p.customId, p.body.max_tokens])),
				await runHash(options.run)
			);
			const files = round.files.map((f) => ({ ...f }));
			const out: BatchAnswer[] = [];
			const maxTokens = pending.reduce((most, p) => Math.max(most, p.body.max_tokens), 1);
			/** Files whose requests failed unanswered (too large to read, a failed batch), and why. */
			const unread: { file: BatchRoundFile; code: string; message: string }[] = [];
			/** Polls one file's batch (made now if it was not) and reads its output and error files. */
			const collectFile = async (file: BatchRoundFile) => {
				if (!file.file_id) return;
				const sdk = sdkOf(endpointOf(file));
				if (!file.batch_id) {
					// Uploaded, and perhaps made a batch the saved state never heard of.
					file.batch_id = providerId(
						(await retrying('GET /batches', () => findBatch(sdk, file.file_id!), signal)) ??
							(await createBatch(file.file_id, file, signal)).id,
						'GET /batches'
					);
					onPoll?.(files.map((f) => ({ ...f })));
				}
				const done = await poll(sdk, file.batch_id!, signal, (batch) => {
					Object.assign(file, polledFields(batch));
					onPoll?.(files.map((f) => ({ ...f })));
				});
				// A batch that failed (validation, a token limit) answers nothing: its requests
				// carry the provider's reasons, not a bare "no answer".
				const reasons = reasonsText(file);
				if (reasons) unread.push({ file, code: 'batch_failed', message: reasons });
				for (const id of [done.output_file_id, done.error_file_id]) {
					if (!id) continue;
					const limit = downloadBytes(file.lines, maxTokens);
					const step = `GET /files/${id}/content`;
					downloads.set(id, limit);
					try {
						// Read a line at a time as it arrives (a try that breaks off leaves the
						// reader as it was, so the next try reads the file from its start).
						const got = await retrying(
							step,
							async () => {
								try {
									const response = await sdk.files.content(id);
									const name = `${done.id}/${id}`;
									return { answers: await reader.read(response.body ?? '', name) };
								} catch (e) {
									// Reading it again would stop at the same byte, or the same bad line.
									if (e instanceof BodyTooLarge) return null;
									if (e instanceof UsageError || e instanceof CheckpointError) return { bad: e };
									throw e;
								}
							},
							signal
						);
						if (got && 'bad' in got) throw got.bad;
						if (got === null) {
							unread.push({
								file,
								code: 'output_too_large',
								message: tooLargeText(id, done.id, limit, file.lines)
							});
							continue;
						}
						out.push(...got.answers);
					} finally {
						downloads.delete(id);
					}
				}
			};
			// Under a token budget a model's files one after another (its next batch made when the
			// one before is done), models side by side; without one, every file at once.
			const groups = new Map<string, BatchRoundFile[]>();
			for (const file of files) {
				const key = options.limits?.maxTokens === undefined ? file.name : groupOf(file);
				groups.set(key, [...(groups.get(key) ?? []), file]);
			}
			await Promise.all(
				[...groups.values()].map(async (group) => {
					for (const file of group) await collectFile(file);
				})
			);
			// The requests a file too large to read would have answered are failed attempts, asked
			// again in the next round, as an answer past its bound is (PROTOCOL.md §3).
			const answered = new Set(out.map((a) => a.customId));
			for (const { file, code, message } of unread) {
				for (const p of pending) {
					if (answered.has(p.customId) || !inFile(p, file)) continue;
					answered.add(p.customId);
					out.push({ customId: p.customId, error: { code, message } });
				}
			}
			return out;
		},

		async cancel(round) {
			await Promise.all(
				round.files.map((f) =>
					f.batch_id
						? retrying('POST /batches/{id}/cancel', () =>
								sdkOf(endpointOf(f)).batches.cancel(f.batch_id!)
							).catch(() => {})
						: null
				)
			);
		}
	};

	function createBatch(fileId: string, file: BatchRoundFile, signal?: AbortSignal) {
		const sdk = sdkOf(endpointOf(file));
		return retrying(
			'POST /batches',
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
		told: (batch: OpenAI.Batches.Batch) => void
	) {
		let wait = options.pollMs ?? 1000;
		let last = '';
		for (;;) {
			signal?.throwIfAborted();
			const batch = await retrying('GET /batches/{id}', () => sdk.batches.retrieve(id), signal);
			const seen = JSON.stringify(polledFields(batch));
			if (seen !== last) {
				last = seen;
				told(batch);
			}
			if (DONE.has(batch.status)) return batch;
			await abortableSleep(wait, signal);
			wait = Math.min(wait * 2, options.maxPollMs ?? 60_000);
		}
	}
}

/** What a poll keeps of a batch for the saved state: each provider string bounded. */
function polledFields(batch: OpenAI.Batches.Batch): Partial<BatchRoundFile> {
	const counts = batch.request_counts;
	const errors = Array.isArray(batch.errors?.data) ? batch.errors.data : [];
	const id = (value: unknown) =>
		typeof value === 'string' && value && value.length <= ID_CHARS ? value : undefined;
	return {
		status: statusOf(batch.status),
		...(counts &&
		[counts.total, counts.completed, counts.failed].every((n) => Number.isSafeInteger(n) && n >= 0)
			? { counts: { total: counts.total, completed: counts.completed, failed: counts.failed } }
			: {}),
		...(id(batch.output_file_id) ? { output_file_id: id(batch.output_file_id) } : {}),
		...(id(batch.error_file_id) ? { error_file_id: id(batch.error_file_id) } : {}),
		...(errors.length > 0
			? {
					errors: errors.slice(0, KEPT_ERRORS).map((e) => ({
						code: typeof e?.code === 'string' ? clipText(e.code, STATUS_CHARS) : null,
						message: typeof e?.message === 'string' ? clipText(e.message, QUOTED_CHARS) : null,
						line: Number.isSafeInteger(e?.line) ? e.line! : null
					})),
					errors_total: errors.length
				}
			: {})
	};
}

/** A provider's status as kept: a string of at most 64 characters (not escaped: shown escaped). */
function statusOf(status: unknown): string {
	return String(status ?? '').slice(0, STATUS_CHARS);
}

/** A provider's id as kept; one too long for the saved state is refused, naming the call. */
function providerId(id: unknown, step: string): string {
	if (typeof id === 'string' && id.length > 0 && id.length <= ID_CHARS) return id;
	const said = coded('batch_provider_id', {
		step,
		length: String(id ?? '').length,
		max: ID_CHARS
	});
	throw new ModelCallError(english(said), { kind: 'server', said: [said] });
}

/** The error a provider call ends with: the step, and what the provider said, escaped and clipped. */
function providerError(step: string, e: unknown): unknown {
	if (e instanceof ModelCallError) return e;
	if (e instanceof RedirectRefused) {
		const said = coded('batch_provider_failed', { step, detail: e.message }, { detail: [e.said] });
		return new ModelCallError(english(said), { kind: 'bad_request', said: [said] });
	}
	if (!(e instanceof APIError)) return e;
	const failure = classifyError(e);
	const words = escapeControl(clipText(providerMessage(e), QUOTED_CHARS));
	const detail = e.status ? `HTTP ${e.status}: ${words}` : words;
	const said = coded('batch_provider_failed', { step, detail });
	return new ModelCallError(english(said), { kind: failure.kind, status: e.status, said: [said] });
}

function tooLargeText(file: string, batch: string, limit: number, lines: number): string {
	return `file ${escapeControl(file)} of batch ${escapeControl(batch)} passed ${sizeText(limit)}, more than its ${lines} lines can hold within the answer bound, and was not read further: its requests count as failed and are asked again`;
}

/** Whether `request` was written to `file` (one group of files per endpoint and model). */
function inFile(request: PendingRequest, file: BatchRoundFile): boolean {
	return (
		request.body.model === file.model &&
		endpointKey(publicBaseUrl(request.baseURL)) === file.endpoint
	);
}
