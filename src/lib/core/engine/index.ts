export type { RunStagesOptions, RunStagesResult, StageReport } from './run-stages';
export { DEFAULT_CONCURRENCY } from '../run-config';
export { buildManifest, DEFAULT_TOOL, type ManifestInputs, type ToolInfo } from './manifest';
export * from './types';
export { RunTracker } from './run-progress';
export { planRunIds, planId } from './plan';
