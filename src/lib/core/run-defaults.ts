/**
 * A run's defaults and the range of every numeric setting (SPEC §2–§3), without the schemas
 * that check them (`run-config.ts`, which re-exports all of this): pages that only show a
 * default or a limit import this and so do not load zod on their first visit.
 */
import type { Settings } from './run-config';

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

export const DEFAULT_SETTINGS: Settings = {
	temperature: 0.7,
	judge_temperature: 0.1,
	max_tokens: 8192,
	timeout_s: 120,
	retries: 3
};

/** Settings that change what a model answers: a change needs a new run id (SPEC §5–§6). */
export const RESULT_SETTINGS = ['temperature', 'judge_temperature', 'max_tokens'] as const;
/** Settings a resume may change (SPEC §5–§6): recorded, never compared. */
export const OPERATIONAL_SETTINGS = ['timeout_s', 'retries'] as const;
