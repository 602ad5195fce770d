/**
 * The metrics a figure can show, by stage (LCA, DCG, the LJP setups), with their names, and
 * where a stage's values sit in a report's trees.
 */
import type { Interval } from '$lib/core/metrics/bootstrap';
import type { RateTree } from '$lib/core/metrics/kernel';
import type { LjpSetup, MetricsTree, StatTree } from '$lib/core/metrics/types';
import { m } from '$lib/paraglide/messages';
import type { FigureLocale, MetricRef, Stage } from './figure-types';

export const LCA_METRICS: MetricRef[] = [
	{ stage: 'lca', key: 'macro_f1', label: 'Macro-F1' },
	{ stage: 'lca', key: 'f1_u', label: 'F1_U' },
	{ stage: 'lca', key: 'f1_c', label: 'F1_C' },
	{ stage: 'lca', key: 'acc_c', label: 'Acc_C' },
	{ stage: 'lca', key: 'acc_u', label: 'Acc_U' }
];
/** The DCG rates, named in `locale`. */
export function dcgMetrics(locale?: FigureLocale): MetricRef[] {
	const o = { locale };
	return [
		{ stage: 'dcg', key: 'success_rate', label: m.results_dcg_success({}, o) },
		{ stage: 'dcg', key: 'round1_rate', label: m.results_dcg_round1({}, o) },
		{ stage: 'dcg', key: 'round2_rate', label: m.results_dcg_round2({}, o) }
	];
}
/** The paper's names of the LJP setups (the same in both languages). */
export const LJP_SETUP_NAMES: Record<LjpSetup, string> = {
	direct: 'Direct',
	gold: 'Gold',
	interaction: 'Interaction'
};
export const LJP_MEASURE_KEYS = ['qwk', 'accuracy'] as const;
export type LjpMeasure = (typeof LJP_MEASURE_KEYS)[number];

/** `QWK` (the paper's term) or accuracy in `locale`. */
export function ljpMeasureName(measure: LjpMeasure, locale?: FigureLocale): string {
	return measure === 'qwk' ? 'QWK' : m.results_measure_accuracy({}, { locale });
}

export function ljpMetric(setup: LjpSetup, measure: LjpMeasure, locale?: FigureLocale): MetricRef {
	const label = ljpMeasureName(measure, locale);
	return { stage: setup, key: measure, label: `${LJP_SETUP_NAMES[setup]} ${label}` };
}

export type Tree = MetricsTree | StatTree | RateTree<Interval>;

export function stageOf<V = number | null>(tree: Tree, stage: Stage): Record<string, V> | null {
	const obj = stage === 'lca' ? tree.lca : stage === 'dcg' ? tree.dcg : tree.ljp[stage];
	return obj as Record<string, V> | null;
}
