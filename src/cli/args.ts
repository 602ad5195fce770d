/**
 * The PROTOCOL.md §8 options every generation command shares: flags, then environment variables
 * (as in the Python harness), then defaults. Flags beat the environment.
 */
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { HistoryFields } from '../lib/core/dataset/types';
import { UsageError } from '../lib/core/errors';
import { escapeControl } from '../lib/core/text/escape-control';
import { runIdProblem, unportableText } from '../lib/core/layout';
import { checkBaseUrl as checkUrl } from '../lib/core/model/base-url';
import type { RoleEndpoint } from '../lib/core/model/types';
import { ROLES, type Role } from '../lib/core/records';
import {
	DEFAULT_BASE_URL,
	DEFAULT_CONCURRENCY,
	DEFAULT_JUDGE_MODEL,
	DEFAULT_SETTINGS,
	DEFAULT_USER_MODEL,
	limited,
	SETTING_LIMITS,
	type NumberLimit,
	type SettingName,
	type Settings
} from '../lib/core/run-config';
import type { CliIo } from './types';
import { chooseDataset, DEFAULT_DATASET, type DatasetChoice } from './dataset-path';

/** The flags of every generation command, for `util.parseArgs`. */
export const GENERATION_OPTIONS = {
	model: { type: 'string' },
	'user-model': { type: 'string' },
	'judge-model': { type: 'string' },
	dataset: { type: 'string' },
	'output-root': { type: 'string' },
	'run-id': { type: 'string' },
	limit: { type: 'string' },
	temperature: { type: 'string' },
	'judge-temperature': { type: 'string' },
	'max-tokens': { type: 'string' },
	timeout: { type: 'string' },
	retries: { type: 'string' },
	concurrency: { type: 'string' },
	'complete-field': { type: 'string' },
	'underspecified-field': { type: 'string' },
	categories: { type: 'string' }
} as const;

/** Flag values as `util.parseArgs` returns them for `GENERATION_OPTIONS`. */
export type GenerationFlagValues = { [K in keyof typeof GENERATION_OPTIONS]?: string };

/** Where the canonical layout is written, relative to the working directory. */
export const DEFAULT_OUTPUT_ROOT = './lexpilot-output';

/** Everything a generation command needs, resolved and validated. Holds keys: never write it out. */
export interface GenerationOptions {
	/** Absolute path of the dataset file. */
	dataset: string;
	/** How the dataset was chosen (flag, LEXPILOT_DATASET or the default), for messages. */
	datasetChoice: DatasetChoice;
	/**
	 * Absolute path of the output root (the canonical layout lives under it).
	 * @default './lexpilot-output'
	 */
	outputRoot: string;
	/** The run id (required; checked by `runIdProblem`: the safe alphabet, portable). */
	runId: string;
	/** Only the first `limit` cases in file order; null for all. */
	limit: number | null;
	/** Generation settings, defaults from `DEFAULT_SETTINGS`. */
	settings: Settings;
	/** @default 4 */
	concurrency: number;
	/** Base URL, key and model of each role. */
	roles: Record<Role, RoleEndpoint>;
	/** History fields named on the command line; the rest is detected. */
	historyFields: Partial<HistoryFields>;
	/** Absolute path of a category map file, or null for the default map. */
	categoriesPath: string | null;
}

/** `0-2`, `above 0, at most 86400`: a setting's range in the help text. */
function range(name: SettingName): string {
	const { min, max, exclusiveMin } = SETTING_LIMITS[name];
	return exclusiveMin ? `above ${min}, at most ${max}` : `${min}-${max}`;
}

/** Help text for the shared options, for each command's `usage`. */
export const GENERATION_OPTIONS_HELP = `Options:
  --model ID               evaluated model (or LEXPILOT_MODEL); required, never chosen for you
  --user-model ID          user model, plays the client (or LEXPILOT_USER_MODEL) [${DEFAULT_USER_MODEL}]
  --judge-model ID         judge (or LEXPILOT_JUDGE_MODEL) [${DEFAULT_JUDGE_MODEL}]
  --dataset FILE           LexPilot dataset JSON [$LEXPILOT_DATASET, else ./${DEFAULT_DATASET}]
  --output-root DIR        where results are written [${DEFAULT_OUTPUT_ROOT}]
  --run-id NAME            run id, e.g. run1 (required; the same id resumes)
  --limit N                only the first N cases (${range('limit')})
  --temperature T          evaluated and user model, ${range('temperature')} [${DEFAULT_SETTINGS.temperature}]
  --judge-temperature T    judge, ${range('judge_temperature')} [${DEFAULT_SETTINGS.judge_temperature}]
  --max-tokens N           ${range('max_tokens')} [${DEFAULT_SETTINGS.max_tokens}]
  --timeout SECONDS        per call, ${range('timeout_s')}; a resume may change it [${DEFAULT_SETTINGS.timeout_s}]
  --retries N              per call, ${range('retries')}; a resume may change it [${DEFAULT_SETTINGS.retries}]
  --concurrency N          cases in parallel, ${range('concurrency')}; does not change results [${DEFAULT_CONCURRENCY}]
  --complete-field NAME    dataset field of the complete history (when not detected)
  --underspecified-field NAME  dataset field of the underspecified history
  --categories FILE        cause → class map JSON [built-in six classes]

Environment: OPENAI_BASE_URL, OPENAI_API_KEY; per role LEXPILOT_EVAL_BASE_URL/_API_KEY,
LEXPILOT_USER_BASE_URL/_API_KEY, LEXPILOT_JUDGE_BASE_URL/_API_KEY (each falls back to
OPENAI_*; no base URL at all means ${DEFAULT_BASE_URL}). Flags beat the environment.
`;

/** Parses the shared options of a generation command (no other flags, no positionals). */
export function parseGenerationArgs(
	args: string[],
	io: Pick<CliIo, 'env' | 'cwd'>
): GenerationOptions {
	const { values } = parseFlags(args, GENERATION_OPTIONS);
	return generationOptionsFrom(values, io);
}

/**
 * Resolves already parsed flag values; for commands that add flags of their own to
 * `GENERATION_OPTIONS` and call `parseArgs` themselves.
 */
export function generationOptionsFrom(
	flags: GenerationFlagValues,
	io: Pick<CliIo, 'env' | 'cwd'>
): GenerationOptions {
	const flag = (name: keyof typeof GENERATION_OPTIONS): string | undefined => {
		const v = flags[name];
		if (v !== undefined && v.trim() === '') throw new UsageError(`--${name} needs a value`);
		return v;
	};
	// An exported-but-empty variable (`export X=`) counts as unset, as shells users expect.
	const env = (name: string): string | undefined => {
		const v = io.env[name];
		return v === undefined || v.trim() === '' ? undefined : v.trim();
	};

	const datasetChoice = chooseDataset(flag('dataset'), env('LEXPILOT_DATASET'), io.cwd);
	const runId = flag('run-id');
	if (!runId) {
		throw new UsageError(
			'no run id: pass --run-id NAME, e.g. --run-id run1. Resuming and comparing runs hang on it; ' +
				'run the same id again to resume, use a new id for each independent repetition.'
		);
	}
	checkRunIdField(runId, '--run-id');

	const evaluatedModel = flag('model') ?? env('LEXPILOT_MODEL');
	if (!evaluatedModel) {
		throw new UsageError(
			'no evaluated model: pass --model MODEL_ID or set LEXPILOT_MODEL (no model is chosen automatically)'
		);
	}
	const models: Record<Role, string> = {
		evaluated: evaluatedModel,
		user: flag('user-model') ?? env('LEXPILOT_USER_MODEL') ?? DEFAULT_USER_MODEL,
		judge: flag('judge-model') ?? env('LEXPILOT_JUDGE_MODEL') ?? DEFAULT_JUDGE_MODEL
	};
	const prefix: Record<Role, string> = { evaluated: 'EVAL', user: 'USER', judge: 'JUDGE' };
	const roles = Object.fromEntries(
		ROLES.map((role) => {
			const urlVar = [`LEXPILOT_${prefix[role]}_BASE_URL`, 'OPENAI_BASE_URL'].find((n) => env(n));
			const baseURL = urlVar ? checkBaseUrl(env(urlVar)!, urlVar) : DEFAULT_BASE_URL;
			const apiKey = env(`LEXPILOT_${prefix[role]}_API_KEY`) ?? env('OPENAI_API_KEY') ?? '';
			return [role, { baseURL, apiKey, model: models[role] } satisfies RoleEndpoint];
		})
	) as Record<Role, RoleEndpoint>;

	const setting = (name: keyof Settings, flagName: keyof typeof GENERATION_OPTIONS) =>
		numberFlag(flagName, flag(flagName), DEFAULT_SETTINGS[name], name);
	const settings: Settings = {
		temperature: setting('temperature', 'temperature'),
		judge_temperature: setting('judge_temperature', 'judge-temperature'),
		max_tokens: setting('max_tokens', 'max-tokens'),
		timeout_s: setting('timeout_s', 'timeout'),
		retries: setting('retries', 'retries')
	};
	const limitRaw = flag('limit');
	const complete = flag('complete-field');
	const underspecified = flag('underspecified-field');
	const categories = flag('categories');

	return {
		dataset: datasetChoice.path,
		datasetChoice,
		outputRoot: resolve(io.cwd, flag('output-root') ?? DEFAULT_OUTPUT_ROOT),
		runId,
		limit: limitRaw === undefined ? null : numberFlag('limit', limitRaw, 0, 'limit'),
		settings,
		concurrency: numberFlag('concurrency', flag('concurrency'), DEFAULT_CONCURRENCY, 'concurrency'),
		roles,
		historyFields: {
			...(complete ? { complete } : {}),
			...(underspecified ? { underspecified } : {})
		},
		categoriesPath: categories ? resolve(io.cwd, categories) : null
	};
}

/**
 * Refuses a run id no run can take, naming where it was written: `--run-id`, or a plan file's
 * `run_id` (`--plan FILE: run_id`), so the message blames the field the user wrote.
 */
export function checkRunIdField(runId: string, field: string): void {
	const runIdRule = runIdProblem(runId);
	if (runIdRule === 'alphabet') {
		throw new UsageError(
			`${field} "${escapeControl(runId)}" cannot be used as a folder name: use letters, digits, ".", "_" and "-", ` +
				'starting with a letter or digit, at most 64 characters'
		);
	}
	if (runIdRule !== null) {
		throw new UsageError(
			`${field}: ${unportableText(runIdRule, runId)}; choose another run id (an output root ` +
				'or a bundle holding it could not be unpacked on Windows)'
		);
	}
}

/** The numeric flags of the CLI and the setting each one is held to. */
const NUMBER_FLAGS: Readonly<Record<string, SettingName>> = {
	limit: 'limit',
	temperature: 'temperature',
	'judge-temperature': 'judge_temperature',
	'max-tokens': 'max_tokens',
	timeout: 'timeout_s',
	retries: 'retries',
	concurrency: 'concurrency',
	repetitions: 'repetitions'
};

/**
 * `util.parseArgs`, strict, with one line of our own where it refuses a value that starts with
 * a dash (`--repetitions -1`): its text spans three lines and suggests `--repetitions=-XYZ`.
 * A numeric flag says its range, as `numberFlag` does; any other flag says it needs a value.
 */
export function parseFlags<const T extends NonNullable<ParseArgsConfig['options']>>(
	args: string[],
	options: T
) {
	try {
		return parseArgs({ args, options, strict: true });
	} catch (e) {
		if ((e as { code?: string } | null)?.code !== 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw e;
		const at = args.findIndex((arg, i) => {
			const name = arg.startsWith('--') ? arg.slice(2) : null;
			return (
				name !== null && options[name]?.type === 'string' && (args[i + 1]?.startsWith('-') ?? false)
			);
		});
		if (at === -1) throw e;
		const name = args[at].slice(2);
		const value = args[at + 1];
		const setting = NUMBER_FLAGS[name];
		if (setting) numberFlag(name, value, 0, setting);
		throw new UsageError(
			`--${name} needs a value; "${escapeControl(value)}" starts with "-" (write --${name}=${escapeControl(value)} if that is the value)`
		);
	}
}

/**
 * Parses a numeric flag strictly ("1e3", "0x10", "12abc" are refused) and checks it with the
 * setting's schema (`run-config.ts`, from `SETTING_LIMITS`); a UsageError names the flag and the
 * range. `fallback` when the flag is absent.
 */
export function numberFlag(
	name: string,
	raw: string | undefined,
	fallback: number,
	setting: SettingName
): number {
	if (raw === undefined) return fallback;
	const limit = SETTING_LIMITS[setting];
	const text = raw.trim();
	const pattern = limit.integer ? /^-?\d+$/ : /^-?(\d+(\.\d*)?|\.\d+)$/;
	const value = Number(text);
	const kind = limit.integer ? 'a whole number' : 'a number';
	const range = describeRange(limit);
	if (!pattern.test(text) || !Number.isFinite(value)) {
		throw new UsageError(`--${name} must be ${kind}${range}, got "${escapeControl(raw)}"`);
	}
	if (!limited(setting).safeParse(value).success) {
		throw new UsageError(`--${name} must be ${kind}${range}, got ${escapeControl(raw)}`);
	}
	return value;
}

/** ` from 0 to 2`, ` above 0 and at most 86400`: the range of a setting, for its message. */
export function describeRange({ min, max, exclusiveMin }: NumberLimit): string {
	return exclusiveMin ? ` above ${min} and at most ${max}` : ` from ${min} to ${max}`;
}

function checkBaseUrl(value: string, variable: string): string {
	// One rule for the CLI and the browser: an http(s) URL without user-info (core/model/base-url).
	const checked = checkUrl(value);
	if (!checked.ok) throw new UsageError(`${variable} ${checked.problem}.`);
	return checked.url;
}
