/** Reading an output root and reporting its metrics, shared by the CLI and the browser. */
export { memorySource } from './source';
export {
	computeReport,
	type GroupReport,
	type ReportOptions,
	type ResultsReport,
	type RunReport
} from './report';
export { compareLoaded, type LoadedRun, type ComparisonReport } from './compare';
