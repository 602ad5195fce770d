/**
 * The metrics a figure can show, named in the interface language: the rows of the core's metric
 * table (`core/protocol/metrics.ts`) with their messages resolved, and where a stage's values
 * sit in a report's trees.
 */
import type { LjpSetup } from '$lib/core/metrics/types';
import {
	LJP_SETUP_NAMES,
	METRICS,
	metricsOf,
	stageOf,
	type MetricMessage,
	type MetricRow
} from '$lib/core/protocol/metrics';
import { m } from '$lib/paraglide/messages';
import type { FigureLocale, MetricRef, Stage } from './figure-types';

export { LJP_SETUP_NAMES, stageOf };

type Say = (inputs: Record<string, never>, options: { locale?: FigureLocale }) => string;
/** Every message the metric table names, resolved once (a key missing here fails the type check). */
const MESSAGES: Record<MetricMessage, Say> = {
	results_dcg_success: m.results_dcg_success,
	results_dcg_round1: m.results_dcg_round1,
	results_dcg_round2: m.results_dcg_round2,
	results_measure_accuracy: m.results_measure_accuracy,
	results_undef_macro_f1: m.results_undef_macro_f1,
	results_undef_f1_u: m.results_undef_f1_u,
	results_undef_f1_c: m.results_undef_f1_c,
	results_undef_acc_c: m.results_undef_acc_c,
	results_undef_acc_u: m.results_undef_acc_u,
	results_undef_qwk: m.results_undef_qwk,
	lb_col_lca_macro_f1: m.lb_col_lca_macro_f1,
	lb_col_lca_acc_c: m.lb_col_lca_acc_c,
	lb_col_lca_acc_u: m.lb_col_lca_acc_u,
	lb_col_dcg_success: m.lb_col_dcg_success,
	lb_col_ljp_direct_qwk: m.lb_col_ljp_direct_qwk,
	lb_col_ljp_gold_qwk: m.lb_col_ljp_gold_qwk,
	lb_col_ljp_interaction_qwk: m.lb_col_ljp_interaction_qwk
};

/** A message of the metric table in `locale`. */
export const metricMessage = (key: MetricMessage, locale?: FigureLocale): string =>
	MESSAGES[key]({}, { locale });

const isLjp = (stage: Stage): stage is LjpSetup => stage !== 'lca' && stage !== 'dcg';

/** What a rate alone is called: its message, else its symbol (`Success`, `Accuracy`, `QWK`). */
const measureName = (row: MetricRow, locale?: FigureLocale) =>
	row.label === null ? row.symbol : metricMessage(row.label, locale);

/** A row as a figure names it: `Macro-F1`, `Success`, `Direct QWK`, `Direct Accuracy`. */
export function metricRef(row: MetricRow, locale?: FigureLocale): MetricRef {
	const name = measureName(row, locale);
	return {
		stage: row.stage,
		key: row.key,
		label: isLjp(row.stage) ? `${LJP_SETUP_NAMES[row.stage]} ${name}` : name
	};
}

/** The rates of one stage, named in `locale`. */
export const stageMetrics = (stage: Stage, locale?: FigureLocale): MetricRef[] =>
	metricsOf(stage).map((row) => metricRef(row, locale));

export const LCA_METRICS: MetricRef[] = stageMetrics('lca');
/** The DCG rates, named in `locale`. */
export const dcgMetrics = (locale?: FigureLocale): MetricRef[] => stageMetrics('dcg', locale);

export const LJP_MEASURE_KEYS = ['qwk', 'accuracy'] as const;
export type LjpMeasure = (typeof LJP_MEASURE_KEYS)[number];

const rowOf = (stage: Stage, key: string) =>
	METRICS.find((row) => row.stage === stage && row.key === key)!;

/** `QWK` (the paper's term) or accuracy in `locale`. */
export const ljpMeasureName = (measure: LjpMeasure, locale?: FigureLocale): string =>
	measureName(rowOf('direct', measure), locale);

export const ljpMetric = (setup: LjpSetup, measure: LjpMeasure, locale?: FigureLocale) =>
	metricRef(rowOf(setup, measure), locale);

/** Why a rate can be undefined, in `locale`; null when only a zero denominator can make it so. */
export function undefinedWhy(stage: Stage, key: string, locale?: FigureLocale): string | null {
	const why = rowOf(stage, key).undefinedWhy;
	return why === null ? null : metricMessage(why, locale);
}

/** The full name the comparison table gives a rate: `LCA Macro-F1`, `DCG Success`, `LJP Direct QWK`. */
export function rateName(stage: Stage, key: string, locale?: FigureLocale): string {
	const prefix = stage === 'lca' ? 'LCA' : stage === 'dcg' ? 'DCG' : 'LJP';
	return `${prefix} ${metricRef(rowOf(stage, key), locale).label}`;
}
