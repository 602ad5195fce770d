/**
 * The runs of `run --model A --model B --repetitions R` or `run --plan FILE`: each one's
 * arguments resolved exactly as a single `run` resolves them (flags, then the environment, then
 * defaults), with what the plan file sets per model on top. Flags beat the plan file, which beats
 * the environment.
 */
import { UsageError } from '../../lib/core/errors';
import {
	PLAN_MAX_MODELS,
	planRuns,
	type PlanModel,
	type PlanSpec,
	type PlannedRun
} from '../../lib/core/engine/plan';
import { checkBaseUrl } from '../../lib/core/model/base-url';
import type { RoleEndpoint } from '../../lib/core/model/types';
import { ROLES, type Role } from '../../lib/core/records';
import { SETTING_LIMITS } from '../../lib/core/run-config';
import { coded } from '../../lib/core/said';
import { escapeControl } from '../../lib/core/text/escape-control';
import { checkRunIdField, type generationOptionsFrom } from '../args';
import { argsWithRoles, stageArgsFrom, type StageArgs, type StageValues } from '../commands/stage';
import type { CliIo } from '../types';
import { readPlanFile, type PlanFile, type PlanRoleEntry } from './plan-file';
import { parseRepetitions } from './repetitions';

/** The flags of `run` that make a plan: `--model` repeated, `--repetitions`, `--plan`. */
export interface PlanFlags {
	models: string[];
	repetitions?: string;
	plan?: string;
}

/** One run of the plan, its arguments resolved. */
export interface PlanRunArgs extends PlannedRun {
	args: StageArgs;
}

export interface PlanArgs {
	spec: PlanSpec;
	runs: PlanRunArgs[];
}

/** Whether these flags ask for a plan; one `--model` and no `--repetitions` is a plain `run`. */
export function isPlan(flags: PlanFlags): boolean {
	return flags.plan !== undefined || flags.repetitions !== undefined || flags.models.length > 1;
}

/** Resolves a plan's runs; `UsageError` names the flag, or the plan file and field. */
export async function planArgsFrom(
	values: StageValues,
	plan: PlanFlags,
	io: Pick<CliIo, 'env' | 'cwd'>,
	resolveOptions: typeof generationOptionsFrom
): Promise<PlanArgs> {
	if (plan.plan !== undefined && plan.models.length > 0) {
		throw new UsageError(
			'--model and --plan: name the models in one place (the plan file, or --model)'
		);
	}
	// Before anything is read or resolved: thousands of --model flags are refused in one line.
	const given = plan.models.length;
	if (given > PLAN_MAX_MODELS) {
		throw new UsageError(
			`--model is given ${given} times: a plan runs at most ${PLAN_MAX_MODELS} models ` +
				`(${PLAN_MAX_MODELS * SETTING_LIMITS.repetitions.max} runs with --repetitions ${SETTING_LIMITS.repetitions.max}); ` +
				'split the models over several plans'
		);
	}
	const file: PlanFile | null =
		plan.plan === undefined ? null : await readPlanFile(plan.plan, io.cwd);
	const where = (field: string) => `--plan ${escapeControl(plan.plan ?? '')}: ${field}`;
	const entries = file
		? file.models.map((m) => (typeof m === 'string' ? { model: m } : m))
		: plan.models.map((model) => ({ model }) as NonNullable<PlanFile['user']>);
	// A model twice is named where it was written: the file and its field, or --model.
	const seen = new Set<string>();
	for (const [i, { model }] of entries.entries()) {
		if (seen.has(model)) {
			const place = file ? where(`models[${i}]`) : '--model';
			const quoted = JSON.stringify(model.slice(0, 200));
			throw new UsageError([coded('plan_model_twice', { place, model: quoted })]);
		}
		seen.add(model);
	}
	// The file's run id is refused as the file's field, not as a --run-id the user never typed.
	if (values['run-id'] === undefined && file?.run_id !== undefined) {
		checkRunIdField(file.run_id, where('run_id'));
	}
	const flags: StageValues = {
		...values,
		'run-id': values['run-id'] ?? file?.run_id,
		'user-model': values['user-model'] ?? file?.user?.model,
		'judge-model': values['judge-model'] ?? file?.judge?.model
	};
	const repetitions = parseRepetitions(plan.repetitions) ?? file?.repetitions;
	// Checks the run id (prefix) and finds the plan's shared roles as a single run would.
	// No --model: LEXPILOT_MODEL (or, simulated, the plain simulated model), as a single run.
	const shared = stageArgsFrom({ ...flags, model: entries[0]?.model }, io, resolveOptions);
	if (entries.length === 0) entries.push({ model: shared.models.evaluated });
	const role = (
		entry: PlanRoleEntry | undefined,
		base: RoleEndpoint,
		field: string
	): RoleEndpoint => (entry ? roleFrom(entry, base, io.env, where(field)) : base);
	// The file's endpoints and keys for the plan's roles; their model ids as resolved (a flag wins).
	const planUser = role(
		file?.user && { ...file.user, model: shared.models.user },
		shared.options.roles.user,
		'user'
	);
	const planJudge = role(
		file?.judge && { ...file.judge, model: shared.models.judge },
		shared.options.roles.judge,
		'judge'
	);
	const modelRoles = entries.map((entry, i): Record<Role, RoleEndpoint> => {
		const own = 'user' in entry || 'judge' in entry ? (entry as Record<string, PlanRoleEntry>) : {};
		return {
			evaluated: role(
				entry,
				{ ...shared.options.roles.evaluated, model: entry.model },
				`models[${i}]`
			),
			user: role(own.user, planUser, `models[${i}].user`),
			judge: role(own.judge, planJudge, `models[${i}].judge`)
		};
	});
	const endpointOf = (roles: Record<Role, RoleEndpoint>) =>
		argsWithRoles(shared, roles, shared.keys).endpoints;
	const spec: PlanSpec = {
		runId: shared.options.runId,
		...(repetitions !== undefined ? { repetitions } : {}),
		models: modelRoles.map((roles): PlanModel => {
			const endpoints = endpointOf(roles);
			return {
				evaluated: { model: roles.evaluated.model, endpoint: endpoints.evaluated },
				user: { model: roles.user.model, endpoint: endpoints.user },
				judge: { model: roles.judge.model, endpoint: endpoints.judge }
			};
		}),
		user: {
			model: planUser.model,
			endpoint: endpointOf({ ...modelRoles[0], user: planUser }).user
		},
		judge: {
			model: planJudge.model,
			endpoint: endpointOf({ ...modelRoles[0], judge: planJudge }).judge
		}
	};
	const planned = planRuns(spec);
	// Every key of the plan is hidden from every run's records, URLs and call log.
	const keys = [
		...new Set(modelRoles.flatMap((roles) => ROLES.map((r) => roles[r].apiKey)))
	].filter((k) => k.length > 0);
	return {
		spec,
		runs: planned.map((run) => ({
			...run,
			args: argsWithRoles(
				{ ...shared, options: { ...shared.options, runId: run.runId } },
				modelRoles[run.modelIndex],
				keys
			)
		}))
	};
}

/** A role of the plan file over the one the flags and environment give. */
function roleFrom(
	entry: PlanRoleEntry,
	base: RoleEndpoint,
	env: CliIo['env'],
	where: string
): RoleEndpoint {
	let baseURL = base.baseURL;
	let apiKey = base.apiKey;
	if (entry.base_url !== undefined) {
		const checked = checkBaseUrl(entry.base_url);
		if (!checked.ok) throw new UsageError(`${where}.base_url ${checked.problem}`);
		baseURL = checked.url;
		// Another server: the shared key is not sent there unless the plan names it.
		apiKey = '';
	}
	if (entry.api_key_env !== undefined) {
		// The environment's own variables only: `constructor` or `toString` is no inherited method.
		const name = entry.api_key_env;
		const raw: unknown = Object.hasOwn(env, name) ? env[name] : undefined;
		const value = typeof raw === 'string' ? raw.trim() : '';
		if (!value) {
			throw new UsageError(
				`${where}.api_key_env: the environment variable ${entry.api_key_env} is not set`
			);
		}
		apiKey = value;
	}
	return { baseURL, apiKey, model: entry.model };
}
