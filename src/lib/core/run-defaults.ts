/**
 * A run's defaults and the range of every numeric setting (PROTOCOL.md §2–§3), as plain data: the one
 * limits table (`SETTING_LIMITS`) that the CLI's flags, the Models page form, the stored settings
 * and plans and the engine all check against, through the schemas `run-config.ts` builds from
 * it. Imports nothing: `run-config.ts` imports this (and re-exports it), never the other way.
 */

/** PROTOCOL.md §2: no base URL at all means OpenAI's. */
export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** The Standard User Model of the paper (PROTOCOL.md §2); use your provider's id via --user-model. */
export const DEFAULT_USER_MODEL = 'DeepSeek-V4.1-Flash';
/** The judge of the paper (PROTOCOL.md §2); use your provider's id via --judge-model. */
export const DEFAULT_JUDGE_MODEL = 'DeepSeek-R1';
/** Parallel cases; does not change results, so it is not part of comparability. @default 4 */
export const DEFAULT_CONCURRENCY = 4;

/** Evaluated model id of a simulated run when none is given (CLI `--simulated`, Models page). */
export const SIMULATED_MODEL = 'simulated';
/** What a simulated run records as every role's endpoint. */
export const SIMULATED_ENDPOINT = 'simulated://offline';
/**
 * The user and judge model ids a simulated run records and shows: the simulated provider plays
 * both roles, so it never names a real model it did not call (CLI `--simulated`, Models page).
 */
export const SIMULATED_ROLE_MODELS = { user: 'simulated-user', judge: 'simulated-judge' } as const;

/** The range of one numeric setting: every setting has both ends. */
export interface NumberLimit {
	/** Whole numbers only. */
	integer: boolean;
	min: number;
	/** `min` itself is not allowed. */
	exclusiveMin: boolean;
	max: number;
}

/** The five settings a manifest records (`Settings` in `run-config.ts`), in their order. */
export const SETTINGS_KEYS = [
	'temperature',
	'judge_temperature',
	'max_tokens',
	'timeout_s',
	'retries'
] as const;
export type SettingsKey = (typeof SETTINGS_KEYS)[number];

/**
 * The numeric settings a run takes: the five of `Settings`, concurrency and the case limit; and
 * a run plan's repetitions.
 */
export type SettingName = SettingsKey | 'concurrency' | 'limit' | 'repetitions';

/**
 * Range of every numeric setting, both ends included unless `exclusiveMin`:
 * - `temperature`, `judge_temperature`: 0–2, the OpenAI API's range.
 * - `max_tokens`: 1–262144 (2^18): above the longest answer any provider offers today, and the
 *   answer-size bound (32 bytes a token) stays a few MB.
 * - `timeout_s`: above 0, at most 86400 (a day): slow local hardware may take an hour on one
 *   long answer; past 2^31 ms (24.8 days) timers overflow (Node warns `TimeoutOverflowWarning`
 *   and fires at once), so a huge value would fail every call at once instead of waiting.
 * - `retries`: 0–20, and `concurrency`: 1–64, so a typo cannot hammer a provider.
 * - `limit` (first N cases): 1–1000000, more cases than a dataset the workbench loads holds.
 * - `repetitions` of a run plan: 1–10 (the paper reports five runs per model).
 */
export const SETTING_LIMITS: Readonly<Record<SettingName, Readonly<NumberLimit>>> = {
	temperature: { integer: false, min: 0, exclusiveMin: false, max: 2 },
	judge_temperature: { integer: false, min: 0, exclusiveMin: false, max: 2 },
	max_tokens: { integer: true, min: 1, exclusiveMin: false, max: 262_144 },
	timeout_s: { integer: false, min: 0, exclusiveMin: true, max: 86_400 },
	retries: { integer: true, min: 0, exclusiveMin: false, max: 20 },
	concurrency: { integer: true, min: 1, exclusiveMin: false, max: 64 },
	limit: { integer: true, min: 1, exclusiveMin: false, max: 1_000_000 },
	repetitions: { integer: true, min: 1, exclusiveMin: false, max: 10 }
};

/**
 * Whether `value` is inside `limit`: a finite number, whole when it must be, between its ends.
 * The one range check without zod, for what a page checks on its first load (the Models form
 * and run plans), where zod (even zod/mini) measured 17 kB gzip more per page; the zod schemas
 * of `run-config.ts` and of stored settings (`state/stored-settings.ts`, loaded on demand) are
 * built from the same table, and
 * `tests/unit/run-config.spec.ts` holds the two to the same answers at every end.
 */
export function withinLimit(value: unknown, limit: NumberLimit): value is number {
	if (typeof value !== 'number' || !Number.isFinite(value)) return false;
	if (limit.integer && !Number.isSafeInteger(value)) return false;
	const aboveMin = limit.exclusiveMin ? value > limit.min : value >= limit.min;
	return aboveMin && value <= limit.max;
}

/** The settings of a run started without any given (PROTOCOL.md §2–§3). */
export const DEFAULT_SETTINGS: Readonly<Record<SettingsKey, number>> = {
	temperature: 0.7,
	judge_temperature: 0.1,
	max_tokens: 8192,
	timeout_s: 120,
	retries: 3
};

/** Settings a resume may change (PROTOCOL.md §5–§6): recorded, never compared. */
export const OPERATIONAL_SETTINGS = ['timeout_s', 'retries'] as const;
