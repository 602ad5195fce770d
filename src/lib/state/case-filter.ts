/** Which cases the case browser lists for a search text and a class filter. */
import { classOf } from '$lib/core/dataset/categories';
import type { Case, CategoryMap } from '$lib/core/dataset/types';

/** A case browser query. */
export interface CaseQuery {
	/** Matched, ignoring case and surrounding spaces, against case_number and cause_of_action. @default '' */
	text?: string;
	/** Only cases whose cause falls into this class; '' for all. @default '' */
	cls?: string;
}

/** The cases matching the query, in file order. */
export function filterCases(
	cases: readonly Case[],
	categories: CategoryMap,
	query: CaseQuery
): Case[] {
	const text = (query.text ?? '').trim().toLowerCase();
	const cls = query.cls ?? '';
	return cases.filter(
		(c) =>
			(cls === '' || classOf(c.cause_of_action, categories) === cls) &&
			(text === '' ||
				c.case_number.toLowerCase().includes(text) ||
				c.cause_of_action.toLowerCase().includes(text))
	);
}
