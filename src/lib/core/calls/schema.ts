/**
 * The call log (`runs/<run-id>/<model>/calls.jsonl`): one line per model call, kept beside the
 * canonical files but not one of them. Records never name it, `input_sha256` never hashes it,
 * and a run without it scores the same. Declared once here; every writer and reader (engine,
 * stores, bundles, results, Inspect) goes through this schema.
 */
import { z } from 'zod';
import { TEMPLATE_NAMES } from '../prompts/slots';
import { STAGE_NAMES } from '../protocol';
import { ROLES } from '../record-names';

/** `case_number` as the dataset holds it: a string or an integer (PROTOCOL.md §5). */
const CaseNumberValue = z.union([z.string().min(1), z.number().int()]);

/** The stages of PROTOCOL.md §4 (and `lca`). */
export const CallStage = z.enum(STAGE_NAMES);

/** The prompts of the pack, as `Task` of the model client. */
export const CallTask = z.enum(TEMPLATE_NAMES);

const count = z.number().int().nonnegative();

/** Tokens as the provider reported them; `reasoning` only where it reports them. */
export const CallUsage = z
	.object({ prompt: count, completion: count, reasoning: count.nullable().optional() })
	.loose();
export type CallUsage = z.infer<typeof CallUsage>;

/** One attempt of a call (the client retries a failed one, PROTOCOL.md §3). */
export const CallAttempt = z
	.object({
		/** 1-based. */
		attempt: z.number().int().min(1),
		/** `ok`, or the kind of failure (`rate_limit`, `server`, `timeout`, `invalid_output`, …). */
		outcome: z.string().max(40),
		status: z.number().int().nullable().optional(),
		/** Why it failed, as the retry log says it (key redacted). */
		reason: z.string().max(2000).nullable().optional(),
		latency_ms: z.number().nonnegative(),
		/** Wait before the next attempt. */
		delay_ms: z.number().nonnegative().nullable().optional(),
		/** The unusable output of an empty, cut-off or malformed completion. */
		raw_output: z.string().nullable().optional()
	})
	.loose();
export type CallAttempt = z.infer<typeof CallAttempt>;

/**
 * One model call. `session` names the `runStages` call that made it and `seq` its place there,
 * so lines of a case regenerated after an interruption are told apart from the later ones
 * (same case, stage and task; another session or a later `started_at`).
 */
export const CallLogEntry = z
	.object({
		session: z.string().min(1).max(64),
		seq: count,
		/** ISO time the call was made (before the first attempt). */
		started_at: z.string().min(1).max(40),
		role: z.enum(ROLES),
		stage: CallStage,
		task: CallTask,
		case_number: CaseNumberValue,
		history_type: z.enum(['complete', 'underspecified']).nullable().optional(),
		/** The interaction or DCG round the call serves, where there is one. */
		round: z.number().int().min(1).max(4).nullable().optional(),
		model: z.string().max(300),
		/** The filled prompt, sent as one user message. */
		prompt: z.string(),
		/** The response as scored (reasoning removed); null when the call failed. */
		response: z.string().nullable(),
		reasoning: z.string().nullable(),
		/** The message content as received, only when it differs from `response` (a `<think>` block). */
		raw_content: z.string().nullable().optional(),
		finish_reason: z.string().max(100).nullable(),
		usage: CallUsage.nullable(),
		/** From the call to its answer, retries and waits included. */
		latency_ms: z.number().nonnegative(),
		/** Further attempts after the first. */
		retries: count,
		attempts: z.array(CallAttempt).max(100),
		/** Set when the call failed for good: what the run reported. */
		error: z
			.object({
				kind: z.string().max(40),
				status: z.number().int().nullable().optional(),
				message: z.string()
			})
			.loose()
			.nullable(),
		/** For a judge: why this output was not valid JSON and the judge was asked again. */
		judge_invalid: z.string().nullable().optional(),
		/** Text fields cut to the per-field bound when written. */
		truncated: z.array(z.string().max(40)).max(10).optional()
	})
	.loose();
export type CallLogEntry = z.infer<typeof CallLogEntry>;

/** The longest line a reader accepts (characters). Writers bound their fields to stay below. */
export const MAX_CALL_LINE_CHARS = 1_000_000;
/** Longest prompt, response, reasoning or raw content a line keeps; longer text is cut and marked. */
export const MAX_CALL_FIELD_CHARS = 200_000;
