/**
 * The figures of the Results page, built from a `computeReport` result (the very report the CLI
 * prints), so a bar and the table beside it show the same number the CLI does. Each figure is
 * a grid of cells: one row of values per series (a run, or a group of comparable runs) and one
 * column per category (metrics, LJP setups or cause classes). Framework-free.
 *
 * Its parts live beside it: `figure-types.ts`, `figure-metrics.ts`, `figure-reasons.ts` and
 * `figure-cells.ts`; this module builds the series and the figures.
 */
import { UNCLASSIFIED } from '$lib/core/dataset/names';
import { reportRunKey } from '$lib/core/names';
import type { GroupReport, ResultsReport, RunReport } from '$lib/core/results';
import { m } from '$lib/paraglide/messages';
import type { Locale } from '$lib/paraglide/runtime';
import { groupCell, runCell } from './figure-cells';
import {
	PALETTE,
	type Cell,
	type Figure,
	type MetricRef,
	type Series,
	type SeriesMode
} from './figure-types';

export * from './figure-types';

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
