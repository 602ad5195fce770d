/**
 * The Models page's settings for the whole app: endpoints and model ids per role, generation
 * settings, concurrency, the simulated provider, and the result of each role's Test connection.
 * Keys live in this object's memory; they reach localStorage only when the user opts in.
 */
import type { ConnectionTestResult } from '$lib/core/model/diagnose';
import { DEFAULT_SETTINGS } from '$lib/core/run-defaults';
import { ROLES, type Role } from '$lib/core/record-names';
import {
	defaultModelSettings,
	KEYS_STORAGE_KEY,
	resolveEndpoints,
	runIdentity,
	SETTINGS_STORAGE_KEY,
	settingsProblems,
	toStored,
	type EndpointConfig,
	type ModelSettings,
	type SettingsRepair
} from './model-settings';
import { dropPlanFormKeys, sessionStore } from './plan-form-memory';
import { PRESETS, type PresetId } from './provider-presets';
import { webStorage } from './web-storage';

/** The part of `localStorage` the settings use. */
export type SettingsStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;

/** One role's Test connection: not run, running, or its result. */
export type ConnectionTest =
	| { state: 'idle' }
	| { state: 'testing' }
	| {
			state: 'done';
			result: ConnectionTestResult;
			at: number;
			/** Answered by the simulated provider: shown only while it is the provider. */
			simulated: boolean;
	  };

/** `localStorage`, or null where the browser refuses it (some private modes throw on access). */
export const browserStorage = (): SettingsStorage => webStorage('localStorage');

export class SettingsState {
	/** Everything the page edits; deep state so inputs can bind to its fields. */
	value = $state<ModelSettings>(defaultModelSettings());
	tests = $state.raw<Record<Role, ConnectionTest>>({
		evaluated: { state: 'idle' },
		user: { state: 'idle' },
		judge: { state: 'idle' }
	});
	/** What each role will use, after the fallbacks to the default endpoint. */
	resolved = $derived(resolveEndpoints(this.value));
	/** Model ids and base URLs as a run records them. */
	identity = $derived(runIdentity(this.value));
	problems = $derived(settingsProblems(this.value));
	simulated = $derived(this.value.mode === 'simulated');
	/** Stored numbers outside their range, set back to their default when the settings were read. */
	repaired = $state.raw<SettingsRepair[]>([]);

	/**
	 * False until stored settings have been read: the schema that checks them (zod) is fetched
	 * on demand, off every page's first load. Pages that show or run with the settings await
	 * `restored()` in their `+page.ts`; nothing is written before.
	 */
	loaded = $state(false);

	readonly #storage: SettingsStorage;
	readonly #restoring: Promise<void>;

	constructor(storage: SettingsStorage = null) {
		this.#storage = storage;
		this.#restoring = this.#restore();
	}

	/** Resolves once the stored settings (if any) are read; never rejects. */
	restored(): Promise<void> {
		return this.#restoring;
	}

	async #restore(): Promise<void> {
		try {
			const settings = this.#storage?.getItem(SETTINGS_STORAGE_KEY) ?? null;
			const keys = this.#storage?.getItem(KEYS_STORAGE_KEY) ?? null;
			// Nothing stored: the defaults, and no schema to fetch.
			if (settings !== null) {
				const { readStoredModelSettings } = await import('./stored-settings');
				const read = readStoredModelSettings(settings, keys);
				this.value = read.settings;
				this.repaired = read.repaired;
			}
		} catch {
			// Unreadable storage (or the schema could not be fetched): start from the defaults.
		}
		this.loaded = true;
	}

	/**
	 * Writes the settings (and the keys, only when remembered) to storage. Reads every field, so
	 * an `$effect` calling it re-runs on each change.
	 */
	persist(): void {
		// Read first, so an `$effect` calling this runs again once the stored settings are in.
		if (!this.loaded) return;
		const stored = toStored(this.value);
		try {
			this.#storage?.setItem(SETTINGS_STORAGE_KEY, stored.settings);
			if (stored.keys === null) {
				this.#storage?.removeItem(KEYS_STORAGE_KEY);
				dropPlanFormKeys(sessionStore());
			} else this.#storage?.setItem(KEYS_STORAGE_KEY, stored.keys);
		} catch {
			// Full or blocked storage: the settings still work for this tab.
		}
	}

	/** The endpoint fields (preset, base URL, key) of the default endpoint or of a role. */
	endpointOf(target: 'defaults' | Role): EndpointConfig {
		return target === 'defaults' ? this.value.defaults : this.value.roles[target];
	}

	/** Picks a provider preset for the default endpoint or a role, filling its base URL. */
	applyPreset(target: 'defaults' | Role, preset: PresetId): void {
		const p = PRESETS[preset];
		const endpoint = this.endpointOf(target);
		endpoint.preset = preset;
		if (p.baseURL) endpoint.baseURL = p.baseURL;
		if (target !== 'defaults') this.value.roles[target].useDefaultBaseURL = false;
		this.#clearTests(target);
	}

	resetGeneration(): void {
		this.value.generation = { ...DEFAULT_SETTINGS };
	}

	/** Clears every key, here and in storage, and turns remembering off. */
	forgetKeys(): void {
		this.value.defaults.apiKey = '';
		for (const r of ROLES) this.value.roles[r].apiKey = '';
		this.value.rememberKeys = false;
		try {
			this.#storage?.removeItem(KEYS_STORAGE_KEY);
		} catch {
			// nothing stored to forget
		}
	}

	/** Sends one tiny chat call with the role's endpoint and keeps the classified result. */
	async testConnection(role: Role): Promise<void> {
		this.tests = { ...this.tests, [role]: { state: 'testing' } };
		let result: ConnectionTestResult;
		if (this.simulated) {
			// The simulated provider answers the test as it answers a run's calls, in this page.
			const [{ testSimulatedConnection }, { SIMULATED_LATENCY_MS }] = await Promise.all([
				import('$lib/core/simulated'),
				import('$lib/adapters/workers/browser-client')
			]);
			result = await testSimulatedConnection(role, this.identity.models[role], {
				latencyMs: SIMULATED_LATENCY_MS
			});
		} else {
			// Loaded on demand: the openai package is large and only needed here and on Run. A port
			// the browser refuses is said so before anything is sent, not as "nothing answered".
			const { blockedPort, blockedPortResult } = await import('./blocked-port');
			const port = blockedPort(this.resolved[role].baseURL);
			result =
				port !== null
					? blockedPortResult(this.resolved[role].baseURL, port)
					: await import('$lib/core/model/diagnose').then(({ testConnection }) =>
							testConnection(this.resolved[role], {
								origin: globalThis.location?.origin,
								online: () => globalThis.navigator?.onLine !== false
							})
						);
		}
		this.tests = {
			...this.tests,
			[role]: { state: 'done', result, at: Date.now(), simulated: this.simulated }
		};
	}

	/** A result is stale once what it tested changes. */
	#clearTests(target: 'defaults' | Role): void {
		const roles = target === 'defaults' ? ROLES : [target];
		const next = { ...this.tests };
		for (const r of roles) next[r] = { state: 'idle' };
		this.tests = next;
	}

	/** Forgets test results after an edit to the endpoints. */
	endpointsChanged(target: 'defaults' | Role): void {
		this.#clearTests(target);
	}
}

export const settingsState = new SettingsState(browserStorage());
