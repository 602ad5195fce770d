/**
 * One cell of a figure: a run's value of a metric, or a group's mean ± SD, with its notes,
 * interval and counts.
 */
import type { Aggregate } from '$lib/core/metrics/aggregate';
import type { Interval } from '$lib/core/metrics/bootstrap';
import type { GroupReport, RunReport } from '$lib/core/results';
import { m } from '$lib/paraglide/messages';
import { stageOf } from './figure-metrics';
import { partialNote, undefinedReason, unscoredReason } from './figure-reasons';
import type { Cell, FigureLocale, MetricRef } from './figure-types';

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
