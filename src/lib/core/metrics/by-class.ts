/** Cause classes (PROTOCOL.md §1): every cause_of_action maps to a class through the run's map. */
import { classOf } from '../dataset/categories';
import { UNCLASSIFIED } from '../dataset/names';
import type { CategoryMap } from '../dataset/types';

/** Records split by class, in the order the classes first appear in the records. */
export function splitByClass<R extends { cause_of_action: string }>(
	records: readonly R[],
	categories: CategoryMap
): Map<string, R[]> {
	const out = new Map<string, R[]>();
	for (const r of records) {
		const cls = classOf(r.cause_of_action, categories);
		const bucket = out.get(cls);
		if (bucket) bucket.push(r);
		else out.set(cls, [r]);
	}
	return out;
}

/**
 * Classes in a stable order for tables: as the category map first names them, then any other
 * class in code-unit order, then `未分类` last, so the same classes always print the same way.
 */
export function orderClasses(classes: Iterable<string>, categories: CategoryMap): string[] {
	const rank = new Map<string, number>();
	for (const cls of Object.values(categories)) if (!rank.has(cls)) rank.set(cls, rank.size);
	const key = (c: string) => (c === UNCLASSIFIED ? Infinity : (rank.get(c) ?? rank.size));
	return [...new Set(classes)].sort((a, b) => key(a) - key(b) || (a < b ? -1 : a > b ? 1 : 0));
}
