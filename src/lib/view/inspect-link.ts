/**
 * The Inspect page's state as a URL query, so a view can be linked and a reload restores it:
 * `run`, `case`, `vs` (the run compared with), `q` (search), `class`, `cause`, one parameter per
 * outcome (`dcg=yes`, `lca_complete=no`, …), `disagree=yes` and `sort` (`-key` for descending).
 * Defaults are left out, so an unfiltered view links as `?run=…&case=…`. Framework-free.
 */
import {
	EMPTY_QUERY,
	OUTCOMES,
	SORT_KEYS,
	type CaseQuery,
	type Outcome,
	type SortKey,
	type Want
} from './case-table';

/** What a link names: a run, one of its cases, a run to compare with, and the table's view. */
export interface InspectLink {
	/** `run_id/model_dir`; null for the first stored run. */
	run: string | null;
	case: string | null;
	vs: string | null;
	query: CaseQuery;
}

/** A parameter whose value the page does not understand (it is ignored). */
export interface LinkProblem {
	param: string;
	value: string;
}

const isWant = (v: string): v is Want => v === 'yes' || v === 'no';
const isSortKey = (v: string): v is SortKey => (SORT_KEYS as readonly string[]).includes(v);

/** The link a URL query names, and the parameters it could not read. */
export function readLink(params: URLSearchParams): { link: InspectLink; problems: LinkProblem[] } {
	const problems: LinkProblem[] = [];
	const get = (name: string) => {
		const v = params.get(name);
		return v === null || v === '' ? null : v;
	};
	const outcomes: Partial<Record<Outcome, Want>> = {};
	for (const o of OUTCOMES) {
		const v = get(o);
		if (v === null) continue;
		if (isWant(v)) outcomes[o] = v;
		else problems.push({ param: o, value: v });
	}
	let sort: SortKey = EMPTY_QUERY.sort;
	let desc = EMPTY_QUERY.desc;
	const sortParam = get('sort');
	if (sortParam !== null) {
		const key = sortParam.startsWith('-') ? sortParam.slice(1) : sortParam;
		if (isSortKey(key)) {
			sort = key;
			desc = sortParam.startsWith('-');
		} else problems.push({ param: 'sort', value: sortParam });
	}
	const disagreeParam = get('disagree');
	if (disagreeParam !== null && disagreeParam !== 'yes') {
		problems.push({ param: 'disagree', value: disagreeParam });
	}
	return {
		link: {
			run: get('run'),
			case: get('case'),
			vs: get('vs'),
			query: {
				outcomes,
				cls: get('class'),
				cause: get('cause'),
				search: params.get('q') ?? '',
				sort,
				desc,
				disagree: disagreeParam === 'yes'
			}
		},
		problems
	};
}

/** The URL query of a link (without `?`), parameters in a fixed order, defaults left out. */
export function linkSearch(link: InspectLink): string {
	const p = new URLSearchParams();
	const { query } = link;
	if (link.run !== null) p.set('run', link.run);
	if (link.case !== null) p.set('case', link.case);
	if (link.vs !== null) p.set('vs', link.vs);
	if (query.search !== '') p.set('q', query.search);
	if (query.cls !== null) p.set('class', query.cls);
	if (query.cause !== null) p.set('cause', query.cause);
	for (const o of OUTCOMES) {
		const want = query.outcomes[o];
		if (want) p.set(o, want);
	}
	if (query.disagree) p.set('disagree', 'yes');
	if (query.sort !== EMPTY_QUERY.sort || query.desc !== EMPTY_QUERY.desc) {
		p.set('sort', `${query.desc ? '-' : ''}${query.sort}`);
	}
	return p.toString();
}
