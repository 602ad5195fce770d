/**
 * The Inspect page's case table: one row per selected case of a run with its outcomes, and the
 * filters, full-text search and sort over those rows, including "where two runs disagree".
 * Everything is computed once per run (`buildCaseRows`); a filter is then a pass over flags and
 * lower-cased strings, cheap enough to run on every keystroke at 432 cases. Framework-free.
 */
import { classOf } from '$lib/core/dataset/categories';
import { orderClasses } from '$lib/core/metrics/by-class';
import type { CategoryMap, History } from '$lib/core/dataset/types';
import { caseKey } from '$lib/core/record-names';
import type { CaseNumber, HistoryType, RecordsByFile } from '$lib/core/records';
import { EXPECTED_LABEL } from './case-view';

/**
 * The outcomes a case is filtered and sorted by. Each is a problem that holds (`true`), does not
 * hold (`false`), or cannot be told because its stage has no record for the case (`null`):
 * - `lca_complete` / `lca_underspecified`: the LCA label is not the expected one on that history
 *   (answer after the complete history, ask after the underspecified one);
 * - `lca_either`: wrong on at least one history (`false` only when right on both);
 * - `dcg`: DCG failed (neither forced question was judged to seek a focal fact);
 * - `ljp_direct` / `ljp_gold` / `ljp_interaction`: some claim's predicted verdict is not the gold one;
 * - `budget`: the interaction stopped by the question budget (a forced prediction) rather than
 *   by the model answering.
 */
export const OUTCOMES = [
	'lca_either',
	'lca_complete',
	'lca_underspecified',
	'dcg',
	'ljp_direct',
	'ljp_gold',
	'ljp_interaction',
	'budget'
] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** The outcomes of their own stage: `lca_either` only combines the two LCA ones. */
export const BASE_OUTCOMES: readonly Outcome[] = OUTCOMES.filter((o) => o !== 'lca_either');

/** Whether an outcome holds for a case; null when no record tells. */
export type Flag = boolean | null;

/** One case of a run, as the table lists it. */
export interface CaseRow {
	/** `case_number` as a string (PROTOCOL.md §5). */
	caseNumber: string;
	/** Position in the run's selected cases: the table's default order. */
	index: number;
	/** Cause of action from the records; null when no evaluation record names it. */
	cause: string | null;
	cls: string | null;
	flags: Readonly<Record<Outcome, Flag>>;
	/** How many base outcomes hold. */
	flagged: number;
	/**
	 * What the search looks in, lower-cased: the case number, cause, class, both histories,
	 * every response of the evaluated model, the user model's replies, the DCG questions and the
	 * claims.
	 */
	text: string;
}

/** Groups each file's records by case (first record of a case and history type wins). */
function byCase<R extends { case_number: CaseNumber }>(
	records: readonly R[],
	key: (r: R) => string = (r) => caseKey(r.case_number)
): Map<string, R> {
	const out = new Map<string, R>();
	for (const r of records) {
		const k = key(r);
		if (!out.has(k)) out.set(k, r);
	}
	return out;
}

const historyText = (h: History | undefined) => (h ? h.map((m) => m.content).join('\n') : '');

/**
 * The rows of a run's selected cases, in selection order, from its records (any subset of the
 * stage files; a stage without records leaves its outcomes null).
 */
export function buildCaseRows(
	selected: readonly CaseNumber[],
	records: Partial<RecordsByFile>,
	categories: CategoryMap
): CaseRow[] {
	const pair = <R extends { case_number: CaseNumber; history_type: HistoryType }>(rs?: R[]) =>
		byCase(rs ?? [], (r) => `${caseKey(r.case_number)}\u0000${r.history_type}`);
	const a1 = pair(records.a1);
	const lca = pair(records.LCA_results);
	const interaction = byCase(records.interaction ?? []);
	const forceAsk = byCase(records.force_ask ?? []);
	const direct = byCase(records.a1_direct ?? []);
	const gold = byCase(records.a1_force_judge ?? []);
	const dcg = byCase(records.DCG_results ?? []);
	const ljp = {
		direct: byCase(records.LJP_direct ?? []),
		gold: byCase(records.LJP_gold ?? []),
		interaction: byCase(records.LJP_interaction ?? [])
	};

	return selected.map((number, index) => {
		const c = caseKey(number);
		const lcaWrong = (t: HistoryType): Flag => {
			const r = lca.get(`${c}\u0000${t}`);
			return r ? r.label !== EXPECTED_LABEL[t] : null;
		};
		const mismatch = (setup: keyof typeof ljp): Flag => {
			const r = ljp[setup].get(c);
			return r ? r.predicted.some((p, i) => p !== r.gold[i]) : null;
		};
		const lcaComplete = lcaWrong('complete');
		const lcaUnder = lcaWrong('underspecified');
		const dcgRecord = dcg.get(c);
		const inter = interaction.get(c);
		const flags: Record<Outcome, Flag> = {
			lca_either:
				lcaComplete === true || lcaUnder === true
					? true
					: lcaComplete === false && lcaUnder === false
						? false
						: null,
			lca_complete: lcaComplete,
			lca_underspecified: lcaUnder,
			dcg: dcgRecord ? !dcgRecord.success : null,
			ljp_direct: mismatch('direct'),
			ljp_gold: mismatch('gold'),
			ljp_interaction: mismatch('interaction'),
			budget: inter ? inter.stop_reason === 'budget' : null
		};
		const cause =
			[
				lca.get(`${c}\u0000complete`),
				lca.get(`${c}\u0000underspecified`),
				dcgRecord,
				ljp.direct.get(c),
				ljp.gold.get(c),
				ljp.interaction.get(c)
			].find((r) => r !== undefined)?.cause_of_action ?? null;
		const cls = cause === null ? null : classOf(cause, categories);

		const ask = forceAsk.get(c);
		// Each history is saved in several files; the first one found is the one searched.
		const complete = a1.get(`${c}\u0000complete`)?.history ?? gold.get(c)?.history;
		const underspecified =
			a1.get(`${c}\u0000underspecified`)?.history ??
			ask?.history ??
			direct.get(c)?.history ??
			inter?.initial_history;
		const claims = (ljp.direct.get(c) ?? ljp.gold.get(c) ?? ljp.interaction.get(c))?.claims ?? [];
		const text = [
			c,
			cause ?? '',
			cls ?? '',
			historyText(complete),
			historyText(underspecified),
			a1.get(`${c}\u0000complete`)?.response ?? '',
			a1.get(`${c}\u0000underspecified`)?.response ?? '',
			...(inter?.rounds.flatMap((r) => [r.assistant, r.user_reply ?? '']) ?? []),
			ask?.rounds[0].question ?? '',
			ask?.rounds[0].user_reply ?? '',
			ask?.rounds[1].question ?? '',
			direct.get(c)?.response ?? '',
			gold.get(c)?.response ?? '',
			...claims
		]
			.join('\n')
			.toLowerCase();

		return {
			caseNumber: c,
			index,
			cause,
			cls,
			flags,
			flagged: BASE_OUTCOMES.filter((o) => flags[o] === true).length,
			text
		};
	});
}

/** `yes`: only cases where the outcome holds; `no`: only cases where it is known not to. */
export type Want = 'yes' | 'no';

/** What the table sorts by: the selection order, a column, or how many outcomes hold. */
export const SORT_KEYS = ['case', 'class', 'cause', 'flagged', ...OUTCOMES] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** A view of the table: filters, search and sort. */
export interface CaseQuery {
	/** Outcomes filtered on; an outcome left out is not filtered. */
	outcomes: Partial<Record<Outcome, Want>>;
	/** Only this class. @default null */
	cls: string | null;
	/** Only this cause of action. @default null */
	cause: string | null;
	/**
	 * Words that must all appear (anywhere in `CaseRow.text`, ignoring case), separated by spaces.
	 * @default ''
	 */
	search: string;
	/** @default 'case' */
	sort: SortKey;
	/** @default false */
	desc: boolean;
	/** Only cases where the compared run's outcomes differ (needs a second run). @default false */
	disagree: boolean;
}

export const EMPTY_QUERY: CaseQuery = {
	outcomes: {},
	cls: null,
	cause: null,
	search: '',
	sort: 'case',
	desc: false,
	disagree: false
};

/** The direction a column sorts in when first chosen: outcomes with their problems first. */
export function firstDirection(key: SortKey): boolean {
	return key !== 'case' && key !== 'class' && key !== 'cause';
}

/** Whether the query filters at all (sorting aside). */
export function filters(query: CaseQuery): boolean {
	return (
		Object.keys(query.outcomes).length > 0 ||
		query.cls !== null ||
		query.cause !== null ||
		query.search.trim() !== '' ||
		query.disagree
	);
}

/**
 * The base outcomes on which two runs' rows of one case differ, each known in both (an outcome
 * one run has no record for is not a disagreement).
 */
export function disagreements(a: CaseRow, b: CaseRow): Outcome[] {
	return BASE_OUTCOMES.filter((o) => {
		const x = a.flags[o];
		const y = b.flags[o];
		return x !== null && y !== null && x !== y;
	});
}

const collator = new Intl.Collator('zh-Hans-CN');

function compareBy(key: SortKey): (a: CaseRow, b: CaseRow) => number {
	if (key === 'case') return (a, b) => a.index - b.index;
	if (key === 'flagged') return (a, b) => a.flagged - b.flagged;
	if (key === 'class' || key === 'cause') {
		const field = key === 'class' ? 'cls' : 'cause';
		return (a, b) => collator.compare(a[field]!, b[field]!);
	}
	return (a, b) => Number(a.flags[key]) - Number(b.flags[key]);
}

/** Whether a row has no value to sort by `key` (such rows go last either way). */
function unknown(row: CaseRow, key: SortKey): boolean {
	if (key === 'class') return row.cls === null;
	if (key === 'cause') return row.cause === null;
	if (key === 'case' || key === 'flagged') return false;
	return row.flags[key] === null;
}

/** Search words: lower-cased, split on white space. */
export function searchTerms(search: string): string[] {
	return search.toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * The rows the query lists, in its order: every filter must hold, every search word must appear,
 * and with `disagree` (and `other`, the compared run's rows by case number) only cases both runs
 * hold that differ on some outcome. Ties keep the selection order; rows without a value for the
 * sort key come last in both directions.
 */
export function filterCases(
	rows: readonly CaseRow[],
	query: CaseQuery,
	other: ReadonlyMap<string, CaseRow> | null = null
): CaseRow[] {
	const wanted = Object.entries(query.outcomes) as [Outcome, Want][];
	const terms = searchTerms(query.search);
	const out = rows.filter((row) => {
		for (const [o, want] of wanted) if (row.flags[o] !== (want === 'yes')) return false;
		if (query.cls !== null && row.cls !== query.cls) return false;
		if (query.cause !== null && row.cause !== query.cause) return false;
		for (const t of terms) if (!row.text.includes(t)) return false;
		if (query.disagree && other) {
			const b = other.get(row.caseNumber);
			if (!b || disagreements(row, b).length === 0) return false;
		}
		return true;
	});
	const compare = compareBy(query.sort);
	const sign = query.desc ? -1 : 1;
	return out.sort((a, b) => {
		const ua = unknown(a, query.sort);
		const ub = unknown(b, query.sort);
		if (ua || ub) return ua === ub ? a.index - b.index : ua ? 1 : -1;
		return sign * compare(a, b) || a.index - b.index;
	});
}

/** A value the filters offer, with how many of the run's cases have it. */
export interface Facet {
	value: string;
	count: number;
}

/** The classes (in report order) and causes (in collation order) of the rows, with counts. */
export function facets(
	rows: readonly CaseRow[],
	categories: CategoryMap
): { classes: Facet[]; causes: Facet[] } {
	const count = (values: (string | null)[]) => {
		const n = new Map<string, number>();
		for (const v of values) if (v !== null) n.set(v, (n.get(v) ?? 0) + 1);
		return n;
	};
	const classes = count(rows.map((r) => r.cls));
	const causes = count(rows.map((r) => r.cause));
	return {
		classes: orderClasses(classes.keys(), categories).map((value) => ({
			value,
			count: classes.get(value)!
		})),
		causes: [...causes.keys()]
			.sort(collator.compare)
			.map((value) => ({ value, count: causes.get(value)! }))
	};
}
