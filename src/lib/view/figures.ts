/**
 * The figures of the Results page, built from a `computeReport` result (the very report the CLI
 * prints), so a bar and the table beside it show the same number the CLI does. Each figure is
 * a grid of cells: one row of values per series (a run, or a group of comparable runs) and one
 * column per category (metrics, LJP setups or cause classes). Framework-free.
 */
import { UNCLASSIFIED } from '$lib/core/dataset/names';
import type { Aggregate } from '$lib/core/metrics/aggregate';
import type { Interval } from '$lib/core/metrics/bootstrap';
import type { RateTree } from '$lib/core/metrics/kernel';
import type { LjpSetup, MetricsTree, StatTree } from '$lib/core/metrics/types';
import type { EvalFile, GroupReport, ResultsReport, RunReport } from '$lib/core/results';

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
export const DCG_METRICS: MetricRef[] = [
	{ stage: 'dcg', key: 'success_rate', label: 'Success' },
	{ stage: 'dcg', key: 'round1_rate', label: 'Round 1' },
	{ stage: 'dcg', key: 'round2_rate', label: 'Round 2' }
];
export const LJP_SETUP_NAMES: Record<LjpSetup, string> = {
	direct: 'Direct',
	gold: 'Gold',
	interaction: 'Interaction'
};
export const LJP_MEASURES = [
	{ key: 'qwk', label: 'QWK' },
	{ key: 'accuracy', label: 'Accuracy' }
] as const;
export type LjpMeasure = (typeof LJP_MEASURES)[number]['key'];

export function ljpMetric(setup: LjpSetup, measure: LjpMeasure): MetricRef {
	const label = LJP_MEASURES.find((m) => m.key === measure)!.label;
	return { stage: setup, key: measure, label: `${LJP_SETUP_NAMES[setup]} ${label}` };
}

type Tree = MetricsTree | StatTree | RateTree<Interval>;

function stageOf<V = number | null>(tree: Tree, stage: Stage): Record<string, V> | null {
	const obj = stage === 'lca' ? tree.lca : stage === 'dcg' ? tree.dcg : tree.ljp[stage];
	return obj as Record<string, V> | null;
}

const REASONS: Record<string, string> = {
	macro_f1: 'Macro-F1 undefined: F1_U or F1_C has a zero denominator',
	f1_u: 'F1_U undefined: no underspecified history and no clarification (2TP + FP + FN = 0)',
	f1_c: 'F1_C undefined: no complete history and no direct judgment (2TN + FP + FN = 0)',
	acc_c: 'Acc_C undefined: no complete-history record (TN + FP = 0)',
	acc_u: 'Acc_U undefined: no underspecified-history record (TP + FN = 0)',
	qwk:
		'QWK undefined: the expected disagreement is zero (gold and predicted verdicts are all ' +
		'one and the same label)'
};

/** Why a value of a scored stage is null (SPEC §7: a zero denominator). */
function undefinedReason(m: MetricRef, obj: Record<string, number | null>): string {
	const count = m.stage === 'lca' || m.stage === 'dcg' ? obj.n : obj.n_claims;
	if (count === 0) {
		return m.stage === 'lca'
			? 'no LCA record here (n = 0)'
			: m.stage === 'dcg'
				? 'no DCG case here (n = 0)'
				: `no ${LJP_SETUP_NAMES[m.stage as LjpSetup]} claim here (n = 0)`;
	}
	return REASONS[m.key] ?? `${m.label} undefined: zero denominator`;
}

function unscoredReason(run: RunReport, stage: Stage): string {
	const file = FILE_OF[stage];
	const c = run.completeness[file];
	if (c.status === 'missing') return `${file} not run yet in ${run.run_id}`;
	return `${file}: ${c.have} of ${c.expected} ${c.unit} in ${run.run_id}, not scored`;
}

function partialNote(run: RunReport, stage: Stage): string | null {
	const c = run.completeness[FILE_OF[stage]];
	if (c.status !== 'incomplete') return null;
	return (
		`partial ${c.have}/${c.expected}: ${run.run_id} has ${c.have} of ${c.expected} ${c.unit} ` +
		`of ${FILE_OF[stage]} so far; the figure is over those`
	);
}

const NO_CLASS = 'no case of this class in the run';

/** A run's value of `m`, overall (`cls` null) or within one class. */
export function runCell(run: RunReport, m: MetricRef, cls: string | null): Cell {
	const tree = cls === null ? run.metrics : run.by_class[cls];
	if (!tree) return { value: null, notes: [NO_CLASS] };
	const counts = cls === null ? run.counts : run.by_class[cls].counts;
	const obj = stageOf(tree, m.stage);
	if (!obj) return { value: null, notes: [unscoredReason(run, m.stage)], counts };
	const value = obj[m.key] ?? null;
	const notes: string[] = [];
	const partial = partialNote(run, m.stage);
	if (partial) notes.push(partial);
	if (value === null) notes.push(undefinedReason(m, obj));
	const ci95 = cls === null ? run.ci95 : run.by_class[cls].ci95;
	const ci = (ci95 && stageOf<Interval>(ci95, m.stage)?.[m.key]) ?? null;
	return { value, notes, ci: value === null ? null : ci, counts };
}

/** A group's mean ± SD of `m`, over the member runs where it is defined. */
export function groupCell(
	group: GroupReport,
	members: readonly RunReport[],
	m: MetricRef,
	cls: string | null
): Cell {
	const agg: Aggregate | undefined =
		cls === null
			? { mean: group.mean, sd: group.sd, n_defined: group.n_defined }
			: group.by_class[cls];
	const memberCells = members.map((r) => runCell(r, m, cls));
	const partial = members
		.map((r) => partialNote(r, m.stage))
		.filter((n): n is string => n !== null);
	const mean = agg ? stageOf(agg.mean, m.stage) : null;
	if (!agg || !mean) {
		const why = memberCells[0]?.notes[0] ?? NO_CLASS;
		return { value: null, sd: null, notes: [`undefined in every run of the group (${why})`] };
	}
	const value = mean[m.key] ?? null;
	const sd = stageOf(agg.sd, m.stage)?.[m.key] ?? null;
	// A group of one run has no SD; its run's bootstrap interval is the uncertainty there is.
	const single = group.n === 1 ? memberCells[0] : undefined;
	const defined = (stageOf(agg.n_defined, m.stage)?.[m.key] ?? 0) as number;
	const notes = [...partial];
	if (value === null) {
		const why = memberCells.flatMap((c) => c.notes).find((n) => !n.startsWith('partial')) ?? '';
		notes.push(`undefined in every run of the group${why ? ` (${why})` : ''}`);
	} else if (defined < group.n) {
		notes.push(
			`defined in ${defined} of the group's ${group.n} runs; mean and SD are over those ${defined}`
		);
	}
	return single
		? { value, sd, notes, ci: single.ci ?? null, counts: single.counts }
		: { value, sd, notes, ci: null };
}

/** Runs keyed as the series and URLs name them. */
export function runKeyOf(run: { run_id: string; model_dir: string }): string {
	return `${run.run_id}/${run.model_dir}`;
}

/** What a figure needs to know beyond the report: which runs are simulated. */
export interface FigureContext {
	report: ResultsReport;
	mode: SeriesMode;
	/** Whether a run (by `run_id/model_dir`) was produced by the simulated provider. */
	simulated: (runKey: string) => boolean;
}

/**
 * Labels name a simulated series only when real ones are shown beside it; when every shown run
 * is simulated the page says so once instead of on every bar.
 */
function mixed(ctx: FigureContext): boolean {
	const flags = new Set(ctx.report.runs.map((r) => ctx.simulated(runKeyOf(r))));
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
	const { report } = ctx;
	const mark = mixed(ctx) ? ' (simulated)' : '';
	if (ctx.mode === 'runs') {
		const idCount = new Map<string, number>();
		for (const r of report.runs) idCount.set(r.run_id, (idCount.get(r.run_id) ?? 0) + 1);
		return report.runs.map((run, i) => {
			const id = runKeyOf(run);
			const simulated = ctx.simulated(id);
			const label = `${run.model} · ${run.run_id}${simulated ? mark : ''}`;
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
				cell: (m, cls) => runCell(run, m, cls)
			};
		});
	}
	const perModel = new Map<string, number>();
	for (const g of report.groups) perModel.set(g.model, (perModel.get(g.model) ?? 0) + 1);
	return report.groups.map((group, i) => {
		const members = membersOf(report, group);
		const simulated = members.some((r) => ctx.simulated(runKeyOf(r)));
		const runs = `${group.n} run${group.n === 1 ? '' : 's'}`;
		// A model with several groups (other settings, another dataset) needs its runs named.
		const which = (perModel.get(group.model) ?? 0) > 1 ? `: ${group.run_ids.join(', ')}` : '';
		return {
			series: {
				id: members.map(runKeyOf).join('+'),
				label: `${group.model} (${runs}${which})${simulated ? mark : ''}`,
				short: `${group.model} (${which ? group.run_ids.join(', ') : group.n})`,
				color: PALETTE[i % PALETTE.length],
				model: group.model,
				runIds: group.run_ids,
				simulated
			},
			cell: (m, cls) => groupCell(group, members, m, cls)
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
		categoryTitle: 'Metric',
		categories: categoryLabels ? [...categoryLabels] : metrics.map((m) => m.label),
		series: sources.map((s) => s.series),
		cells: sources.map((s) => metrics.map((m) => s.cell(m, null))),
		scale: metrics.some((m) => m.key === 'qwk') ? 'kappa' : 'rate',
		withSd: ctx.mode === 'groups',
		withCi: ctx.report.bootstrap !== null,
		claims: metrics.every((m) => m.stage !== 'lca' && m.stage !== 'dcg'),
		rows: 'series'
	};
}

/** One metric per cause class (x = class). */
export function classFigure(ctx: FigureContext, text: FigureText, metric: MetricRef): Figure {
	const sources = seriesSources(ctx);
	const classes = classesOf(ctx.report);
	return {
		...text,
		categoryTitle: 'Class',
		categories: classes,
		series: sources.map((s) => s.series),
		cells: sources.map((s) => classes.map((cls) => s.cell(metric, cls))),
		scale: metric.key === 'qwk' ? 'kappa' : 'rate',
		withSd: ctx.mode === 'groups',
		withCi: ctx.report.bootstrap !== null,
		claims: metric.stage !== 'lca' && metric.stage !== 'dcg',
		rows: 'categories'
	};
}

/** Whether any cell of the figure is over an incomplete stage. */
export function isPartial(figure: Figure): boolean {
	return figure.cells.some((row) => row.some((c) => c.notes.some((n) => n.startsWith('partial'))));
}
