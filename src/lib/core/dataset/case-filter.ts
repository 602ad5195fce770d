/** Which cases the case browser lists for a search text and a class filter. */
import { classOf } from './categories';
import type { Case, CategoryMap } from './types';

/** A case browser query. */
export interface CaseQuery {
	/** Matched, ignoring case and surrounding spaces, against case_number and cause_of_action. @default '' */
	text?: string;
	/** Only cases whose cause falls into this class; '' for all. @default '' */
	cls?: string;
}

/** A page of the case browser: what it draws for a query. */
export interface CaseQueryPage {
	/** How many cases match. */
	listed: number;
	/** The first `limit` matching cases, in file order. */
	rows: Case[];
	/** The case to show: the selected one when it matches, else the first match; null for none. */
	current: Case | null;
}

/** A query with how many rows to return and which case is open. */
export interface CasePageQuery extends CaseQuery {
	/** Rows returned at most. */
	limit: number;
	/** case_number of the open case, or null for the first listed. */
	selected: string | null;
}

/**
 * The case browser's page for a query, in one pass: the match count, the first `limit`
 * matches and the case to show. Runs where the cases are: on the page for a small dataset,
 * in the dataset worker for a large one (whose cases never reach the page unless asked).
 */
export function queryCases(
	cases: readonly Case[],
	categories: CategoryMap,
	query: CasePageQuery
): CaseQueryPage {
	const text = (query.text ?? '').trim().toLowerCase();
	const cls = query.cls ?? '';
	const rows: Case[] = [];
	let listed = 0;
	let first: Case | null = null;
	let chosen: Case | null = null;
	for (const c of cases) {
		if (cls !== '' && classOf(c.cause_of_action, categories) !== cls) continue;
		if (
			text !== '' &&
			!c.case_number.toLowerCase().includes(text) &&
			!c.cause_of_action.toLowerCase().includes(text)
		) {
			continue;
		}
		listed++;
		first ??= c;
		if (rows.length < query.limit) rows.push(c);
		if (chosen === null && query.selected !== null && c.case_number === query.selected) chosen = c;
	}
	return { listed, rows, current: chosen ?? first };
}
