/**
 * The `ModelClient` of one pass of batch mode (PROTOCOL.md §3, batch mode). A call whose answer
 * came back in an earlier round is checked exactly as the interactive client checks an answer
 * (the same output rules, the same status classification, the same final error); a call whose
 * answer is not known yet becomes a pending request of the next round and rejects with
 * {@link BatchPending}, which parks its task. One client per pass: occurrences are counted from
 * the pass's start, where every parked case is replayed from its start.
 */
import { callError } from '../model/call-error';
import {
	chatBody,
	readCompletion,
	RejectedOutput,
	statusFailure,
	type ChatBody
} from '../model/completion';
import type { ClientFailure } from '../model/failure-message';
import type {
	AttemptTrace,
	ChatRequest,
	ChatResult,
	ModelClient,
	RoleEndpoint
} from '../model/types';
import type { RunKey } from '../names';
import type { Role } from '../records';
import { DEFAULT_SETTINGS } from '../run-config';
import { publicBaseUrl } from '../model/base-url';
import { chainOfPriority } from '../engine/priority';
import { redactKeys } from '../text/redact';
import { customId } from './custom-id';
import { BatchPending } from './pending';

export { BatchPending };
import type { BatchAnswer } from './output';

/** One line of a round's input, before it is written: `{custom_id, method, url, body}`. */
export interface PendingRequest {
	customId: string;
	role: Role;
	/** The endpoint's base URL (one input file per model and endpoint). */
	baseURL: string;
	body: ChatBody;
	/**
	 * The calls of the longest chain this request heads, itself included (`chainAhead` of
	 * `engine/priority.ts`, read from the request's priority), or 0 when the engine gave none:
	 * the rounds its case still needs if no request fails. @default 0
	 */
	chain?: number;
}

export interface BatchClientOptions {
	run: RunKey;
	/** Every answer read so far, by custom_id. */
	answers: ReadonlyMap<string, BatchAnswer>;
	/**
	 * Whether an answer came back in the round this pass follows: a call ending on an older one
	 * was logged by an earlier pass and is marked `replayed`. @default every answer is new
	 */
	fresh?: (customId: string) => boolean;
	/** Further attempts after a retryable failure, each in a later round. @default DEFAULT_SETTINGS.retries */
	retries?: number;
	/** Per-attempt timeout of the run, for the words of a final timeout. @default DEFAULT_SETTINGS.timeout_s × 1000 */
	timeoutMs?: number;
	/**
	 * Whether a failure that would end a call for good was already reported by an earlier start
	 * (`rounds.ts`): the call is asked again, with the attempts of a fresh start, as an interactive
	 * rerun asks again what failed. @default never
	 */
	askAgain?: (customId: string) => boolean;
}

export interface BatchClient extends ModelClient {
	/**
	 * The requests this pass could not answer, longest chain first, then by custom_id: the order
	 * they are asked in varies with timing, this one does not, so a pass that asks a round again
	 * (after a restart, a reload) writes the same bytes as the round sent.
	 */
	readonly pending: readonly PendingRequest[];
	/** Calls started and not yet settled. */
	readonly inFlight: number;
}

export function createBatchClient(
	endpoints: Record<Role, RoleEndpoint>,
	options: BatchClientOptions
): BatchClient {
	const retries = options.retries ?? DEFAULT_SETTINGS.retries;
	const timeoutMs = options.timeoutMs ?? DEFAULT_SETTINGS.timeout_s * 1000;
	const occurrences = new Map<string, number>();
	const pending: PendingRequest[] = [];
	let inFlight = 0;
	const replayed = (id: string) => (options.fresh && !options.fresh(id) ? { replayed: true } : {});

	async function complete(request: ChatRequest): Promise<ChatResult> {
		// Counted before anything awaits: the order of a case's calls is the order they are asked.
		const same = [request.stage, request.caseNumber, request.task, request.prompt].join('\0');
		const occurrence = occurrences.get(same) ?? 0;
		occurrences.set(same, occurrence + 1);
		inFlight++;
		try {
			return await answer(request, occurrence);
		} finally {
			inFlight--;
		}
	}

	async function answer(request: ChatRequest, occurrence: number): Promise<ChatResult> {
		const ep = endpoints[request.role];
		if (request.stage === undefined) throw new Error('a batch call needs its stage');
		let trace: AttemptTrace[] = [];
		// The first attempt of this start's tries: a failure reported before starts them again.
		let first = 1;
		for (let attempt = 1; ; attempt++) {
			const id = await customId({
				run: options.run,
				stage: request.stage,
				caseNumber: request.caseNumber,
				task: request.task,
				prompt: request.prompt,
				occurrence,
				attempt
			});
			const known = options.answers.get(id);
			if (!known) {
				pending.push({
					customId: id,
					role: request.role,
					baseURL: ep.baseURL,
					body: chatBody(ep.model, request),
					...(request.priority === undefined ? {} : { chain: chainOfPriority(request.priority) })
				});
				throw new BatchPending(id);
			}
			const checked = check(known, request.maxTokens);
			if ('result' in checked) {
				trace.push({ attempt: attempt - first + 1, outcome: 'ok', latencyMs: 0 });
				return { ...checked.result, attempts: trace, ...replayed(id) };
			}
			const f = checked.failure;
			const redact = (text: string) => redactKeys(text, [ep.apiKey]);
			trace.push({
				attempt: attempt - first + 1,
				outcome: f.kind,
				status: f.status,
				reason: redact(f.detail),
				latencyMs: 0,
				rawOutput: f.rawOutput === undefined ? undefined : redact(f.rawOutput)
			});
			if (!f.retryable || attempt >= first + retries) {
				if (options.askAgain?.(id)) {
					[first, trace] = [attempt + 1, []];
					continue;
				}
				const context = {
					caseNumber: request.caseNumber,
					role: request.role,
					model: ep.model,
					baseURL: publicBaseUrl(ep.baseURL, [ep.apiKey]),
					attempts: attempt - first + 1,
					maxTokens: request.maxTokens,
					timeoutMs
				};
				const error = callError(f, context, request, trace, ep.apiKey);
				Object.assign(error.details, replayed(id));
				throw error;
			}
		}
	}

	return {
		complete,
		simulated: false,
		get pending() {
			return [...pending].sort(roundOrder);
		},
		get inFlight() {
			return inFlight;
		}
	};
}

/** A round's order: the longest chain first (its next round is sooner due), then by custom_id. */
function roundOrder(a: PendingRequest, b: PendingRequest): number {
	const chain = (b.chain ?? 0) - (a.chain ?? 0);
	if (chain !== 0) return chain;
	return a.customId < b.customId ? -1 : a.customId > b.customId ? 1 : 0;
}

/** One answer as the interactive client would take it: a result, or the failure it stands for. */
function check(
	known: BatchAnswer,
	maxTokens: number
): { result: ChatResult } | { failure: ClientFailure } {
	if ('error' in known) {
		const words = [known.error.code, known.error.message].filter(Boolean).join(': ');
		return {
			failure: { kind: 'server', retryable: true, detail: words || 'the batch gave no answer' }
		};
	}
	if (known.status < 200 || known.status >= 300)
		return { failure: statusFailure(known.status, known.body) };
	try {
		return { result: readCompletion(known.body, maxTokens) };
	} catch (e) {
		if (e instanceof RejectedOutput) return { failure: e.failure };
		throw e;
	}
}
