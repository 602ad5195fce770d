/**
 * A run's configuration, declared once: the defaults of SPEC §2–§3, the range of every numeric
 * setting (as the zod schema that checks it), and the simulated provider's identity. The CLI's
 * flag parser, the Models page and the engine all read these, so a default or a limit cannot
 * differ between them.
 */
import { z } from 'zod';

/** SPEC §2: no base URL at all means OpenAI's. */
export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** The Standard User Model of the paper (SPEC §2); use your provider's id via --user-model. */
export const DEFAULT_USER_MODEL = 'DeepSeek-V4.1-Flash';
/** The judge of the paper (SPEC §2); use your provider's id via --judge-model. */
export const DEFAULT_JUDGE_MODEL = 'DeepSeek-R1';
/** Parallel cases; does not change results, so it is not part of comparability. @default 4 */
export const DEFAULT_CONCURRENCY = 4;

/** Evaluated model id of a simulated run when none is given (CLI `--simulated`, Models page). */
export const SIMULATED_MODEL = 'simulated';
/** What a simulated run records as every role's endpoint. */
export const SIMULATED_ENDPOINT = 'simulated://offline';

/** The range of one numeric setting. */
export interface NumberLimit {
	/** Whole numbers only. */
	integer: boolean;
	min: number;
	/** `min` itself is not allowed. */
	exclusiveMin: boolean;
	/** No upper bound when left out. */
	max?: number;
}

/** The numeric settings a run takes: the five of `Settings` plus concurrency. */
export type SettingName =
	'temperature' | 'judge_temperature' | 'max_tokens' | 'timeout_s' | 'retries' | 'concurrency';

/**
 * Range of every numeric setting. Temperatures follow the OpenAI API (0–2); retries and
 * concurrency are capped so a typo cannot hammer a provider.
 */
export const SETTING_LIMITS: Readonly<Record<SettingName, Readonly<NumberLimit>>> = {
	temperature: { integer: false, min: 0, exclusiveMin: false, max: 2 },
	judge_temperature: { integer: false, min: 0, exclusiveMin: false, max: 2 },
	max_tokens: { integer: true, min: 1, exclusiveMin: false },
	timeout_s: { integer: false, min: 0, exclusiveMin: true },
	retries: { integer: true, min: 0, exclusiveMin: false, max: 20 },
	concurrency: { integer: true, min: 1, exclusiveMin: false, max: 64 }
};

/** The zod schema of a numeric setting, from its limit. */
function limited(name: SettingName): z.ZodNumber {
	const { integer, min, exclusiveMin, max } = SETTING_LIMITS[name];
	let schema = integer ? z.number().int() : z.number();
	schema = exclusiveMin ? schema.gt(min) : schema.min(min);
	return max === undefined ? schema : schema.max(max);
}

/**
 * Generation settings as a manifest records them. Temperature, judge temperature and max tokens
 * decide results (comparability, resume); timeout and retries are operational (SPEC §5).
 */
export const Settings = z.object({
	/** @default 0.7 */
	temperature: limited('temperature'),
	/** @default 0.1 */
	judge_temperature: limited('judge_temperature'),
	/** @default 8192 */
	max_tokens: limited('max_tokens'),
	/** @default 120 */
	timeout_s: limited('timeout_s'),
	/** @default 3 */
	retries: limited('retries')
});
export type Settings = z.infer<typeof Settings>;

/** Cases worked on at once; not part of a manifest's `settings` (it does not change results). */
export const Concurrency = limited('concurrency');

export const DEFAULT_SETTINGS: Settings = {
	temperature: 0.7,
	judge_temperature: 0.1,
	max_tokens: 8192,
	timeout_s: 120,
	retries: 3
};

/**
 * The operational values one start or resume of a run used (SPEC §5–§6): how patient it was,
 * never what it produced. A manifest's `operational_history` lists them, oldest first.
 */
export const OperationalEntry = z
	.object({
		/** ISO time the start or resume opened the run. */
		at: z.string(),
		timeout_s: Settings.shape.timeout_s,
		retries: Settings.shape.retries,
		concurrency: Concurrency
	})
	.loose();
export type OperationalEntry = z.infer<typeof OperationalEntry>;

/** Settings that change what a model answers: a change needs a new run id (SPEC §5–§6). */
export const RESULT_SETTINGS = ['temperature', 'judge_temperature', 'max_tokens'] as const;
/** Settings a resume may change (SPEC §5–§6): recorded, never compared. */
export const OPERATIONAL_SETTINGS = ['timeout_s', 'retries'] as const;
