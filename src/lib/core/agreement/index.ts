/** Agreement of judges and people on judge decisions, and metrics corrected by it (README.md). Without zod: the review line schema (`review-line.ts`) and review files (`merge.ts`) are imported from their modules. */
export {
	MIN_RATED,
	agreement,
	cohenKappa,
	confusionMatrix,
	type Agreement,
	type BootstrapOptions,
	type Interval,
	type LabelPair
} from './kappa';
export {
	MIN_PER_SIDE,
	correctedEstimate,
	correctedRate,
	errorRates,
	roganGladen,
	type Corrected,
	type CorrectionStatus,
	type ErrorRates
} from './corrected';
export { listDecisions, type Decision, type DecisionId } from './decisions';
export { allocate, sampleDecisions, stratumOf } from './sample';
export {
	DCG_CORRECTED,
	LCA_CORRECTED,
	correctedMetrics,
	type CorrectedMetrics
} from './corrected-metrics';
export {
	LJP_CORRECTED,
	MIN_PER_VERDICT,
	correctedLjp,
	misclassification,
	type CorrectedLjp
} from './corrected-ljp';
export {
	reviewReport,
	type Disagreement,
	type RaterComparison,
	type ReviewReport,
	type ScopeAgreement
} from './report';
