/**
 * What the Models page edits, as plain data: the default endpoint, the three roles with their
 * "same as default" fallbacks, the generation settings and concurrency. Resolving, checking and
 * storing live here, apart from the Svelte state class, so they are tested in Node.
 *
 * Keys are stored only when the user opts in, and then under their own localStorage entry, so
 * "forget keys" removes exactly them and nothing else ever holds one.
 */
import { checkBaseUrl, publicBaseUrl } from '$lib/core/model/base-url';
import type { RoleEndpoint } from '$lib/core/model/types';
import { ROLES, type Role } from '$lib/core/record-names';
import {
	DEFAULT_BASE_URL,
	DEFAULT_CONCURRENCY,
	DEFAULT_JUDGE_MODEL,
	DEFAULT_SETTINGS,
	DEFAULT_USER_MODEL,
	SETTING_LIMITS,
	SETTINGS_KEYS,
	SIMULATED_ENDPOINT,
	SIMULATED_MODEL,
	SIMULATED_ROLE_MODELS,
	withinLimit,
	type SettingName
} from '$lib/core/run-defaults';
import type { Settings } from '$lib/core/run-config';
import { m } from '$lib/paraglide/messages';
import { PRESET_IDS, type PresetId } from './provider-presets';

/** `api`: OpenAI-compatible endpoints; `simulated`: the offline demo provider for every role. */
export type ProviderMode = 'api' | 'simulated';

/** The default endpoint every role falls back to. */
export interface EndpointConfig {
	preset: PresetId;
	/** '' means {@link DEFAULT_BASE_URL}. */
	baseURL: string;
	/** In memory unless the user opts in to remembering keys. */
	apiKey: string;
}

export interface RoleConfig {
	/** Take the default endpoint's base URL. @default true */
	useDefaultBaseURL: boolean;
	preset: PresetId;
	baseURL: string;
	/** Take the default endpoint's key. @default true */
	useDefaultKey: boolean;
	apiKey: string;
	/** Model id sent to the endpoint. The evaluated one has no default (PROTOCOL.md §2). */
	model: string;
}

export interface ModelSettings {
	mode: ProviderMode;
	defaults: EndpointConfig;
	roles: Record<Role, RoleConfig>;
	/** Recorded in the manifest; temperatures and max tokens need a new run id to change, timeout and retries do not. */
	generation: Settings;
	/** Cases worked on at once; not part of comparability. @default 4 */
	concurrency: number;
	/** Keep keys in localStorage. @default false */
	rememberKeys: boolean;
}

function role(model: string): RoleConfig {
	return {
		useDefaultBaseURL: true,
		preset: 'custom',
		baseURL: '',
		useDefaultKey: true,
		apiKey: '',
		model
	};
}

export function defaultModelSettings(): ModelSettings {
	return {
		mode: 'api',
		defaults: { preset: 'openai', baseURL: DEFAULT_BASE_URL, apiKey: '' },
		roles: {
			evaluated: role(''),
			user: role(DEFAULT_USER_MODEL),
			judge: role(DEFAULT_JUDGE_MODEL)
		},
		generation: { ...DEFAULT_SETTINGS },
		concurrency: DEFAULT_CONCURRENCY,
		rememberKeys: false
	};
}

/** Base URL, key and model each role will use, after the fallbacks of PROTOCOL.md §2. */
export function resolveEndpoints(s: ModelSettings): Record<Role, RoleEndpoint> {
	const defaultURL = s.defaults.baseURL.trim() || DEFAULT_BASE_URL;
	return Object.fromEntries(
		ROLES.map((r) => {
			const c = s.roles[r];
			const ownURL = c.baseURL.trim();
			return [
				r,
				{
					baseURL: c.useDefaultBaseURL || !ownURL ? defaultURL : ownURL,
					apiKey: (c.useDefaultKey ? s.defaults.apiKey : c.apiKey).trim(),
					model: c.model.trim()
				}
			];
		})
	) as Record<Role, RoleEndpoint>;
}

/** What a run records about its models: ids and base URLs (never keys). */
export interface RunIdentity {
	simulated: boolean;
	models: Record<Role, string>;
	endpoints: Record<Role, string>;
}

export function runIdentity(s: ModelSettings): RunIdentity {
	const resolved = resolveEndpoints(s);
	const simulated = s.mode === 'simulated';
	const models = Object.fromEntries(ROLES.map((r) => [r, resolved[r].model])) as Record<
		Role,
		string
	>;
	if (simulated) Object.assign(models, { evaluated: SIMULATED_MODEL, ...SIMULATED_ROLE_MODELS });
	// Written into the manifest (which bundles ship): no query value, no key.
	const keys = ROLES.map((r) => resolved[r].apiKey);
	const endpoints = Object.fromEntries(
		ROLES.map((r) => [r, simulated ? SIMULATED_ENDPOINT : publicBaseUrl(resolved[r].baseURL, keys)])
	) as Record<Role, string>;
	return { simulated, models, endpoints };
}

/** Where a problem is, so the page can put it next to its field. */
export type SettingsField =
	| `${Role}.model`
	| `${Role}.baseURL`
	| 'defaults.baseURL'
	| `generation.${keyof Settings}`
	| 'concurrency';

export interface SettingsProblem {
	field: SettingsField;
	message: string;
}

// Names and labels in the interface language (problems are derived anew on each read).
const ROLE_NAMES: Record<Role, () => string> = {
	evaluated: () => m.models_role_evaluated_title(),
	user: () => m.models_role_user_title(),
	judge: () => m.models_role_judge_title()
};

/** The label of each generation setting, in the interface language. */
export const GENERATION_LABELS: Record<keyof Settings, () => string> = {
	temperature: () => m.models_temperature(),
	judge_temperature: () => m.models_judge_temperature(),
	max_tokens: () => m.models_max_tokens(),
	timeout_s: () => m.models_problem_timeout(),
	retries: () => m.models_retries()
};

/**
 * The problem of a numeric field, or null: its limit in `SETTING_LIMITS` decides (the CLI's
 * flags and the manifest's schema take the same), and the message names the field and its range.
 */
export function numberProblem(label: string, value: unknown, name: SettingName): string | null {
	if (withinLimit(value, SETTING_LIMITS[name])) return null;
	const { integer, min, max, exclusiveMin } = SETTING_LIMITS[name];
	if (exclusiveMin) return m.models_problem_range_above({ label, min, max });
	return integer
		? m.models_problem_range_integer({ label, min, max })
		: m.models_problem_range({ label, min, max });
}

/**
 * Every problem that stops a run from starting, each naming its field and what to do.
 * A missing key is not a problem: local servers take none, and a wrong one is for Test
 * connection to find.
 */
export function settingsProblems(s: ModelSettings): SettingsProblem[] {
	const problems: SettingsProblem[] = [];
	for (const [key, label] of Object.entries(GENERATION_LABELS) as [
		keyof Settings,
		() => string
	][]) {
		const message = numberProblem(label(), s.generation[key], key);
		if (message) problems.push({ field: `generation.${key}`, message });
	}
	const concurrency = numberProblem(m.models_concurrency(), s.concurrency, 'concurrency');
	if (concurrency) problems.push({ field: 'concurrency', message: concurrency });
	if (s.mode === 'simulated') return problems;

	const defaultURL = s.defaults.baseURL.trim();
	const defaultCheck = defaultURL ? checkBaseUrl(defaultURL) : null;
	if (defaultCheck && !defaultCheck.ok) {
		problems.push({
			field: 'defaults.baseURL',
			message: m.models_problem_default_url({ problem: defaultCheck.problem })
		});
	}
	for (const r of ROLES) {
		const c = s.roles[r];
		if (!c.model.trim()) {
			problems.push({
				field: `${r}.model`,
				message:
					r === 'evaluated'
						? m.models_problem_evaluated_model()
						: m.models_problem_role_model({ role: ROLE_NAMES[r]() })
			});
		}
		const own = c.baseURL.trim();
		const ownCheck = !c.useDefaultBaseURL && own ? checkBaseUrl(own) : null;
		if (ownCheck && !ownCheck.ok) {
			problems.push({
				field: `${r}.baseURL`,
				message: m.models_problem_role_url({ role: ROLE_NAMES[r](), problem: ownCheck.problem })
			});
		}
	}
	return problems;
}

/** @default 'lexpilot.model-settings.v1' */
export const SETTINGS_STORAGE_KEY = 'lexpilot.model-settings.v1';
/** Only written when the user ticks "Remember keys on this device". */
export const KEYS_STORAGE_KEY = 'lexpilot.api-keys.v1';

// Stored settings are read on every page's first load, so they are checked without zod (zod,
// even zod/mini, measured 17 kB gzip more on every page's first load, since full zod elsewhere
// in the app keeps most of zod's shared core module alive). Each field falls
// back on its own, so one odd value (an emptied number field stores null, an older version's
// number outside today's range) never throws away the rest of the user's settings; unknown
// fields are dropped. Numbers are held to `SETTING_LIMITS`, the form's and the CLI's ranges.
type StoredRole = Omit<RoleConfig, 'apiKey'>;
interface StoredSettings {
	mode: ProviderMode;
	defaults: { preset: PresetId; baseURL: string };
	roles: Record<Role, StoredRole>;
	generation: Settings;
	concurrency: number;
	rememberKeys: boolean;
}
type StoredKeys = Record<'defaults' | Role, string>;

const isRecord = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);
const oneOf = <T extends string>(v: unknown, options: readonly T[], fallback: T): T =>
	typeof v === 'string' && (options as readonly string[]).includes(v) ? (v as T) : fallback;
const text = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);
const flag = (v: unknown, fallback: boolean) => (typeof v === 'boolean' ? v : fallback);
const number = (v: unknown, name: SettingName, fallback: number) =>
	withinLimit(v, SETTING_LIMITS[name]) ? v : fallback;

function storedRole(v: unknown, model: string): StoredRole {
	if (!isRecord(v)) return { ...role(model) };
	return {
		useDefaultBaseURL: flag(v.useDefaultBaseURL, true),
		preset: oneOf(v.preset, PRESET_IDS, 'custom'),
		baseURL: text(v.baseURL, ''),
		useDefaultKey: flag(v.useDefaultKey, true),
		model: text(v.model, model)
	};
}

/** The stored settings object, each field checked on its own; null when it is no object. */
function readStoredSettings(v: unknown): StoredSettings | null {
	if (!isRecord(v)) return null;
	const { defaults, roles, generation: g } = v;
	const models: Record<Role, string> = {
		evaluated: '',
		user: DEFAULT_USER_MODEL,
		judge: DEFAULT_JUDGE_MODEL
	};
	return {
		mode: oneOf(v.mode, ['api', 'simulated'], 'api'),
		defaults: isRecord(defaults)
			? {
					preset: oneOf(defaults.preset, PRESET_IDS, 'custom'),
					baseURL: text(defaults.baseURL, DEFAULT_BASE_URL)
				}
			: { preset: 'openai', baseURL: DEFAULT_BASE_URL },
		roles: Object.fromEntries(
			ROLES.map((r) => [r, isRecord(roles) ? storedRole(roles[r], models[r]) : role(models[r])])
		) as Record<Role, StoredRole>,
		generation: Object.fromEntries(
			SETTINGS_KEYS.map((k) => [k, number(isRecord(g) ? g[k] : undefined, k, DEFAULT_SETTINGS[k])])
		) as Settings,
		concurrency: number(v.concurrency, 'concurrency', DEFAULT_CONCURRENCY),
		rememberKeys: flag(v.rememberKeys, false)
	};
}

/** The stored keys: four strings, or null. */
function readStoredKeys(v: unknown): StoredKeys | null {
	if (!isRecord(v)) return null;
	const { defaults, evaluated, user, judge } = v;
	if (![defaults, evaluated, user, judge].every((k) => typeof k === 'string')) return null;
	return { defaults, evaluated, user, judge } as StoredKeys;
}

/** A stored numeric setting that was outside its range (or no number) and was set back. */
export interface SettingsRepair {
	field: Extract<SettingsField, `generation.${string}` | 'concurrency'>;
	/** The stored value as JSON, clipped (it came from storage). */
	stored: string;
	/** The value used instead: the default. */
	used: number;
}

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

/** The two localStorage entries for `s`; `keys` is null unless the user opted in. */
export function toStored(s: ModelSettings): { settings: string; keys: string | null } {
	const settings: StoredSettings = {
		mode: s.mode,
		defaults: { preset: s.defaults.preset, baseURL: s.defaults.baseURL },
		roles: Object.fromEntries(
			ROLES.map((r) => {
				const c = s.roles[r];
				// Named field by field, so a key can never ride along.
				const stored = {
					useDefaultBaseURL: c.useDefaultBaseURL,
					preset: c.preset,
					baseURL: c.baseURL,
					useDefaultKey: c.useDefaultKey,
					model: c.model
				};
				return [r, stored];
			})
		) as StoredSettings['roles'],
		generation: { ...s.generation },
		concurrency: s.concurrency,
		rememberKeys: s.rememberKeys
	};
	const keys = s.rememberKeys
		? JSON.stringify({
				defaults: s.defaults.apiKey,
				evaluated: s.roles.evaluated.apiKey,
				user: s.roles.user.apiKey,
				judge: s.roles.judge.apiKey
			} satisfies StoredKeys)
		: null;
	return { settings: JSON.stringify(settings), keys };
}

function parseJson(text: string | null): unknown {
	if (text === null) return null;
	try {
		return JSON.parse(text);
	} catch {
		return null;
	}
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
	const stored = readStoredSettings(raw);
	const s: ModelSettings = stored
		? {
				...stored,
				defaults: { ...stored.defaults, apiKey: '' },
				roles: Object.fromEntries(
					ROLES.map((r) => [r, { ...stored.roles[r], apiKey: '' }])
				) as Record<Role, RoleConfig>
			}
		: defaultModelSettings();
	const keys = s.rememberKeys ? readStoredKeys(parseJson(keysText)) : null;
	if (keys) {
		s.defaults.apiKey = keys.defaults;
		for (const r of ROLES) s.roles[r].apiKey = keys[r];
	}
	return { settings: s, repaired: stored ? repairsOf(raw, stored) : [] };
}

/** {@link readStoredModelSettings} without the repairs. */
export function fromStored(settingsText: string | null, keysText: string | null): ModelSettings {
	return readStoredModelSettings(settingsText, keysText).settings;
}
