/**
 * Turns what the pages hold (dataset, model settings, prompt pack, the Run form) into a
 * `RunRequest`, or into the reasons it cannot start. A resumed run takes what decides its
 * results from its manifest instead (models, endpoints, temperatures, max tokens, selected
 * cases), so it continues exactly as it began; keys (never saved with a run) and the operational
 * settings (timeout, retries, concurrency: a rate-limited run resumes with more patience, PROTOCOL.md
 * §6) come from the Models page.
 */
import type { RunDataset } from '$lib/core/engine/types';
import { STAGE_NAMES, type StageName } from '$lib/core/protocol';
import { runIdProblem } from '$lib/core/layout';
import type { RoleEndpoint } from '$lib/core/model/types';
import { sameEndpoint } from '$lib/core/names';
import type { PromptPack } from '$lib/core/prompts/pack';
import { ROLES, type Role } from '$lib/core/record-names';
import type { Manifest, Settings } from '$lib/core/records';
import { OPERATIONAL_SETTINGS, SETTING_LIMITS, withinLimit } from '$lib/core/run-defaults';
import { m } from '$lib/paraglide/messages';
import type {
	ClientFactory,
	ClientHooks,
	ClientSpec,
	RunRequest
} from '$lib/adapters/workers/run-controller';
import {
	resolveEndpoints,
	runIdentity,
	settingsProblems,
	type ModelSettings
} from './model-settings';
import type { RunPlan } from '$lib/core/control/run-plans';
import { blockedPortProblems } from './blocked-port';

/** What the Run form asks. */
export interface RunForm {
	runId: string;
	/** First `limit` cases; null for every case. */
	limit: number | null;
	stages: readonly StageName[];
}

/** The parts of the app a run is built from. */
export interface RunSources {
	dataset: RunDataset | null;
	datasetName: string | null;
	settings: ModelSettings;
	pack: PromptPack;
}

/** Why `form` cannot start now, one sentence each naming what to change; empty when it can. */
export function startProblems(sources: RunSources, form: RunForm): string[] {
	const problems: string[] = [];
	if (!sources.dataset) problems.push(m.run_problem_no_dataset());
	for (const p of settingsProblems(sources.settings)) {
		problems.push(m.run_problem_models({ message: p.message }));
	}
	if (sources.settings.mode === 'api')
		problems.push(...blockedPortProblems(resolveEndpoints(sources.settings)));
	const runIdRule = runIdProblem(form.runId);
	if (runIdRule === 'alphabet') {
		problems.push(
			form.runId ? m.run_problem_run_id_bad({ runId: form.runId }) : m.run_problem_run_id_empty()
		);
	} else if (runIdRule === 'reserved') {
		problems.push(m.run_problem_run_id_reserved({ runId: form.runId }));
	} else if (runIdRule !== null) {
		// A run id never starts with a dot (the alphabet), so this is one ending in one.
		problems.push(m.run_problem_run_id_trailing_dot({ runId: form.runId }));
	}
	if (form.limit !== null && !withinLimit(form.limit, SETTING_LIMITS.limit)) {
		problems.push(m.run_problem_limit({ max: SETTING_LIMITS.limit.max }));
	}
	if (form.stages.length === 0) problems.push(m.run_problem_no_stage());
	return problems;
}

/** Stages in protocol order, whatever order they were ticked in. */
export function orderStages(stages: Iterable<StageName>): StageName[] {
	const chosen = new Set(stages);
	return STAGE_NAMES.filter((s) => chosen.has(s));
}

/** The request for a new run (or a same-id continuation) from the current pages. */
export function newRunRequest(
	sources: RunSources,
	form: RunForm,
	makeClient: ClientFactory
): RunRequest {
	const problems = startProblems(sources, form);
	if (problems.length > 0 || !sources.dataset) throw new Error(problems.join(' '));
	const s = sources.settings;
	const identity = runIdentity(s);
	const endpoints = resolveEndpoints(s);
	return {
		dataset: sources.dataset,
		datasetName: sources.datasetName ?? 'dataset.json',
		runId: form.runId,
		limit: form.limit,
		stages: orderStages(form.stages),
		models: identity.models,
		endpoints: identity.endpoints,
		settings: { ...s.generation },
		concurrency: s.concurrency,
		pack: sources.pack,
		keys: identity.simulated ? [] : keysOf(endpoints),
		...client(makeClient, {
			simulated: identity.simulated,
			endpoints,
			settings: { ...s.generation },
			concurrency: s.concurrency,
			pack: sources.pack
		})
	};
}

/** The client of a request, and what it is built from (for the run's worker). */
function client(
	makeClient: ClientFactory,
	spec: ClientSpec
): Pick<RunRequest, 'makeClient' | 'clientSpec'> {
	return { makeClient: makeClient(spec), clientSpec: spec };
}

function keysOf(endpoints: Record<Role, RoleEndpoint>): string[] {
	return [...new Set(ROLES.map((r) => endpoints[r].apiKey).filter((k) => k.length > 0))];
}

/**
 * The key for each role of a saved run: the Models page's key for that role when it points at
 * the same base URL, else the default endpoint's when that one matches, else none.
 */
export function keysForManifest(settings: ModelSettings, manifest: Manifest): Record<Role, string> {
	const resolved = resolveEndpoints(settings);
	const defaultURL = settings.defaults.baseURL.trim();
	return Object.fromEntries(
		ROLES.map((r) => {
			const saved = manifest.endpoints[r];
			if (sameEndpoint(resolved[r].baseURL, saved)) return [r, resolved[r].apiKey];
			if (defaultURL && sameEndpoint(defaultURL, saved))
				return [r, settings.defaults.apiKey.trim()];
			return [r, ''];
		})
	) as Record<Role, string>;
}

export interface ResumeCheck {
	/** Why it cannot resume now; empty when it can. */
	problems: string[];
	/** Roles of a real run for which no key is entered (fine for servers that take none). */
	missingKeys: Role[];
}

/** Whether a saved run can be resumed with what the pages hold now. */
export function checkResume(
	sources: RunSources,
	manifest: Manifest,
	plan: RunPlan,
	promptsSha256: string | null
): ResumeCheck {
	const problems: string[] = [];
	const d = sources.dataset;
	if (!d) {
		problems.push(m.run_resume_load_dataset({ file: plan.datasetName }));
	} else if (d.sha256 !== manifest.dataset.sha256) {
		problems.push(
			m.run_resume_other_dataset({
				now: d.sha256.slice(0, 12),
				file: plan.datasetName,
				saved: manifest.dataset.sha256.slice(0, 12)
			})
		);
	} else if (d.cases.length < manifest.dataset.selected_case_numbers.length) {
		problems.push(m.run_resume_fewer_cases());
	}
	if (promptsSha256 !== null && promptsSha256 !== manifest.prompts_sha256) {
		problems.push(
			m.run_resume_other_pack({
				saved: manifest.prompts_sha256.slice(0, 12),
				now: promptsSha256.slice(0, 12)
			})
		);
	}
	// Only the operational settings come from the Models page on resume; the rest is the manifest's.
	const operational = new Set<string>([
		...OPERATIONAL_SETTINGS.map((k) => `generation.${k}`),
		'concurrency'
	]);
	for (const p of settingsProblems(sources.settings)) {
		if (operational.has(p.field)) problems.push(m.run_problem_models({ message: p.message }));
	}
	const keys = keysForManifest(sources.settings, manifest);
	const missingKeys = manifest.simulated ? [] : ROLES.filter((r) => !keys[r]);
	return { problems, missingKeys };
}

/**
 * The request that continues a saved run as it began, with the Models page's timeout, retries
 * and concurrency (recorded in the manifest's `operational_history` when they changed).
 */
export function resumeRequest(
	sources: RunSources,
	manifest: Manifest,
	plan: RunPlan,
	makeClient: ClientFactory
): RunRequest {
	if (!sources.dataset) throw new Error('no dataset loaded');
	const keys = keysForManifest(sources.settings, manifest);
	const endpoints = Object.fromEntries(
		ROLES.map((r) => [
			r,
			{ baseURL: manifest.endpoints[r], apiKey: keys[r], model: manifest.models[r] }
		])
	) as Record<Role, RoleEndpoint>;
	const selected = manifest.dataset.selected_case_numbers.length;
	const page = sources.settings;
	const settings: Settings = {
		...manifest.settings,
		timeout_s: page.generation.timeout_s,
		retries: page.generation.retries
	};
	return {
		dataset: sources.dataset,
		datasetName: plan.datasetName,
		runId: manifest.run_id,
		limit: selected < sources.dataset.cases.length ? selected : null,
		stages: orderStages(plan.stages),
		models: { ...manifest.models },
		endpoints: { ...manifest.endpoints },
		settings,
		concurrency: page.concurrency,
		pack: sources.pack,
		keys: keysOf(endpoints),
		...client(makeClient, {
			simulated: manifest.simulated,
			endpoints,
			settings: { ...settings },
			concurrency: page.concurrency,
			pack: sources.pack
		})
	};
}

/** Passed to `makeClient`; re-exported for the browser factory. */
export type { ClientFactory, ClientHooks, ClientSpec };
