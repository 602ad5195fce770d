/**
 * The figures the Results page draws (the HTML report over them is `results-html.ts`): which metrics each figure
 * shows, its title and description, and the metric or setup the user picked for the figures
 * by cause class. Framework-free, so the page, the report and the tests build the same figures.
 */
import { formatCount } from '$lib/core/report/format';
import { DEFAULT_RESAMPLES } from '$lib/core/metrics/resamples';
import { DEFAULT_SEED } from '$lib/core/metrics/prng';
import { LJP_SETUPS } from '$lib/core/metrics/types';
import type { ResultsReport } from '$lib/core/results';
import { m } from '$lib/paraglide/messages';
import type { Locale } from '$lib/paraglide/runtime';
import { classFigure, metricsFigure, type Figure, type FigureContext } from './figures';
import {
	dcgMetrics,
	LCA_METRICS,
	LJP_MEASURE_KEYS,
	LJP_SETUP_NAMES,
	ljpMeasureName,
	ljpMetric
} from './figure-metrics';
import { coreNote } from './core-notes';
import type { CoreText } from '$lib/core/said';

export { checkedChoice, DEFAULT_FIGURE_CHOICE, type FigureChoice } from './figure-choice';
import type { FigureChoice } from './figure-choice';

/** The choices each class figure offers, as pickers list them, named in `locale`. */
export function choiceOptions(locale?: Locale) {
	return {
		lcaClass: LCA_METRICS.map((metric) => ({ value: metric.key, label: metric.label })),
		dcgClass: dcgMetrics(locale).map((metric) => ({ value: metric.key, label: metric.label })),
		ljpSetup: LJP_SETUPS.map((s) => ({ value: s as string, label: LJP_SETUP_NAMES[s] })),
		ljpMeasure: LJP_MEASURE_KEYS.map((k) => ({
			value: k as string,
			label: ljpMeasureName(k, locale)
		}))
	};
}

/** The seven figures of the page, in page order. */
export type ResultFigures = Record<
	'lca' | 'lcaClass' | 'dcg' | 'dcgClass' | 'ljpQwk' | 'ljpAcc' | 'ljpClass',
	Figure
>;

/** What the two kinds of uncertainty mean, under the figures and in the report. */
export function uncertainty(locale?: Locale): string[] {
	const resamples = formatCount(DEFAULT_RESAMPLES);
	return [
		m.results_uncertainty_ci({ resamples, seed: DEFAULT_SEED }, { locale }),
		m.results_uncertainty_sd({}, { locale })
	];
}

export function resultFigures(ctx: FigureContext, choice: FigureChoice): ResultFigures {
	const o = { locale: ctx.locale };
	const per = ctx.mode === 'groups' ? m.results_per_groups({}, o) : m.results_per_run({}, o);
	const dcg = dcgMetrics(ctx.locale);
	const lcaMetric = LCA_METRICS.find((x) => x.key === choice.lcaClass) ?? LCA_METRICS[0];
	const dcgMetric = dcg.find((x) => x.key === choice.dcgClass) ?? dcg[0];
	const ljpClass = ljpMetric(choice.ljpSetup, choice.ljpMeasure, ctx.locale);
	const setups = LJP_SETUPS.map((s) => LJP_SETUP_NAMES[s]);
	const text = (id: string, title: string, description: string) => ({ id, title, description });
	return {
		lca: metricsFigure(
			ctx,
			text('lca-overall', m.results_fig_lca_title({}, o), m.results_fig_lca_desc({ per }, o)),
			LCA_METRICS
		),
		lcaClass: classFigure(
			ctx,
			text(
				'lca-class',
				m.results_fig_lca_class_title({ metric: lcaMetric.label }, o),
				m.results_fig_lca_class_desc({ metric: lcaMetric.label, per }, o)
			),
			lcaMetric
		),
		dcg: metricsFigure(
			ctx,
			text('dcg-overall', m.results_fig_dcg_title({}, o), m.results_fig_dcg_desc({ per }, o)),
			dcg
		),
		dcgClass: classFigure(
			ctx,
			text(
				'dcg-class',
				m.results_fig_dcg_class_title({ rate: dcgMetric.label.toLowerCase() }, o),
				m.results_fig_dcg_class_desc({ per }, o)
			),
			dcgMetric
		),
		ljpQwk: metricsFigure(
			ctx,
			text('ljp-qwk', m.results_fig_ljp_qwk_title({}, o), m.results_fig_ljp_qwk_desc({ per }, o)),
			LJP_SETUPS.map((s) => ljpMetric(s, 'qwk', ctx.locale)),
			setups
		),
		ljpAcc: metricsFigure(
			ctx,
			text(
				'ljp-accuracy',
				m.results_fig_ljp_acc_title({}, o),
				m.results_fig_ljp_acc_desc({ per }, o)
			),
			LJP_SETUPS.map((s) => ljpMetric(s, 'accuracy', ctx.locale)),
			setups
		),
		ljpClass: classFigure(
			ctx,
			text(
				'ljp-class',
				m.results_fig_ljp_class_title({ metric: ljpClass.label }, o),
				m.results_fig_ljp_class_desc({ metric: ljpClass.label, per }, o)
			),
			ljpClass
		)
	};
}

/**
 * The report's notes, each naming its run or group, then its warnings, in `locale` (the core's
 * coded notes said there by `coreNote`).
 */
export function reportNotes(report: ResultsReport, locale?: Locale): string[] {
	const o = { locale };
	const of = (who: string, note: CoreText) =>
		m.results_note_of({ who, note: coreNote(note, locale) }, o);
	return [
		...report.runs.flatMap((r) => r.notes.map((n) => of(`${r.model} · ${r.run_id}`, n))),
		...report.groups.flatMap((g) =>
			g.notes.map((n) =>
				of(m.results_group_label({ model: g.model, runs: g.run_ids.join(', ') }, o), n)
			)
		),
		...report.warnings.map((w) => coreNote(w, locale))
	];
}
