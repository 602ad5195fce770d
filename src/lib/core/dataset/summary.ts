/** Counts a researcher checks before spending API calls on a dataset. */
import { classOf } from './categories';
import type { Case, CategoryMap } from './types';

export interface DatasetSummary {
	cases: number;
	/** Two per case. */
	histories: number;
	/** Distinct causes of action. */
	causes: number;
	/** Class → number of cases, classes in order of first appearance; `未分类` included when used. */
	classes: Record<string, number>;
	/** Cause of action → number of cases, in order of first appearance. */
	causeCounts: Record<string, number>;
	/** Messages per history over all histories (mean not rounded). */
	messages: { min: number; max: number; mean: number; total: number };
	/** Cases whose histories hold more than one user message (extra user/assistant pairs). */
	extraPairs: number;
}

export function summarise(cases: readonly Case[], categories: CategoryMap): DatasetSummary {
	// Maps, not objects, while counting: a cause named like "__proto__" must stay a plain key.
	const classes = new Map<string, number>();
	const causeCounts = new Map<string, number>();
	let min = Infinity;
	let max = 0;
	let total = 0;
	let extraPairs = 0;
	for (const c of cases) {
		causeCounts.set(c.cause_of_action, (causeCounts.get(c.cause_of_action) ?? 0) + 1);
		const cls = classOf(c.cause_of_action, categories);
		classes.set(cls, (classes.get(cls) ?? 0) + 1);
		for (const h of [c.complete, c.underspecified]) {
			min = Math.min(min, h.length);
			max = Math.max(max, h.length);
			total += h.length;
		}
		if (c.underspecified.filter((m) => m.role === 'user').length > 1) extraPairs++;
	}
	const histories = cases.length * 2;
	return {
		cases: cases.length,
		histories,
		causes: causeCounts.size,
		classes: Object.fromEntries(classes),
		causeCounts: Object.fromEntries(causeCounts),
		messages: {
			min: histories ? min : 0,
			max,
			mean: histories ? total / histories : 0,
			total
		},
		extraPairs
	};
}
