/**
 * What every stage works with: one run, its prompts and settings, and three helpers — fill a
 * template, call a role, save a record. Keeping these in one place is what keeps the stages
 * short and every call made the same way (one user message, the role's temperature).
 */
import type { z } from 'zod';
import type { Case } from '../dataset/types';
import { sha256Canonical } from '../hash';
import { stageFilePath, type RunKey } from '../layout';
import { completeJudge } from '../model/output';
import type { ChatResult, ModelClient } from '../model/types';
import { fillTemplate, type SlotValues } from '../prompts/fill';
import type { PromptPack, TemplateName } from '../prompts/pack';
import type { AnyRecord, Role, Settings, StageFile } from '../records';
import { checkRecordToAppend } from '../store/checks';
import { assertKeyFree } from '../store/key-free';
import type { CheckpointStore } from '../store/types';
import type { RunProgress } from './progress';

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
	/** Fills a template of the run's pack. */
	fill(task: TemplateName, values: SlotValues): string;
	/** Sends a filled prompt to the role that answers `task`. */
	call(task: TemplateName, prompt: string, kase: Case): Promise<ChatResult>;
	/** Sends a filled judge prompt and returns its validated JSON, re-asking when invalid. */
	judge<S extends z.ZodType>(
		task: TemplateName,
		prompt: string,
		kase: Case,
		schema: S
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
}

export function createContext(options: ContextOptions): StageContext {
	const { run, store, client, pack, settings, models, progress, keys, signal } = options;
	const request = (task: TemplateName, prompt: string, kase: Case) => {
		const role = ROLE_OF[task];
		return {
			role,
			task,
			prompt,
			temperature: role === 'judge' ? settings.judge_temperature : settings.temperature,
			maxTokens: settings.max_tokens,
			caseNumber: kase.case_number,
			signal
		};
	};
	const hashes = new Map<string, Promise<string>>();
	// Counts every answer, re-asked judge outputs included, so tokens add up to the bill.
	const counted: ModelClient = {
		simulated: client.simulated,
		async complete(req) {
			const result = await client.complete(req);
			progress.call(req.role, result.usage);
			return result;
		}
	};
	return {
		run,
		store,
		pack,
		settings,
		models,
		progress,
		signal,
		fill: (task, values) => fillTemplate(pack, task, values),
		call: (task, prompt, kase) => counted.complete(request(task, prompt, kase)),
		async judge(task, prompt, kase, schema) {
			const { value } = await completeJudge(counted, request(task, prompt, kase), schema, {
				onInvalid: () => progress.noteRetry()
			});
			return value;
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
	};
}
