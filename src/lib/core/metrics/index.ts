/** Metrics of PROTOCOL.md §7 as pure functions over saved records, for the CLI and the browser charts. */
export * from './types';
export { accuracy, f1, orNull, qwk, rate } from './kernel';
export { lcaConfusion, lcaFromConfusion, lcaMetrics, type LcaConfusion } from './lca';
export { dcgMetrics } from './dcg';
export { ljpMetrics, quadraticWeightedKappa } from './ljp';
export { classOf, orderClasses, splitByClass } from './by-class';
export { aggregateTrees, type Aggregate } from './aggregate';
export { mean, sampleSd } from './moments';
export { comparabilityKey, groupComparable } from './groups';
export {
	buildCaseTable,
	ROW_WIDTH,
	type CaseRecords,
	type CaseTable,
	type ScoredStages
} from './case-table';
export { DEFAULT_SEED, Prng, scopeSeed } from './prng';
export {
	bootstrapRun,
	CI_LEVEL,
	DEFAULT_RESAMPLES,
	MIN_CASES,
	MIN_DEFINED_SHARE,
	type BootstrapOptions,
	type Interval,
	type RunIntervals
} from './bootstrap';
export { RATE_SLOTS, type RateTree } from './kernel';
export { pairedBootstrap, pairingProblem, type Difference, type PairedComparison } from './paired';
export {
	minimalDetectableDifference,
	pairedPower,
	runPower,
	type PairedPower,
	type PowerFigures,
	type RunPower
} from './power';
export { scopeSummary, type LjpConfusion, type ScopeCounts } from './confusion';
