/**
 * What every stage works with: one run, its prompts and settings, and three helpers — fill a
 * template, call a role, save a record. Keeping these in one place is what keeps the stages
 * short and every call made the same way (one user message, the role's temperature).
 */
import type { z } from 'zod';
import { callLogLine } from '../calls/log';
import type { CallLogEntry } from '../calls/schema';
import type { CallLog } from '../calls/types';
import type { Case } from '../dataset/types';
import { ModelCallError } from '../errors';
import { sha256Canonical } from '../hash';
import { stageFilePath, type RunKey } from '../layout';
import { completeJudge } from '../model/output';
import type { AttemptTrace, ChatRequest, ChatResult, ModelClient } from '../model/types';
import { fillTemplate, type SlotValues } from '../prompts/fill';
import type { PromptPack, TemplateName } from '../prompts/pack';
import type { AnyRecord, HistoryType, Role, Settings, StageFile } from '../records';
import { checkRecordToAppend } from '../store/checks';
import { assertKeyFree } from '../store/key-free';
import type { CheckpointStore } from '../store/types';
import type { RunProgress } from './progress';
import type { StageName } from './types';

/** Where in a case a call belongs, for the call log: the history, or the round it serves. */
export interface CallMeta {
	historyType?: HistoryType;
	round?: number;
}

/** The role that answers each task (SPEC §2). */
const ROLE_OF: Record<TemplateName, Role> = {
	lexawn: 'evaluated',
	force_ask: 'evaluated',
	force_judge: 'evaluated',
	user_standard: 'user',
	judge_lca: 'judge',
	judge_dcg: 'judge',
	judge_extract: 'judge'
};

export interface StageContext {
	run: RunKey;
	store: CheckpointStore;
	pack: PromptPack;
	settings: Settings;
	models: Record<Role, string>;
	progress: RunProgress;
	signal?: AbortSignal;
	/** The stage this context's calls are logged under (`forStage`). */
	stage: StageName | null;
	/** The same context, its calls logged under `stage`. */
	forStage(stage: StageName): StageContext;
	/** Fills a template of the run's pack. */
	fill(task: TemplateName, values: SlotValues): string;
	/** Sends a filled prompt to the role that answers `task`. */
	call(task: TemplateName, prompt: string, kase: Case, meta?: CallMeta): Promise<ChatResult>;
	/** Sends a filled judge prompt and returns its validated JSON, re-asking when invalid. */
	judge<S extends z.ZodType>(
		task: TemplateName,
		prompt: string,
		kase: Case,
		schema: S,
		meta?: CallMeta
	): Promise<z.output<S>>;
	/** Validates a record against its file's schema, checks it holds no key, and appends it. */
	save(file: StageFile, record: AnyRecord): Promise<void>;
	/**
	 * `input_sha256` of the record `identity` of `file`: SHA-256 of the canonical JSON of everything
	 * that determines it (`inputs()`), the file, and the sampling settings (temperatures,
	 * max_tokens). Computed once per call of `runStages`: there the case, pack, models and settings
	 * are fixed, and `upstream` (the SHA-256 of each record it builds on, null where none is saved)
	 * names everything else, so a record checked at resume, generated, or checked again by a later
	 * stage is hashed once. Inputs name the case by the string form of its `case_number`
	 * (`Case.case_number`), whatever JSON type the file gives it: runs saved before records kept
	 * that type hashed the string, so they still match and resume.
	 */
	inputSha256(
		file: StageFile,
		identity: string,
		upstream: readonly (string | null)[],
		inputs: () => Record<string, unknown>
	): Promise<string>;
}

export interface ContextOptions {
	run: RunKey;
	store: CheckpointStore;
	client: ModelClient;
	pack: PromptPack;
	settings: Settings;
	models: Record<Role, string>;
	progress: RunProgress;
	keys: readonly string[];
	signal?: AbortSignal;
	/** Where each call is logged (`calls.jsonl`); none when null. */
	callLog?: CallLog | null;
	/** Told once when the call log cannot be written; the run goes on without it. */
	onCallLogError?: (message: string) => void;
}

/** The case number as the dataset holds it (an integer stays one), when the loader kept it. */
function caseNumberValue(kase: Case): string | number {
	const value = (kase as Case & { case_number_value?: unknown }).case_number_value;
	return typeof value === 'string' || typeof value === 'number' ? value : kase.case_number;
}

function snakeAttempts(attempts: readonly AttemptTrace[]): CallLogEntry['attempts'] {
	return attempts.map((a) => ({
		attempt: a.attempt,
		outcome: a.outcome,
		...(a.status !== undefined ? { status: a.status } : {}),
		...(a.reason !== undefined ? { reason: a.reason.slice(0, 2000) } : {}),
		latency_ms: a.latencyMs,
		...(a.delayMs !== undefined ? { delay_ms: a.delayMs } : {}),
		...(a.rawOutput !== undefined ? { raw_output: a.rawOutput } : {})
	}));
}

export function createContext(options: ContextOptions): StageContext {
	const { run, store, client, pack, settings, models, progress, keys, signal } = options;
	const callLog = options.callLog ?? null;
	// One id per runStages call: lines of a case regenerated by a later resume carry another one.
	const session = globalThis.crypto.randomUUID();
	let seq = 0;
	let logBroken = false;
	const writeLine = async (entry: CallLogEntry) => {
		if (!callLog || logBroken) return;
		try {
			await callLog.appendCall(run, callLogLine(entry, keys));
		} catch (e) {
			// A log, not a checkpoint: the run's records do not depend on it.
			logBroken = true;
			options.onCallLogError?.(
				`the call log of ${run.runId}/${run.modelDir} could not be written (${(e as Error).message}); ` +
					'the run goes on, later calls are not logged'
			);
		}
	};
	/** Makes the call and builds its log line; a failed call is logged before its error goes on. */
	const traced = async (
		req: ChatRequest,
		stage: StageName | null,
		meta: CallMeta | undefined
	): Promise<{ result: ChatResult; entry: CallLogEntry | null }> => {
		const mySeq = seq++;
		const started = Date.now();
		const base = () => ({
			session,
			seq: mySeq,
			started_at: new Date(started).toISOString(),
			role: req.role,
			stage: stage ?? 'gen',
			task: req.task,
			case_number: caseNumberValue(kaseOf.get(req)!),
			...(meta?.historyType ? { history_type: meta.historyType } : {}),
			...(meta?.round !== undefined ? { round: meta.round } : {}),
			model: models[req.role],
			prompt: req.prompt
		});
		let result: ChatResult;
		try {
			result = await client.complete(req);
		} catch (e) {
			if (callLog && stage) {
				const details = e instanceof ModelCallError ? e.details : {};
				const latency = Date.now() - started;
				const attempts = details.attempts?.length
					? snakeAttempts(details.attempts as AttemptTrace[])
					: [{ attempt: 1, outcome: details.kind ?? 'error', latency_ms: latency }];
				await writeLine({
					...base(),
					response: null,
					reasoning: null,
					finish_reason: null,
					usage: null,
					latency_ms: latency,
					retries: Math.max(0, attempts.length - 1),
					attempts,
					error: {
						kind: details.kind ?? 'error',
						...(details.status !== undefined ? { status: details.status } : {}),
						message: (e as Error).message
					}
				});
			}
			throw e;
		}
		progress.call(req.role, result.usage);
		if (!callLog || !stage) return { result, entry: null };
		const latency = Date.now() - started;
		const attempts = result.attempts?.length
			? snakeAttempts(result.attempts)
			: [{ attempt: 1, outcome: 'ok', latency_ms: latency }];
		const entry: CallLogEntry = {
			...base(),
			response: result.response,
			reasoning: result.reasoning,
			...(result.rawContent !== undefined ? { raw_content: result.rawContent } : {}),
			finish_reason: result.finishReason,
			usage: result.usage
				? {
						prompt: result.usage.promptTokens,
						completion: result.usage.completionTokens,
						...(result.usage.reasoningTokens !== undefined
							? { reasoning: result.usage.reasoningTokens }
							: {})
					}
				: null,
			latency_ms: latency,
			retries: Math.max(0, attempts.length - 1),
			attempts,
			error: null
		};
		return { result, entry };
	};
	// The case of each request, for the log line (requests are made here, one object per call).
	const kaseOf = new WeakMap<ChatRequest, Case>();
	const request = (task: TemplateName, prompt: string, kase: Case): ChatRequest => {
		const role = ROLE_OF[task];
		const req: ChatRequest = {
			role,
			task,
			prompt,
			temperature: role === 'judge' ? settings.judge_temperature : settings.temperature,
			maxTokens: settings.max_tokens,
			caseNumber: kase.case_number,
			signal
		};
		kaseOf.set(req, kase);
		return req;
	};
	const hashes = new Map<string, Promise<string>>();
	const make = (stage: StageName | null): StageContext => ({
		run,
		store,
		pack,
		settings,
		models,
		progress,
		signal,
		stage,
		forStage: (next) => make(next),
		fill: (task, values) => fillTemplate(pack, task, values),
		// Counts every answer, re-asked judge outputs included, so tokens add up to the bill.
		async call(task, prompt, kase, meta) {
			const { result, entry } = await traced(request(task, prompt, kase), stage, meta);
			if (entry) await writeLine(entry);
			return result;
		},
		async judge(task, prompt, kase, schema, meta) {
			// An ask's line waits until its output is checked, so a re-asked one says why.
			let pending: CallLogEntry | null = null;
			const flush = async () => {
				const entry = pending;
				pending = null;
				if (entry) await writeLine(entry);
			};
			const asking: ModelClient = {
				simulated: client.simulated,
				async complete(req) {
					await flush();
					const { result, entry } = await traced(req, stage, meta);
					pending = entry;
					return result;
				}
			};
			try {
				const { value } = await completeJudge(asking, request(task, prompt, kase), schema, {
					onInvalid: ({ error }) => {
						progress.noteRetry();
						if (pending) pending.judge_invalid = error;
					}
				});
				await flush();
				return value;
			} catch (e) {
				if (pending && e instanceof ModelCallError && e.details.kind === 'invalid_output') {
					(pending as CallLogEntry).judge_invalid = e.message;
				}
				await flush();
				throw e;
			}
		},
		async save(file, record) {
			const label = stageFilePath(run, file);
			checkRecordToAppend(file, record, label);
			assertKeyFree(record, keys, `the ${file} record of case_number ${record.case_number}`);
			await store.appendRecord(run, file, record);
		},
		inputSha256: (file, identity, upstream, inputs) => {
			const key = JSON.stringify([file, identity, upstream]);
			let hash = hashes.get(key);
			if (!hash) {
				// Only what shapes a model's output; retries and timeout change how, not what.
				const { temperature, judge_temperature, max_tokens } = settings;
				hash = sha256Canonical({
					...inputs(),
					file,
					sampling: { temperature, judge_temperature, max_tokens }
				});
				hashes.set(key, hash);
			}
			return hash;
		}
	});
	return make(null);
}
