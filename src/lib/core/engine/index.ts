export {
	runStages,
	type RunStagesOptions,
	type RunStagesResult,
	type StageReport
} from './run-stages';
export { DEFAULT_CONCURRENCY } from '../run-config';
export { RunProgress } from './progress';
export { buildManifest, DEFAULT_TOOL, type ManifestInputs, type ToolInfo } from './manifest';
export { QUESTION_BUDGET } from '../protocol';
export * from './types';
export { runAll, RUN_ALL_STAGES, type RunAllOptions } from './run-all';
export { RunTracker } from './run-progress';
export {
	planRuns,
	planRunIds,
	planId,
	type PlanSpec,
	type PlanModel,
	type PlanRole,
	type PlannedRun
} from './plan';
