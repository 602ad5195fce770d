/**
 * A report computed without the bootstrap, with intervals computed elsewhere (the browser's
 * statistics worker) put in place: the same `ci95` nesting as `computeReport` with its
 * `bootstrap` option gives.
 */
import {
	CI_LEVEL,
	bootstrapSettings,
	type BootstrapOptions,
	type RunIntervals
} from '../metrics/bootstrap';
import { reportRunKey } from '../names';
import type { ResultsReport } from './report';

/** `intervals` keyed by `run_id/model_dir`; a run without an entry keeps null intervals. */
export function withIntervals(
	report: ResultsReport,
	intervals: Record<string, RunIntervals>,
	options: BootstrapOptions = {}
): ResultsReport {
	const settings = bootstrapSettings(options);
	return {
		...report,
		runs: report.runs.map((run) => {
			const found = intervals[reportRunKey(run)];
			if (!found) return run;
			return {
				...run,
				ci95: found.ci95,
				by_class: Object.fromEntries(
					Object.entries(run.by_class).map(([cls, tree]) => [
						cls,
						{ ...tree, ci95: found.by_class[cls] ?? null }
					])
				)
			};
		}),
		bootstrap: { unit: 'case', method: 'percentile', level: CI_LEVEL, ...settings }
	};
}
