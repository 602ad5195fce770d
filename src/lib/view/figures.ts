/**
 * The figures of the Results page, built from a `computeReport` result (the very report the CLI
 * prints), so a bar and the table beside it show the same number the CLI does. Each figure is
 * a grid of cells: one row of values per series (a run, or a group of comparable runs) and one
 * column per category (metrics, LJP setups or cause classes). Framework-free.
 *
 * One file for now: every figure is built the same way from one report, and the file is being
 * changed in parallel; it splits by figure once that work has landed.
 */
import { UNCLASSIFIED } from '$lib/core/dataset/names';
import type { Aggregate } from '$lib/core/metrics/aggregate';
import { reportRunKey } from '$lib/core/names';
import type { Interval } from '$lib/core/metrics/bootstrap';
import type { RateTree } from '$lib/core/metrics/kernel';
import type { LjpSetup, MetricsTree, StatTree } from '$lib/core/metrics/types';
import type { EvalFile, GroupReport, ResultsReport, RunReport } from '$lib/core/results';
import { m } from '$lib/paraglide/messages';
import type { Locale } from '$lib/paraglide/runtime';

/**
 * The language of a figure's words: the interface's (undefined) or the one asked for exports.
 * Metric names that are the paper's terms (Macro-F1, QWK, Direct…) are the same in both.
 */
export type FigureLocale = Locale | undefined;

/** Which stage a metric belongs to: LCA, DCG or one LJP setup. */
export type Stage = 'lca' | 'dcg' | LjpSetup;

export interface MetricRef {
	stage: Stage;
	key: string;
	/** How tables and axes name it, e.g. `Macro-F1`, `Direct QWK`. */
	label: string;
}

/** Runs side by side, or each group of comparable runs as mean ± SD. */
export type SeriesMode = 'runs' | 'groups';

export interface Series {
	/** `run_id/model_dir` for a run; the member keys joined for a group. */
	id: string;
	/** Full name: model and run (or number of runs), `(simulated)` when mixed with real runs. */
	label: string;
	/** As short as still unambiguous among the shown series, for table headings. */
	short: string;
	color: string;
	model: string;
	runIds: string[];
	simulated: boolean;
}

/** One value of a figure. */
export interface Cell {
	/** The run's value, or the group's mean; null when undefined. */
	value: number | null;
	/** Sample SD over the group's runs (groups only; null for one run). */
	sd?: number | null;
	/**
	 * 95% case-bootstrap interval of a run's value (a group of one run: that run's); null when
	 * undefined or not computed (yet).
	 */
	ci?: [number, number] | null;
	/** Cases (and claims, for LJP) the value rests on, where one run's figure is shown. */
	counts?: { cases: number; claims: number | null };
	/** Why the value is undefined, partial or over fewer runs; shown as footnotes. */
	notes: string[];
	/** Over a stage that is not complete yet (one of the notes says so). */
	partial?: boolean;
}

export interface Figure {
	id: string;
	title: string;
	/** One sentence under the title: what is measured, and over what. */
	description: string;
	/** Names the categories in the table's corner, e.g. `Metric`, `Class`. */
	categoryTitle: string;
	categories: string[];
	series: Series[];
	/** `cells[s][c]`: series s, category c. */
	cells: Cell[][];
	/** `rate`: fixed 0–1 axis. `kappa`: 1 at the top, 0 or below at the bottom. */
	scale: 'rate' | 'kappa';
	/** True in groups mode: cells carry an SD and bars an error bar. */
	withSd: boolean;
	/** True once the bootstrap intervals are in: cells carry a `ci` and bars a whisker. */
	withCi: boolean;
	/** An LJP figure: its counts are claims as well as cases. */
	claims?: boolean;
	/** Tables list series as rows (overall figures) or categories as rows (class figures). */
	rows: 'series' | 'categories';
	/** The language of its words, so its tables and exports speak the same one. */
	locale?: Locale;
}

/** Okabe–Ito colours: distinguishable with every common colour-vision deficiency. */
export const PALETTE = [
	'#0072B2',
	'#E69F00',
	'#009E73',
	'#D55E00',
	'#CC79A7',
	'#56B4E9',
	'#8C6D31',
	'#5A6475'
];

const FILE_OF: Record<Stage, EvalFile> = {
	lca: 'LCA_results',
	dcg: 'DCG_results',
	direct: 'LJP_direct',
	gold: 'LJP_gold',
	interaction: 'LJP_interaction'
};

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

type Tree = MetricsTree | StatTree | RateTree<Interval>;

function stageOf<V = number | null>(tree: Tree, stage: Stage): Record<string, V> | null {
	const obj = stage === 'lca' ? tree.lca : stage === 'dcg' ? tree.dcg : tree.ljp[stage];
	return obj as Record<string, V> | null;
}

const REASONS: Record<string, (o: { locale?: FigureLocale }) => string> = {
	macro_f1: (o) => m.results_undef_macro_f1({}, o),
	f1_u: (o) => m.results_undef_f1_u({}, o),
	f1_c: (o) => m.results_undef_f1_c({}, o),
	acc_c: (o) => m.results_undef_acc_c({}, o),
	acc_u: (o) => m.results_undef_acc_u({}, o),
	qwk: (o) => m.results_undef_qwk({}, o)
};

/** Why a value of a scored stage is null (PROTOCOL.md §7: a zero denominator). */
function undefinedReason(
	metric: MetricRef,
	obj: Record<string, number | null>,
	locale: FigureLocale
): string {
	const o = { locale };
	const count = metric.stage === 'lca' || metric.stage === 'dcg' ? obj.n : obj.n_claims;
	if (count === 0) {
		return metric.stage === 'lca'
			? m.results_no_lca_record({}, o)
			: metric.stage === 'dcg'
				? m.results_no_dcg_case({}, o)
				: m.results_no_ljp_claim({ setup: LJP_SETUP_NAMES[metric.stage] }, o);
	}
	return REASONS[metric.key]?.(o) ?? m.results_undef_zero({ metric: metric.label }, o);
}

const unitOf = (unit: 'records' | 'cases', locale: FigureLocale) =>
	unit === 'records'
		? m.results_unit_records({}, { locale })
		: m.results_unit_cases({}, { locale });

function unscoredReason(run: RunReport, stage: Stage, locale: FigureLocale): string {
	const file = FILE_OF[stage];
	const c = run.completeness[file];
	if (c.status === 'missing') return m.results_not_run_yet({ file, run: run.run_id }, { locale });
	return m.results_not_scored(
		{ file, have: c.have, expected: c.expected, unit: unitOf(c.unit, locale), run: run.run_id },
		{ locale }
	);
}

function partialNote(run: RunReport, stage: Stage, locale: FigureLocale): string | null {
	const c = run.completeness[FILE_OF[stage]];
	if (c.status !== 'incomplete') return null;
	return m.results_partial_note(
		{
			have: c.have,
			expected: c.expected,
			run: run.run_id,
			unit: unitOf(c.unit, locale),
			file: FILE_OF[stage]
		},
		{ locale }
	);
}

/** A run's value of `metric`, overall (`cls` null) or within one class. */
export function runCell(
	run: RunReport,
	metric: MetricRef,
	cls: string | null,
	locale?: FigureLocale
): Cell {
	const tree = cls === null ? run.metrics : run.by_class[cls];
	if (!tree) return { value: null, notes: [m.results_no_class({}, { locale })] };
	const counts = cls === null ? run.counts : run.by_class[cls].counts;
	const obj = stageOf(tree, metric.stage);
	if (!obj) return { value: null, notes: [unscoredReason(run, metric.stage, locale)], counts };
	const value = obj[metric.key] ?? null;
	const notes: string[] = [];
	const partial = partialNote(run, metric.stage, locale);
	if (partial) notes.push(partial);
	if (value === null) notes.push(undefinedReason(metric, obj, locale));
	const ci95 = cls === null ? run.ci95 : run.by_class[cls].ci95;
	const ci = (ci95 && stageOf<Interval>(ci95, metric.stage)?.[metric.key]) ?? null;
	return {
		value,
		notes,
		ci: value === null ? null : ci,
		counts,
		...(partial ? { partial: true } : {})
	};
}

/** A group's mean ± SD of `metric`, over the member runs where it is defined. */
export function groupCell(
	group: GroupReport,
	members: readonly RunReport[],
	metric: MetricRef,
	cls: string | null,
	locale?: FigureLocale
): Cell {
	const o = { locale };
	const agg: Aggregate | undefined =
		cls === null
			? { mean: group.mean, sd: group.sd, n_defined: group.n_defined }
			: group.by_class[cls];
	const memberCells = members.map((r) => runCell(r, metric, cls, locale));
	const counts = sharedCounts(memberCells);
	const partial = members
		.map((r) => partialNote(r, metric.stage, locale))
		.filter((n): n is string => n !== null);
	const mean = agg ? stageOf(agg.mean, metric.stage) : null;
	if (!agg || !mean) {
		const why = memberCells[0]?.notes[0] ?? m.results_no_class({}, o);
		return { value: null, sd: null, notes: [m.results_group_undefined_why({ why }, o)], counts };
	}
	const value = mean[metric.key] ?? null;
	const sd = stageOf(agg.sd, metric.stage)?.[metric.key] ?? null;
	// A group of one run has no SD; its run's bootstrap interval is the uncertainty there is.
	const single = group.n === 1 ? memberCells[0] : undefined;
	const defined = (stageOf(agg.n_defined, metric.stage)?.[metric.key] ?? 0) as number;
	const notes = [...partial];
	if (value === null) {
		// The first reason that is not a partial note (those are listed already).
		const why = memberCells.flatMap((c) => c.notes.slice(c.partial ? 1 : 0))[0] ?? '';
		notes.push(why ? m.results_group_undefined_why({ why }, o) : m.results_group_undefined({}, o));
	} else if (defined < group.n) {
		notes.push(m.results_group_defined_in({ defined, n: group.n }, o));
	}
	const flag = partial.length ? { partial: true } : {};
	return single
		? { value, sd, notes, ci: single.ci ?? null, counts: single.counts, ...flag }
		: { value, sd, notes, ci: null, counts, ...flag };
}

/**
 * What a group's figure rests on: its runs' cases and claims when they all have the same counts
 * (comparable runs do), else none to show.
 */
function sharedCounts(cells: readonly Cell[]): Cell['counts'] {
	const first = cells[0]?.counts;
	const same = cells.every(
		(c) => c.counts?.cases === first?.cases && c.counts?.claims === first?.claims
	);
	return same ? first : undefined;
}

/** What a figure needs to know beyond the report: which runs are simulated. */
export interface FigureContext {
	report: ResultsReport;
	mode: SeriesMode;
	/** Whether a run (by `run_id/model_dir`) was produced by the simulated provider. */
	simulated: (runKey: string) => boolean;
	/** The language of the figures' words. @default the interface's */
	locale?: Locale;
}

/**
 * Labels name a simulated series only when real ones are shown beside it; when every shown run
 * is simulated the page says so once instead of on every bar.
 */
function mixed(ctx: FigureContext): boolean {
	const flags = new Set(ctx.report.runs.map((r) => ctx.simulated(reportRunKey(r))));
	return flags.size > 1;
}

interface SeriesSource {
	series: Series;
	cell: (m: MetricRef, cls: string | null) => Cell;
}

function membersOf(report: ResultsReport, group: GroupReport): RunReport[] {
	return report.runs.filter((r) => r.model === group.model && group.run_ids.includes(r.run_id));
}

/** The series of the report in the chosen mode, with a function giving each one's cells. */
export function seriesSources(ctx: FigureContext): SeriesSource[] {
	const { report, locale } = ctx;
	const o = { locale };
	const marked = (label: string, simulated: boolean) =>
		simulated && mixed(ctx) ? m.results_series_simulated({ label }, o) : label;
	if (ctx.mode === 'runs') {
		const idCount = new Map<string, number>();
		for (const r of report.runs) idCount.set(r.run_id, (idCount.get(r.run_id) ?? 0) + 1);
		return report.runs.map((run, i) => {
			const id = reportRunKey(run);
			const simulated = ctx.simulated(id);
			const label = marked(`${run.model} · ${run.run_id}`, simulated);
			return {
				series: {
					id,
					label,
					short: idCount.get(run.run_id) === 1 ? run.run_id : label,
					color: PALETTE[i % PALETTE.length],
					model: run.model,
					runIds: [run.run_id],
					simulated
				},
				cell: (metric, cls) => runCell(run, metric, cls, locale)
			};
		});
	}
	const perModel = new Map<string, number>();
	for (const g of report.groups) perModel.set(g.model, (perModel.get(g.model) ?? 0) + 1);
	return report.groups.map((group, i) => {
		const members = membersOf(report, group);
		const simulated = members.some((r) => ctx.simulated(reportRunKey(r)));
		const count =
			group.n === 1 ? m.results_runs_one({}, o) : m.results_runs_count({ count: group.n }, o);
		// A model with several groups (other settings, another dataset) needs its runs named.
		const ids = (perModel.get(group.model) ?? 0) > 1 ? group.run_ids.join(', ') : null;
		const runs = ids ? m.results_group_runs_which({ runs: count, ids }, o) : count;
		return {
			series: {
				id: members.map(reportRunKey).join('+'),
				label: marked(m.results_group_label({ model: group.model, runs }, o), simulated),
				short: m.results_group_label({ model: group.model, runs: ids ?? String(group.n) }, o),
				color: PALETTE[i % PALETTE.length],
				model: group.model,
				runIds: group.run_ids,
				simulated
			},
			cell: (metric, cls) => groupCell(group, members, metric, cls, locale)
		};
	});
}

/** Cause classes present in any run, in report order, `未分类` last. */
export function classesOf(report: ResultsReport): string[] {
	const seen = new Set<string>();
	for (const run of report.runs) for (const cls of Object.keys(run.by_class)) seen.add(cls);
	const list = [...seen];
	return [...list.filter((c) => c !== UNCLASSIFIED), ...list.filter((c) => c === UNCLASSIFIED)];
}

interface FigureText {
	id: string;
	title: string;
	description: string;
}

/** Metrics side by side (x = metric), overall. */
export function metricsFigure(
	ctx: FigureContext,
	text: FigureText,
	metrics: readonly MetricRef[],
	categoryLabels?: readonly string[]
): Figure {
	const sources = seriesSources(ctx);
	return {
		...text,
		categoryTitle: m.results_col_metric({}, { locale: ctx.locale }),
		categories: categoryLabels ? [...categoryLabels] : metrics.map((metric) => metric.label),
		series: sources.map((s) => s.series),
		cells: sources.map((s) => metrics.map((m) => s.cell(m, null))),
		scale: metrics.some((metric) => metric.key === 'qwk') ? 'kappa' : 'rate',
		withSd: ctx.mode === 'groups',
		withCi: ctx.report.bootstrap !== null,
		claims: metrics.every((metric) => metric.stage !== 'lca' && metric.stage !== 'dcg'),
		rows: 'series',
		locale: ctx.locale
	};
}

/** One metric per cause class (x = class). */
export function classFigure(ctx: FigureContext, text: FigureText, metric: MetricRef): Figure {
	const sources = seriesSources(ctx);
	const classes = classesOf(ctx.report);
	return {
		...text,
		categoryTitle: m.results_col_class({}, { locale: ctx.locale }),
		categories: classes,
		series: sources.map((s) => s.series),
		cells: sources.map((s) => classes.map((cls) => s.cell(metric, cls))),
		scale: metric.key === 'qwk' ? 'kappa' : 'rate',
		withSd: ctx.mode === 'groups',
		withCi: ctx.report.bootstrap !== null,
		claims: metric.stage !== 'lca' && metric.stage !== 'dcg',
		rows: 'categories',
		locale: ctx.locale
	};
}

/** Whether any cell of the figure is over an incomplete stage. */
export function isPartial(figure: Figure): boolean {
	return figure.cells.some((row) => row.some((c) => c.partial === true));
}

/** The y axis's title: `QWK` (the paper's term), or "rate" in the figure's language. */
export function axisTitle(figure: Figure): string {
	return figure.scale === 'kappa' ? 'QWK' : m.results_axis_rate({}, { locale: figure.locale });
}
