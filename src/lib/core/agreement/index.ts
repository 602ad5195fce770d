/** Agreement of judges and people on judge decisions, and metrics corrected by it (README.md). */
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
