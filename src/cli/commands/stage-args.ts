/**
 * The arguments of a generation command (the stage commands, `run`, `rejudge` and run plans):
 * the shared options of `args.ts` plus `--simulated` and `--prompts`, resolved into the models
 * and endpoints the manifest records and the keys to hide.
 */
import type { RoleEndpoint } from '../../lib/core/model/types';
import { publicBaseUrl } from '../../lib/core/model/base-url';
import { ROLES, type Role } from '../../lib/core/records';
import {
	SIMULATED_ENDPOINT,
	SIMULATED_MODEL,
	SIMULATED_ROLE_MODELS
} from '../../lib/core/run-config';
import { UsageError } from '../../lib/core/errors';
import {
	GENERATION_OPTIONS,
	generationOptionsFrom,
	parseFlags,
	type GenerationFlagValues,
	type GenerationOptions
} from '../args';
import type { CliIo } from '../types';

export const OPTIONS = {
	...GENERATION_OPTIONS,
	simulated: { type: 'boolean' },
	prompts: { type: 'string' }
} as const;

/** A generation command's arguments, resolved: what the run will record and use. */
export interface StageArgs {
	options: GenerationOptions;
	simulated: boolean;
	/** The dataset path as typed (or the default file's name), for messages. */
	datasetLabel: string;
	/** `--prompts FILE` as typed, if given. */
	promptsPath: string | undefined;
	/** Model ids per role, as the manifest records them. */
	models: Record<Role, string>;
	/**
	 * Base URLs per role as the manifest records them: query values and keys hidden
	 * (`publicBaseUrl`), `simulated://offline` when simulated.
	 */
	endpoints: Record<Role, string>;
	/** The keys given, to be hidden wherever a URL or an error is shown. */
	keys: string[];
}

/** The values of {@link OPTIONS} as `parseArgs` gives them. */
export type StageValues = GenerationFlagValues & { simulated?: boolean; prompts?: string };

/**
 * Parses the arguments of a generation command (after its name): the shared options of
 * `args.ts` plus `--simulated` and `--prompts`. Throws a UsageError naming the bad flag.
 */
export function parseStageArgs(args: string[], io: Pick<CliIo, 'env' | 'cwd'>): StageArgs {
	const { values } = parseFlags(args, OPTIONS);
	return stageArgsFrom(values, io);
}

/**
 * The shared options of every generation command (the stage commands and `run`), resolved;
 * `resolve` is `generationOptionsFrom`, which `run` wraps to explain its `--concurrency`.
 */
export function stageArgsFrom(
	values: StageValues,
	io: Pick<CliIo, 'env' | 'cwd'>,
	resolveOptions: typeof generationOptionsFrom = generationOptionsFrom
): StageArgs {
	const simulated = values.simulated === true;
	// LEXPILOT_MODEL names a real model; a simulated run must not borrow its folder.
	const options = resolveOptions(
		simulated && values.model === undefined ? { ...values, model: SIMULATED_MODEL } : values,
		io
	);
	if (simulated) {
		for (const r of ['user', 'judge'] as const) {
			// The simulated provider plays these roles: a real model id would be a false record.
			if (values[`${r}-model`] !== undefined) {
				throw new UsageError(
					`--${r}-model names a real model; a --simulated run's ${r} is "${SIMULATED_ROLE_MODELS[r]}"`
				);
			}
			options.roles[r] = { ...options.roles[r], model: SIMULATED_ROLE_MODELS[r] };
		}
	}
	const keys = ROLES.map((r) => options.roles[r].apiKey).filter((k) => k.length > 0);
	const args = {
		options,
		simulated,
		datasetLabel: options.datasetChoice.label,
		promptsPath: values.prompts
	};
	return argsWithRoles(args, options.roles, keys);
}

/**
 * `args` with these roles (a run plan's model, its own endpoint): the models, and the endpoints
 * as the manifest records them (no query values, no `keys`), recomputed from them.
 */
export function argsWithRoles(
	args: Omit<StageArgs, 'models' | 'endpoints' | 'keys'>,
	roles: Record<Role, RoleEndpoint>,
	keys: string[]
): StageArgs {
	const models = Object.fromEntries(ROLES.map((r) => [r, roles[r].model])) as Record<Role, string>;
	// The manifest (which bundles ship) records each base URL without query values or keys.
	const endpoints = Object.fromEntries(
		ROLES.map((r) => [
			r,
			args.simulated ? SIMULATED_ENDPOINT : publicBaseUrl(roles[r].baseURL, keys)
		])
	) as Record<Role, string>;
	return { ...args, options: { ...args.options, roles }, models, endpoints, keys };
}
