/**
 * What the Run page's Re-judge form becomes: the reasons it cannot start, or the judge's client
 * spec and identity. Only the judge is ever called (`rejudgeRun` refuses any other role), so
 * every role of the spec points at the judge's endpoint. The key is the Models page's judge key
 * when the endpoint is that page's judge endpoint, else none (a local server needs none).
 */
import type { RunKey } from '$lib/core/layout';
import { checkBaseUrl, publicBaseUrl } from '$lib/core/model/base-url';
import { runIdProblem } from '$lib/core/layout';
import { sameEndpoint } from '$lib/core/names';
import { ROLES, type Role } from '$lib/core/record-names';
import { SIMULATED_ENDPOINT } from '$lib/core/run-defaults';
import type { RoleEndpoint } from '$lib/core/model/types';
import { m } from '$lib/paraglide/messages';
import { resolveEndpoints } from './model-settings';
import type { ClientSpec, RunSources } from './run-request';

export interface RejudgeForm {
	source: RunKey | null;
	judgeModel: string;
	/** A base URL, or `simulated://offline` for the offline simulated judge. */
	judgeBaseURL: string;
	runId: string;
}

export function rejudgeProblems(sources: RunSources, form: RejudgeForm): string[] {
	const problems: string[] = [];
	if (!sources.dataset) problems.push(m.rejudge_problem_no_dataset());
	if (!form.source) problems.push(m.rejudge_problem_no_source());
	if (!form.judgeModel.trim()) problems.push(m.rejudge_problem_no_model());
	const url = form.judgeBaseURL.trim();
	if (url !== SIMULATED_ENDPOINT && !checkBaseUrl(url).ok) {
		problems.push(m.rejudge_problem_endpoint({ simulated: SIMULATED_ENDPOINT }));
	}
	if (!form.runId) problems.push(m.rejudge_problem_no_run_id());
	else if (runIdProblem(form.runId) !== null)
		problems.push(m.rejudge_problem_run_id({ runId: form.runId }));
	else if (form.source?.runId === form.runId) problems.push(m.rejudge_problem_same_run());
	return problems;
}

export interface RejudgeClient {
	spec: ClientSpec;
	/** The judge as the new manifest records it: model id and public base URL. */
	judge: { model: string; endpoint: string };
	keys: string[];
}

export function rejudgeClient(sources: RunSources, form: RejudgeForm): RejudgeClient {
	const model = form.judgeModel.trim();
	const baseURL = form.judgeBaseURL.trim();
	const simulated = baseURL === SIMULATED_ENDPOINT;
	const pageJudge = resolveEndpoints(sources.settings).judge;
	const apiKey = !simulated && sameEndpoint(pageJudge.baseURL, baseURL) ? pageJudge.apiKey : '';
	const endpoint: RoleEndpoint = { baseURL, apiKey, model };
	const keys = apiKey ? [apiKey] : [];
	return {
		spec: {
			simulated,
			endpoints: Object.fromEntries(ROLES.map((r) => [r, endpoint])) as Record<Role, RoleEndpoint>,
			settings: { ...sources.settings.generation },
			concurrency: sources.settings.concurrency,
			pack: sources.pack
		},
		judge: { model, endpoint: simulated ? SIMULATED_ENDPOINT : publicBaseUrl(baseURL, keys) },
		keys
	};
}

/** The Models page's judge, as the Re-judge form's first choice. */
export function rejudgeJudge(settings: {
	simulated: boolean;
	resolved: Record<Role, RoleEndpoint>;
}): { model: string; baseURL: string } {
	const { model, baseURL } = settings.resolved.judge;
	return { model, baseURL: settings.simulated ? SIMULATED_ENDPOINT : baseURL };
}
