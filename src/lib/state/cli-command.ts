/**
 * The CLI commands that do what the page is set up to do, for when the browser cannot (a
 * provider that refuses web pages, CORS). Base URLs and model ids are written out; keys never
 * are: each key appears only as the name of the environment variable to set (PROTOCOL.md §8).
 */
import { ROLES, type Role } from '$lib/core/record-names';
import { RUN_ALL_STAGES, STAGE_ALIASES, type StageName } from '$lib/core/protocol';
import {
	DEFAULT_BASE_URL,
	DEFAULT_CONCURRENCY,
	DEFAULT_JUDGE_MODEL,
	DEFAULT_SETTINGS,
	DEFAULT_USER_MODEL
} from '$lib/core/run-defaults';
import type { Settings } from '$lib/core/run-config';
import type { ModelSettings } from './model-settings';
import { PRESETS, type PresetId } from './provider-presets';

const ENV_PREFIX: Record<Role, string> = { evaluated: 'EVAL', user: 'USER', judge: 'JUDGE' };

/** Shown where a key goes; the user pastes their own into the terminal. */
export const KEY_PLACEHOLDER = '<your key>';

const SETTING_FLAGS: Record<keyof Settings, string> = {
	temperature: '--temperature',
	judge_temperature: '--judge-temperature',
	max_tokens: '--max-tokens',
	timeout_s: '--timeout',
	retries: '--retries'
};

/** What the commands run, besides the model settings. */
export interface CliRunInput {
	/** @default 'run1' */
	runId?: string;
	/** Path of the dataset file as the user will type it. @default 'lexpilot.json' */
	datasetPath?: string;
	/** @default ['gen'] */
	stages?: readonly StageName[];
	limit?: number | null;
}

export interface CliCommands {
	/** `export NAME=value` lines; keys as {@link KEY_PLACEHOLDER}. */
	env: string[];
	/** One `npm run lexpilot -- …` line per command: one `run` for several stages. */
	commands: string[];
	/** Everything, ready to paste into a POSIX shell. */
	text: string;
}

/** Quotes a value for sh when it holds anything beyond a safe set of characters. */
export function shellQuote(value: string): string {
	return /^[A-Za-z0-9._/:@%+=,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * CLI commands for the stages. Several stages go to one `run` (every stage in one scheduler,
 * `--stages` named unless they are all of them), except `lca` beside `gen`, which `run` refuses:
 * then one command a stage, in order, the three LJP stages together as `ljp`.
 */
export function cliStageCommands(stages: readonly StageName[]): string[] {
	if (stages.length > 1 && !(stages.includes('lca') && stages.includes('gen'))) {
		const all = RUN_ALL_STAGES.every((s) => stages.includes(s)) && !stages.includes('lca');
		return [all ? 'run' : `run --stages ${stageCommands(stages).join(',')}`];
	}
	return stageCommands(stages);
}

/** One command a stage, in order; the stages of an alias all there become the alias (`ljp`). */
function stageCommands(stages: readonly StageName[]): string[] {
	const aliases = Object.entries(STAGE_ALIASES).filter(([, all]) =>
		all.every((s) => stages.includes(s))
	);
	return [...new Set(stages.map((s) => aliases.find(([, all]) => all.includes(s))?.[0] ?? s))];
}

export function cliCommands(settings: ModelSettings, run: CliRunInput = {}): CliCommands {
	const simulated = settings.mode === 'simulated';
	const env: string[] = [];
	const flags: string[] = [
		`--dataset ${shellQuote(run.datasetPath ?? 'lexpilot.json')}`,
		`--run-id ${shellQuote(run.runId || 'run1')}`
	];

	if (simulated) {
		flags.push('--simulated');
	} else {
		const defaultURL = settings.defaults.baseURL.trim() || DEFAULT_BASE_URL;
		const roles = ROLES.map((r) => ({ role: r, ...settings.roles[r] }));
		const ownURL = (c: (typeof roles)[number]) => !c.useDefaultBaseURL && c.baseURL.trim() !== '';
		if (defaultURL !== DEFAULT_BASE_URL && roles.some((c) => !ownURL(c))) {
			env.push(`export OPENAI_BASE_URL=${shellQuote(defaultURL)}`);
		}
		// A key line where one is set or the provider needs one; local servers take none.
		const wantsKey = (key: string, preset: PresetId) =>
			key.trim() !== '' || PRESETS[preset].needsKey;
		if (
			roles.some((c) => c.useDefaultKey) &&
			wantsKey(settings.defaults.apiKey, settings.defaults.preset)
		) {
			env.push(`export OPENAI_API_KEY=${shellQuote(KEY_PLACEHOLDER)}`);
		}
		for (const c of roles) {
			const prefix = `LEXPILOT_${ENV_PREFIX[c.role]}`;
			if (ownURL(c)) env.push(`export ${prefix}_BASE_URL=${shellQuote(c.baseURL.trim())}`);
			if (!c.useDefaultKey && wantsKey(c.apiKey, ownURL(c) ? c.preset : settings.defaults.preset)) {
				env.push(`export ${prefix}_API_KEY=${shellQuote(KEY_PLACEHOLDER)}`);
			}
		}
		const model = settings.roles.evaluated.model.trim();
		flags.push(`--model ${shellQuote(model || 'MODEL_ID')}`);
		// A simulated run's user and judge are simulated: `--simulated` names them itself.
		const user = settings.roles.user.model.trim();
		const judge = settings.roles.judge.model.trim();
		if (user && user !== DEFAULT_USER_MODEL) flags.push(`--user-model ${shellQuote(user)}`);
		if (judge && judge !== DEFAULT_JUDGE_MODEL) flags.push(`--judge-model ${shellQuote(judge)}`);
	}
	if (run.limit) flags.push(`--limit ${run.limit}`);
	for (const key of Object.keys(SETTING_FLAGS) as (keyof Settings)[]) {
		if (settings.generation[key] !== DEFAULT_SETTINGS[key]) {
			flags.push(`${SETTING_FLAGS[key]} ${settings.generation[key]}`);
		}
	}
	if (settings.concurrency !== DEFAULT_CONCURRENCY) {
		flags.push(`--concurrency ${settings.concurrency}`);
	}

	const commands = cliStageCommands(run.stages?.length ? run.stages : ['gen']).map(
		(name) => `npm run lexpilot -- ${name} ${flags.join(' ')}`
	);
	return { env, commands, text: [...env, ...commands].join('\n') };
}
