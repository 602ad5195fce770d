/**
 * The Models page's settings as localStorage keeps them, checked by one zod schema built from
 * `SETTING_LIMITS` (the ranges of the form and the CLI). zod/mini, and imported only on demand
 * (`SettingsState.restored`): zod measured 17 kB gzip on every page's first load otherwise.
 *
 * Each field falls back on its own (`z.catch`), so one odd value (an emptied number field stores
 * null, an older version's number outside today's range) never throws away the rest of the
 * user's settings; unknown fields are dropped.
 */
import * as z from 'zod/mini';
import { ROLES, type Role } from '$lib/core/record-names';
import { SETTING_LIMITS, SETTINGS_KEYS, type SettingName } from '$lib/core/run-defaults';
import {
	defaultModelSettings,
	type ModelSettings,
	type RoleConfig,
	type SettingsRepair
} from './model-settings';
import { PRESET_IDS } from './provider-presets';

/** A numeric setting within its `SETTING_LIMITS`, or `fallback`. */
function setting(name: SettingName, fallback: number) {
	const { integer, min, exclusiveMin, max } = SETTING_LIMITS[name];
	const number = integer ? z.int() : z.number();
	return z.catch(number.check(exclusiveMin ? z.gt(min) : z.gte(min), z.lte(max)), fallback);
}

const preset = z.catch(z.enum(PRESET_IDS), 'custom');

/** An object whose fields all fall back: no object at all reads as an empty one. */
function fields<T extends z.core.$ZodLooseShape>(shape: T) {
	const object = z.object(shape);
	return z.catch(object, () => object.parse({}));
}

/** A role as stored: no key (keys have their own entry). */
function storedRole(model: string) {
	return fields({
		useDefaultBaseURL: z.catch(z.boolean(), true),
		preset,
		baseURL: z.catch(z.string(), ''),
		useDefaultKey: z.catch(z.boolean(), true),
		model: z.catch(z.string(), model)
	});
}

/** Each field's fallback: the settings of a first visit. */
const DEFAULTS = defaultModelSettings();

/** The settings entry; null (the defaults) only when it is no object at all. */
export const StoredSettings = z.object({
	mode: z.catch(z.enum(['api', 'simulated']), 'api'),
	defaults: z.catch(
		z.object({ preset, baseURL: z.catch(z.string(), DEFAULTS.defaults.baseURL) }),
		() => ({ preset: DEFAULTS.defaults.preset, baseURL: DEFAULTS.defaults.baseURL })
	),
	roles: fields({
		evaluated: storedRole(DEFAULTS.roles.evaluated.model),
		user: storedRole(DEFAULTS.roles.user.model),
		judge: storedRole(DEFAULTS.roles.judge.model)
	}),
	generation: fields(
		Object.fromEntries(SETTINGS_KEYS.map((k) => [k, setting(k, DEFAULTS.generation[k])])) as Record<
			(typeof SETTINGS_KEYS)[number],
			ReturnType<typeof setting>
		>
	),
	concurrency: setting('concurrency', DEFAULTS.concurrency),
	rememberKeys: z.catch(z.boolean(), false)
});
export type StoredSettings = z.infer<typeof StoredSettings>;

/** The keys entry, written only when the user opted in: four strings, or nothing. */
export const StoredKeys = z.object({
	defaults: z.string(),
	evaluated: z.string(),
	user: z.string(),
	judge: z.string()
});

function parseJson(text: string | null): unknown {
	if (text === null) return null;
	try {
		return JSON.parse(text);
	} catch {
		return null;
	}
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

/** The numeric fields `raw` held (present, not null) that the schema set back to a default. */
function repairsOf(raw: unknown, read: StoredSettings): SettingsRepair[] {
	if (!isRecord(raw)) return [];
	const g = isRecord(raw.generation) ? raw.generation : {};
	const fields: (readonly [SettingsRepair['field'], unknown, number])[] = [
		...SETTINGS_KEYS.map((k) => [`generation.${k}`, g[k], read.generation[k]] as const),
		['concurrency', raw.concurrency, read.concurrency]
	];
	return fields
		.filter(([, v, used]) => v !== undefined && v !== null && v !== used)
		.map(([field, v, used]) => ({ field, stored: JSON.stringify(v).slice(0, 40), used }));
}

/**
 * Settings from the two localStorage entries, and the numeric fields that were set back to
 * their default because the stored value was outside today's range (a timeout of 3000000 s
 * stored by an older version) or no number, for the page to say so. Anything unreadable falls
 * back to the defaults: a stored setting must never stop the page from opening.
 */
export function readStoredModelSettings(
	settingsText: string | null,
	keysText: string | null
): { settings: ModelSettings; repaired: SettingsRepair[] } {
	const raw = parseJson(settingsText);
	const read = StoredSettings.safeParse(raw);
	if (!read.success) return { settings: defaultModelSettings(), repaired: [] };
	const stored = read.data;
	const s: ModelSettings = {
		...stored,
		defaults: { ...stored.defaults, apiKey: '' },
		roles: Object.fromEntries(ROLES.map((r) => [r, { ...stored.roles[r], apiKey: '' }])) as Record<
			Role,
			RoleConfig
		>
	};
	const keys = s.rememberKeys ? StoredKeys.safeParse(parseJson(keysText)) : null;
	if (keys?.success) {
		s.defaults.apiKey = keys.data.defaults;
		for (const r of ROLES) s.roles[r].apiKey = keys.data[r];
	}
	return { settings: s, repaired: repairsOf(raw, stored) };
}
