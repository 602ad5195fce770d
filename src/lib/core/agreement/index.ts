/** Agreement of judges and people on judge decisions, and metrics corrected by it (README.md). Without zod: the review line schema (`review-line.ts`) and review files (`merge.ts`) are imported from their modules. */
export type { Corrected } from './corrected';
export { listDecisions, type Decision, type DecisionId } from './decisions';
export { sampleDecisions } from './sample';
export { DCG_CORRECTED, LCA_CORRECTED, type CorrectedMetrics } from './corrected-metrics';
export { LJP_CORRECTED } from './corrected-ljp';
export { reviewReport, type ReviewReport, type ScopeAgreement } from './report';
