/**
 * What a run's report holds beside its metrics (metrics/README.md, "Uncertainty"): bootstrap
 * intervals when asked for, LJP confusion matrices, case and claim counts, and power, overall
 * and per class. All of it comes from one case table of the run's scored stages.
 */
import type { CategoryMap } from '../dataset/types';
import type { Manifest } from '../records';
import { bootstrapRun, type BootstrapOptions, type Interval } from '../metrics/bootstrap';
import { buildCaseTable, type CaseTable, type ScoredStages } from '../metrics/case-table';
import { scopeSummary, type LjpConfusion, type ScopeCounts } from '../metrics/confusion';
import type { RateTree } from '../metrics/kernel';
import { runPower, type RunPower } from '../metrics/power';
import type { MetricsTree } from '../metrics/types';
import type { EvalRecords } from './completeness';

/** The statistics of one scope (the whole run, or one class). */
export interface ScopeStatistics {
	/** 95% case-bootstrap intervals, shaped like the rates of `metrics`; null when not computed. */
	ci95: RateTree<Interval> | null;
	counts: ScopeCounts;
	ljp_confusion: LjpConfusion;
}

export interface RunStatistics extends ScopeStatistics {
	power: RunPower;
	by_class: Record<string, ScopeStatistics>;
	/** The per-case counts everything above was computed from (for paired comparisons). */
	table: CaseTable;
}

/** A stage is scored exactly when its metrics object is not null. */
export function scoredStages(metrics: MetricsTree): ScoredStages {
	return {
		lca: metrics.lca !== null,
		dcg: metrics.dcg !== null,
		ljp: {
			direct: metrics.ljp.direct !== null,
			gold: metrics.ljp.gold !== null,
			interaction: metrics.ljp.interaction !== null
		}
	};
}

/**
 * The statistics of a run whose metrics are `metrics` (from computeRunMetrics over the same
 * records). `bootstrap` null skips the intervals, which are the only costly part.
 */
export function runStatistics(
	manifest: Pick<Manifest, 'categories'> & {
		dataset: Pick<Manifest['dataset'], 'selected_case_numbers'>;
	},
	records: EvalRecords,
	metrics: MetricsTree,
	bootstrap: BootstrapOptions | null
): RunStatistics {
	const categories: CategoryMap = manifest.categories;
	const table = buildCaseTable(
		manifest.dataset.selected_case_numbers,
		records,
		categories,
		scoredStages(metrics)
	);
	const intervals = bootstrap === null ? null : bootstrapRun(table, bootstrap);
	return {
		ci95: intervals?.ci95 ?? null,
		...scopeSummary(table, -1),
		power: runPower(table),
		by_class: Object.fromEntries(
			table.classes.map((cls, i) => [
				cls,
				{ ci95: intervals?.by_class[cls] ?? null, ...scopeSummary(table, i) }
			])
		),
		table
	};
}
