/**
 * Why a figure's cell has no value, or holds a partial one: the notes shown beside it.
 */
import type { RunReport } from '$lib/core/results';
import { m } from '$lib/paraglide/messages';
import { SCORED_FILE } from '$lib/core/protocol';
import { LJP_SETUP_NAMES, undefinedWhy } from './figure-metrics';
import type { FigureLocale, MetricRef, Stage } from './figure-types';

/** Why a value of a scored stage is null (PROTOCOL.md §7: a zero denominator). */
export function undefinedReason(
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
	return (
		undefinedWhy(metric.stage, metric.key, locale) ??
		m.results_undef_zero({ metric: metric.label }, o)
	);
}

const unitOf = (unit: 'records' | 'cases', locale: FigureLocale) =>
	unit === 'records'
		? m.results_unit_records({}, { locale })
		: m.results_unit_cases({}, { locale });

export function unscoredReason(run: RunReport, stage: Stage, locale: FigureLocale): string {
	const file = SCORED_FILE[stage];
	const c = run.completeness[file];
	if (c.status === 'missing') return m.results_not_run_yet({ file, run: run.run_id }, { locale });
	return m.results_not_scored(
		{ file, have: c.have, expected: c.expected, unit: unitOf(c.unit, locale), run: run.run_id },
		{ locale }
	);
}

export function partialNote(run: RunReport, stage: Stage, locale: FigureLocale): string | null {
	const c = run.completeness[SCORED_FILE[stage]];
	if (c.status !== 'incomplete') return null;
	return m.results_partial_note(
		{
			have: c.have,
			expected: c.expected,
			run: run.run_id,
			unit: unitOf(c.unit, locale),
			file: SCORED_FILE[stage]
		},
		{ locale }
	);
}
