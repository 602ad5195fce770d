/**
 * The paired comparison as the Results page shows it: the CLI's rows (`comparisonRows`, the same
 * numbers and formatting as `results --compare`), with headings, rate names and "not scored" in
 * the interface language.
 */
import type { PowerFigures } from '$lib/core/metrics/power';
import type { ComparisonReport } from '$lib/core/results';
import { COMPARED_RATES, comparisonRows } from '$lib/core/results/format-compare';
import { formatNumber } from '$lib/core/report/format';
import { m } from '$lib/paraglide/messages';
import type { Locale } from '$lib/paraglide/runtime';
import { rateName } from './figure-metrics';

/** What `comparisonRows` prints for a stage not scored in a run. */
const NOT_SCORED = 'n/a';

/** Column headings: metric, A, B, B − A, its interval, p. */
export function compareHeaders(locale?: Locale): string[] {
	const o = { locale };
	return [m.results_col_metric({}, o), 'A', 'B', 'B − A', m.results_compare_ci({}, o), 'p'];
}

/** The paired table overall (`scope` '') or for one class, named in `locale`. */
export function compareRows(report: ComparisonReport, scope: string, locale?: Locale): string[][] {
	const rows =
		scope && report.by_class[scope]
			? comparisonRows(report.by_class[scope], report.a.by_class[scope], report.b.by_class[scope])
			: comparisonRows(report.metrics, report.a.metrics, report.b.metrics);
	const na = m.results_not_scored_short({}, { locale });
	return rows.map((row, i) => [
		rateName(COMPARED_RATES[i].stage, COMPARED_RATES[i].key, locale),
		...row.slice(1).map((cell) => (cell === NOT_SCORED ? na : cell))
	]);
}

/** One line of minimal detectable differences: DCG success, LCA Acc_C and Acc_U. */
export function powerText(which: 'observed' | 'worst', f: PowerFigures, locale?: Locale): string {
	const o = { locale };
	const na = m.results_not_scored_short({}, o);
	const v = formatNumber;
	const figures = {
		dcg: f.dcg ? v(f.dcg.success_rate) : na,
		acc_c: f.lca ? v(f.lca.acc_c) : na,
		acc_u: f.lca ? v(f.lca.acc_u) : na,
		success: m.results_dcg_success({}, o)
	};
	return which === 'observed'
		? m.results_power_observed(figures, o)
		: m.results_power_worst(figures, o);
}
