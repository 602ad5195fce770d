/** Reading an output root and reporting its metrics, shared by the CLI and the browser. */
export { describePath, memorySource, type LayoutSource } from './source';
export {
	checkCrossStage,
	checkStage,
	type EvalRecords,
	type StageCompleteness
} from './completeness';
export { computeRunMetrics, type RunMetrics, type RunMetricsOptions } from './run-metrics';
export {
	computeReport,
	reportJson,
	type BootstrapDescription,
	type ClassReport,
	type GroupReport,
	type ReportOptions,
	type ResultsReport,
	type RunReport
} from './report';
export { formatReport } from './format-report';
export {
	runStatistics,
	scoredStages,
	type RunStatistics,
	type ScopeStatistics
} from './run-statistics';
export {
	compareLoaded,
	compareRuns,
	comparisonJson,
	comparisonProblem,
	type ClassComparison,
	type LoadedRun,
	type ComparedRun,
	type CompareOptions,
	type ComparisonReport,
	type RunRef
} from './compare';
export { formatComparison } from './format-compare';
export { withIntervals } from './with-intervals';
