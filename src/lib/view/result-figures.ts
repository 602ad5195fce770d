/**
 * The figures the Results page draws, and the HTML report over them: which metrics each figure
 * shows, its title and description, and the metric or setup the user picked for the figures
 * by cause class. Framework-free, so the page, the report and the tests build the same figures.
 */
import { VERDICTS } from '$lib/core/dataset/names';
import { DEFAULT_RESAMPLES } from '$lib/core/metrics/bootstrap';
import { DEFAULT_SEED } from '$lib/core/metrics/prng';
import { LJP_SETUPS, type LjpSetup } from '$lib/core/metrics/types';
import type { ResultsReport } from '$lib/core/results';
import {
	classFigure,
	DCG_METRICS,
	LCA_METRICS,
	LJP_MEASURES,
	LJP_SETUP_NAMES,
	ljpMetric,
	metricsFigure,
	runKeyOf,
	type Figure,
	type FigureContext,
	type LjpMeasure
} from './figures';
import { htmlReport } from './html-report';

/** What the user picked for the figures by cause class. */
export interface FigureChoice {
	/** An `LCA_METRICS` key. */
	lcaClass: string;
	/** A `DCG_METRICS` key. */
	dcgClass: string;
	ljpSetup: LjpSetup;
	ljpMeasure: LjpMeasure;
}

export const DEFAULT_FIGURE_CHOICE: Readonly<FigureChoice> = {
	lcaClass: 'macro_f1',
	dcgClass: 'success_rate',
	ljpSetup: 'direct',
	ljpMeasure: 'qwk'
};

/** The choices each class figure offers, as pickers list them. */
export const CHOICE_OPTIONS = {
	lcaClass: LCA_METRICS.map((m) => ({ value: m.key, label: m.label })),
	dcgClass: DCG_METRICS.map((m) => ({ value: m.key, label: m.label })),
	ljpSetup: LJP_SETUPS.map((s) => ({ value: s, label: LJP_SETUP_NAMES[s] })),
	ljpMeasure: LJP_MEASURES.map((m) => ({ value: m.key, label: m.label }))
} as const;

/** A choice with every unknown value (a hand-edited link) replaced by its default. */
export function checkedChoice(choice: Partial<Record<keyof FigureChoice, string>>): FigureChoice {
	const pick = <K extends keyof FigureChoice>(key: K): FigureChoice[K] => {
		const known = CHOICE_OPTIONS[key].some((o) => o.value === choice[key]);
		return (known ? choice[key] : DEFAULT_FIGURE_CHOICE[key]) as FigureChoice[K];
	};
	return {
		lcaClass: pick('lcaClass'),
		dcgClass: pick('dcgClass'),
		ljpSetup: pick('ljpSetup'),
		ljpMeasure: pick('ljpMeasure')
	};
}

/** The seven figures of the page, in page order. */
export type ResultFigures = Record<
	'lca' | 'lcaClass' | 'dcg' | 'dcgClass' | 'ljpQwk' | 'ljpAcc' | 'ljpClass',
	Figure
>;

/** What the two kinds of uncertainty mean, under the figures and in the report. */
export const UNCERTAINTY = [
	`Brackets [low, high]: 95% case-bootstrap interval of one run: how much the figure could move on another sample of cases like these (${DEFAULT_RESAMPLES.toLocaleString('en')} resamples of whole cases, seed ${DEFAULT_SEED}).`,
	'± SD: sample SD over comparable repeated runs: how much it moves when the same model runs again on the same cases. Neither includes the other.'
];

export function resultFigures(ctx: FigureContext, choice: FigureChoice): ResultFigures {
	const per = ctx.mode === 'groups' ? 'mean ± SD over comparable runs' : 'per run';
	const lcaMetric = LCA_METRICS.find((m) => m.key === choice.lcaClass) ?? LCA_METRICS[0];
	const dcgMetric = DCG_METRICS.find((m) => m.key === choice.dcgClass) ?? DCG_METRICS[0];
	const ljpClass = ljpMetric(choice.ljpSetup, choice.ljpMeasure);
	const setups = LJP_SETUPS.map((s) => LJP_SETUP_NAMES[s]);
	return {
		lca: metricsFigure(
			ctx,
			{
				id: 'lca-overall',
				title: 'LCA: ask or answer',
				description: `Underspecified history = positive, a clarifying question = predicted positive; ${per}, over both histories of every case.`
			},
			LCA_METRICS
		),
		lcaClass: classFigure(
			ctx,
			{
				id: 'lca-class',
				title: `LCA ${lcaMetric.label} by cause class`,
				description: `${lcaMetric.label} within each class of the run's category map; ${per}.`
			},
			lcaMetric
		),
		dcg: metricsFigure(
			ctx,
			{
				id: 'dcg-overall',
				title: 'DCG: do the questions find the missing facts?',
				description: `Success: round 1 or round 2 question judged 是, over all selected cases; each round's own rate beside it; ${per}.`
			},
			DCG_METRICS
		),
		dcgClass: classFigure(
			ctx,
			{
				id: 'dcg-class',
				title: `DCG ${dcgMetric.label.toLowerCase()} rate by cause class`,
				description: `Over the underspecified cases of each class; ${per}.`
			},
			dcgMetric
		),
		ljpQwk: metricsFigure(
			ctx,
			{
				id: 'ljp-qwk',
				title: 'LJP: quadratic weighted kappa by setup',
				description: `Claim-level agreement with the gold verdicts (支持 = 0, 部分支持 = 1, 驳回 = 2); ${per}.`
			},
			LJP_SETUPS.map((s) => ljpMetric(s, 'qwk')),
			setups
		),
		ljpAcc: metricsFigure(
			ctx,
			{
				id: 'ljp-accuracy',
				title: 'LJP: accuracy by setup',
				description: `Claims whose predicted verdict equals the gold verdict; ${per}.`
			},
			LJP_SETUPS.map((s) => ljpMetric(s, 'accuracy')),
			setups
		),
		ljpClass: classFigure(
			ctx,
			{
				id: 'ljp-class',
				title: `LJP ${ljpClass.label} by cause class`,
				description: `${ljpClass.label} over the claims of each class; ${per}.`
			},
			ljpClass
		)
	};
}

/** The report's notes, each naming its run or group, then its warnings. */
export function reportNotes(report: ResultsReport): string[] {
	return [
		...report.runs.flatMap((r) => r.notes.map((n) => `${r.model} · ${r.run_id}: ${n}`)),
		...report.groups.flatMap((g) =>
			g.notes.map((n) => `${g.model} (${g.run_ids.join(', ')}): ${n}`)
		),
		...report.warnings
	];
}

export interface ResultsHtmlInput {
	/** The report as drawn (`drawnReport`). */
	report: ResultsReport;
	figures: ResultFigures;
	/** Whether a run (`run_id/model_dir`) was made by the simulated provider. */
	simulated: (runKey: string) => boolean;
	/** The page's notes and group differences, in that order. */
	notes: string[];
	/** ISO 8601. */
	generatedAt: string;
}

/** The self-contained HTML report of what the page shows. */
export function resultsHtml(input: ResultsHtmlInput): string {
	const { report } = input;
	const label = (r: ResultsReport['runs'][number]) => `${r.model} · ${r.run_id}`;
	return htmlReport({
		title: 'LexPilot results',
		generatedAt: input.generatedAt,
		runs: report.runs.map((r) => ({
			label: label(r),
			detail: `${r.counts.cases} cases${r.counts.claims === null ? '' : `, ${r.counts.claims} claims`}${input.simulated(runKeyOf(r)) ? ' · simulated' : ''}${r.partial ? ' · partial' : ''}`
		})),
		figures: Object.values(input.figures),
		confusion: report.runs.flatMap((r) =>
			LJP_SETUPS.flatMap((s) => {
				const matrix = r.ljp_confusion[s];
				return matrix ? [{ label: label(r), setup: LJP_SETUP_NAMES[s], matrix }] : [];
			})
		),
		verdicts: VERDICTS,
		uncertainty: UNCERTAINTY,
		notes: input.notes
	});
}
