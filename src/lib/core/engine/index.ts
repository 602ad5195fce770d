export type { RunStagesOptions, RunStagesResult, StageReport } from './run-stages';
export { buildManifest } from './manifest';
export * from './types';
