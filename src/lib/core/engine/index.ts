export {
	runStages,
	DEFAULT_CONCURRENCY,
	type RunStagesOptions,
	type RunStagesResult,
	type StageReport
} from './run-stages';
export { RunProgress } from './progress';
export { buildManifest, DEFAULT_TOOL, type ManifestInputs, type ToolInfo } from './manifest';
export { QUESTION_BUDGET } from './stages/gen';
export * from './types';
