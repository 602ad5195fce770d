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
	SIMULATED_ENDPOINT,
	SIMULATED_MODEL,
	SIMULATED_ROLE_MODELS,
	withinLimit,
	type SettingName
} from '$lib/core/run-defaults';
import type { Settings } from '$lib/core/run-config';
import { m } from '$lib/paraglide/messages';
import type { PresetId } from './provider-presets';

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

// The stored shape's check, a zod schema, is `stored-settings.ts` (loaded on demand), which
// reads back what `toStored` writes (its spec holds the two to a round trip).
type StoredKeys = Record<'defaults' | Role, string>;

/** A stored numeric setting that was outside its range (or no number) and was set back. */
export interface SettingsRepair {
	field: Extract<SettingsField, `generation.${string}` | 'concurrency'>;
	/** The stored value as JSON, clipped (it came from storage). */
	stored: string;
	/** The value used instead: the default. */
	used: number;
}

/** The two localStorage entries for `s`; `keys` is null unless the user opted in. */
export function toStored(s: ModelSettings): { settings: string; keys: string | null } {
	const settings = {
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
		),
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
