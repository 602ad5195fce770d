/**
 * A run's configuration, declared once: the defaults of PROTOCOL.md §2–§3 and the range of every
 * numeric setting (`run-defaults.ts`, re-exported here; it imports nothing from this file), the
 * zod schemas that check them, and the simulated provider's identity. The CLI's flag parser, the
 * manifest and the engine check with these schemas; stored settings with a zod/mini schema over
 * the same table (`state/stored-settings.ts`, fetched on demand); the Models form and run plans
 * with `withinLimit` over it (they load on every page, zod does not).
 */
import { z } from 'zod';
import { DEFAULT_SETTINGS, SETTING_LIMITS, type SettingName } from './run-defaults';

export * from './run-defaults';

/** The zod schema of a numeric setting, from its limit in `SETTING_LIMITS`. */
export function limited(name: SettingName): z.ZodNumber {
	const { integer, min, exclusiveMin, max } = SETTING_LIMITS[name];
	let schema = integer ? z.number().int() : z.number();
	schema = exclusiveMin ? schema.gt(min) : schema.min(min);
	return schema.max(max);
}

/**
 * Generation settings as a manifest records them. Temperature, judge temperature and max tokens
 * decide results (comparability, resume); timeout and retries are operational (PROTOCOL.md §5).
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

// The defaults are plain data in run-defaults.ts; here they are held to the schema's type.
DEFAULT_SETTINGS satisfies Settings;

/** Cases worked on at once; not part of a manifest's `settings` (it does not change results). */
export const Concurrency = limited('concurrency');

/**
 * The operational values one start or resume of a run used (PROTOCOL.md §5–§6): how patient it was,
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
