/**
 * Why Start cannot run the Run form now, one sentence each: the form's own problems, a plan's,
 * a run id that holds another run, and a large dataset whose cases are still arriving.
 */
import type { StageName } from '$lib/core/engine/types';
import { m } from '$lib/paraglide/messages';
import { datasetState } from './dataset.svelte';
import type { PlanState } from './plan.svelte';
import { startProblems, type RunSources } from './run-request';
import type { SavedRun } from './saved-run';

export interface ProblemsInput {
	sources: RunSources;
	form: { runId: string; limit: number | null; stages: readonly StageName[] };
	plan: PlanState;
	savedRun: SavedRun | null;
}

export function formProblems({ sources, form, plan, savedRun }: ProblemsInput): string[] {
	const problems = startProblems(sources, form);
	// A plan's runs are checked by the engine, each against its own saved run.
	const runs = plan.isPlan(form.runId) ? plan.runsOf(form.runId) : null;
	if (runs?.problem) problems.push(runs.problem);
	if (savedRun?.kind === 'refused' && !runs) {
		problems.push(m.run_problem_run_id_taken({ runId: form.runId }));
	}
	// A large dataset's cases come to the page when this page asks (`loadCases`): say so
	// rather than "load a dataset".
	const head = datasetState.status === 'ready' ? datasetState.head : null;
	if (head && !datasetState.dataset) {
		const noDataset = m.run_problem_no_dataset();
		const at = problems.indexOf(noDataset);
		const waiting = datasetState.casesError
			? m.run_problem_cases_failed({ reason: datasetState.casesError })
			: m.run_problem_cases_arriving({
					done: (datasetState.casesLoading?.done ?? 0).toLocaleString('en'),
					total: head.caseCount.toLocaleString('en')
				});
		if (at >= 0) problems[at] = waiting;
	}
	return problems;
}
