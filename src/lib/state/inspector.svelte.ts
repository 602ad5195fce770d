/**
 * The Inspect page's state: the stored runs; the run, case and compared run a link names; the
 * case table of the run (its rows, the query filtering them, the rows listed); and the view of
 * the case, of both runs when comparing. The page turns its URL into `open()` and `setQuery()`
 * and writes the query back; nothing here reads the URL.
 *
 * A link naming a run, case or compared run that is not stored never falls back to something
 * else silently: `issues` says what was asked for and why it is not shown.
 */
import { listStoredRuns } from '$lib/adapters/idb-listing';
import type { IdbStore } from '$lib/adapters/idb-store';
import type { StoredRun } from '$lib/core/store/types';
import type { CallLogEntry } from '$lib/core/calls/schema';
import type { Dataset } from '$lib/core/dataset/load';
import { caseKey } from '$lib/core/record-names';
import { runKey } from '$lib/core/names';
import {
	buildCaseRows,
	EMPTY_QUERY,
	filterCases,
	filters,
	type CaseQuery,
	type CaseRow
} from '$lib/view/case-table';
import { caseView, type CaseView } from '$lib/view/case-view';
import type { LinkProblem } from '$lib/view/inspect-link';
import { layoutSourceModule, openSharedIdbStore } from './lazy-store';

/** Why something a link names is not shown. */
export type LinkIssue =
	| { kind: 'run'; key: string }
	| { kind: 'case'; run: string; caseNumber: string; cases: number }
	| { kind: 'vs'; key: string }
	| { kind: 'vs-same'; key: string }
	| { kind: 'vs-dataset'; key: string }
	| { kind: 'vs-case'; key: string; caseNumber: string }
	| { kind: 'param'; param: string; value: string };

/** What a link asks to show (the query aside). */
export interface InspectTarget {
	run: string | null;
	case: string | null;
	vs: string | null;
}

/** One side of the case shown: its records' view and call log. */
export interface CaseSide {
	view: CaseView;
	calls: CallLogEntry[];
	/** Why the case's call log could not be read; the records are shown all the same. */
	callsError: string | null;
}

type Rows =
	{ status: 'loading' } | { status: 'ready'; rows: CaseRow[] } | { status: 'error'; error: string };

/** How many runs' rows are kept, so switching back and forth does not read them again. */
const KEPT_TABLES = 4;

const queryKey = (q: CaseQuery) => JSON.stringify(q);

export class InspectorState {
	status = $state<'idle' | 'loading' | 'ready' | 'error'>('idle');
	error = $state<string | null>(null);
	runs = $state.raw<StoredRun[]>([]);
	/** `run_id/model_dir` of the run shown; null when none is (no runs, or an unknown one asked for). */
	runKey = $state<string | null>(null);
	/** The case shown; null while it is chosen, or when the link's case is not in the run. */
	caseNumber = $state<string | null>(null);
	/** The compared run (`vs`), when it is stored, another run and on the same dataset. */
	vsKey = $state<string | null>(null);
	a = $state.raw<CaseSide | null>(null);
	/** The compared run's side, when it has the case. */
	b = $state.raw<CaseSide | null>(null);
	issues = $state.raw<LinkIssue[]>([]);
	query = $state.raw<CaseQuery>(EMPTY_QUERY);
	/** Parameters of the link that were not understood. */
	problems = $state.raw<LinkProblem[]>([]);
	table = $state.raw<Rows>({ status: 'loading' });
	vsTable = $state.raw<Rows | null>(null);

	readonly run = $derived(this.runs.find((r) => runKey(r.run) === this.runKey) ?? null);
	readonly vsRun = $derived(this.runs.find((r) => runKey(r.run) === this.vsKey) ?? null);
	/** The run's case numbers as strings: how the URL and the records are matched (PROTOCOL.md §5). */
	readonly cases = $derived(this.run?.manifest.dataset.selected_case_numbers.map(caseKey) ?? []);
	readonly rows = $derived(this.table.status === 'ready' ? this.table.rows : null);
	readonly vsRows = $derived.by(() => {
		const t = this.vsTable;
		// eslint-disable-next-line svelte/prefer-svelte-reactivity -- built whole in a derived, never changed
		return t?.status === 'ready' ? new Map(t.rows.map((r) => [r.caseNumber, r])) : null;
	});
	/** The rows the query lists, in its order. */
	readonly listed = $derived(
		this.rows ? filterCases(this.rows, this.query, this.query.disagree ? this.vsRows : null) : []
	);
	readonly position = $derived(
		this.caseNumber === null ? -1 : this.listed.findIndex((r) => r.caseNumber === this.caseNumber)
	);

	#openStore: () => Promise<IdbStore>;
	#generation = 0;
	#shown: string | null = null;
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a cache, never observed
	#tables = new Map<string, { signature: string; rows: Promise<CaseRow[]> }>();

	constructor(openStore: () => Promise<IdbStore> = openSharedIdbStore) {
		this.#openStore = openStore;
	}

	/** Sets the table's filters, search and sort (and the link parameters not understood). */
	setQuery(query: CaseQuery, problems: LinkProblem[] = this.problems): void {
		if (queryKey(query) !== queryKey(this.query)) this.query = query;
		if (JSON.stringify(problems) !== JSON.stringify(this.problems)) this.problems = problems;
	}

	/**
	 * Shows what `target` names: its run (the first stored when not given), its case (without one,
	 * the first case the table lists once it is read), and the compared run beside it. `dataset`
	 * supplies histories and hidden facts when its SHA-256 is the run's. Nothing is read again
	 * when the target and dataset are the ones shown, unless `fresh`.
	 */
	async open(target: InspectTarget, dataset: Dataset | null, fresh = false): Promise<void> {
		const shown = JSON.stringify([target.run, target.case, target.vs, dataset?.sha256 ?? null]);
		if (!fresh && shown === this.#shown) return;
		this.#shown = shown;
		const generation = ++this.#generation;
		const current = () => generation === this.#generation;
		if (this.status === 'idle') this.status = 'loading';
		try {
			const store = await this.#openStore();
			const runs = await listStoredRuns(store);
			if (!current()) return;
			this.runs = runs;
			const issues: LinkIssue[] = [];
			const run = target.run === null ? runs[0] : runs.find((r) => runKey(r.run) === target.run);
			if (!run) {
				if (target.run !== null) issues.push({ kind: 'run', key: target.run });
				this.#clear(issues);
				return;
			}
			const key = runKey(run.run);
			const selected = run.manifest.dataset.selected_case_numbers.map(caseKey);
			const vs = this.#compared(runs, run, target.vs, issues);
			const vsKey = vs ? runKey(vs.run) : null;

			if (this.runKey !== key) this.table = { status: 'loading' };
			if (vsKey === null) this.vsTable = null;
			else if (this.vsKey !== vsKey) this.vsTable = { status: 'loading' };
			this.runKey = key;
			this.vsKey = vsKey;
			const rows = this.#rowsOf(store, run);
			void this.#fill(rows, current, (t) => (this.table = t));
			if (vs) void this.#fill(this.#rowsOf(store, vs), current, (t) => (this.vsTable = t));

			let chosen: string | null = target.case;
			if (chosen !== null && !selected.includes(chosen)) {
				issues.push({ kind: 'case', run: key, caseNumber: chosen, cases: selected.length });
				chosen = null;
			} else if (chosen === null) {
				// The first case the table lists: the filters of the link apply to it too.
				const listed = filters(this.query)
					? await rows.then(
							(r) => filterCases(r, this.query, null)[0]?.caseNumber ?? null,
							() => selected[0] ?? null
						)
					: (selected[0] ?? null);
				if (!current()) return;
				chosen = listed;
			}
			if (chosen === null) {
				this.caseNumber = null;
				this.a = null;
				this.b = null;
				this.#done(issues);
				return;
			}
			const datasetCase = (r: StoredRun) =>
				dataset && dataset.sha256 === r.manifest.dataset.sha256
					? (dataset.cases.find((c) => c.case_number === chosen) ?? null)
					: null;
			const side = async (r: StoredRun): Promise<CaseSide> => {
				const { readCaseCalls, readCaseRecords } = await layoutSourceModule();
				const records = await readCaseRecords(store, r.run, chosen);
				let calls: CallLogEntry[] = [];
				let callsError: string | null = null;
				try {
					calls = await readCaseCalls(store, r.run, chosen);
				} catch (e) {
					callsError = (e as Error).message;
				}
				const view = caseView(chosen, records, datasetCase(r), r.manifest.categories);
				return { view, calls, callsError };
			};
			const vsHas = vs
				? vs.manifest.dataset.selected_case_numbers.map(caseKey).includes(chosen)
				: false;
			if (vs && !vsHas) issues.push({ kind: 'vs-case', key: runKey(vs.run), caseNumber: chosen });
			const [a, b] = await Promise.all([side(run), vs && vsHas ? side(vs) : null]);
			if (!current()) return;
			this.caseNumber = chosen;
			this.a = a;
			this.b = b;
			this.#done(issues);
		} catch (e) {
			if (!current()) return;
			this.error = (e as Error).message;
			this.status = 'error';
		}
	}

	/** The compared run a link names, or null with the reason in `issues`. */
	#compared(
		runs: StoredRun[],
		run: StoredRun,
		wanted: string | null,
		issues: LinkIssue[]
	): StoredRun | null {
		if (wanted === null) return null;
		const vs = runs.find((r) => runKey(r.run) === wanted);
		if (!vs) issues.push({ kind: 'vs', key: wanted });
		else if (vs === run) issues.push({ kind: 'vs-same', key: wanted });
		else if (vs.manifest.dataset.sha256 !== run.manifest.dataset.sha256) {
			issues.push({ kind: 'vs-dataset', key: wanted });
		} else return vs;
		return null;
	}

	#clear(issues: LinkIssue[]) {
		this.runKey = null;
		this.vsKey = null;
		this.caseNumber = null;
		this.a = null;
		this.b = null;
		this.table = { status: 'ready', rows: [] };
		this.vsTable = null;
		this.#done(issues);
	}

	#done(issues: LinkIssue[]) {
		this.issues = issues;
		this.error = null;
		this.status = 'ready';
	}

	async #fill(rows: Promise<CaseRow[]>, current: () => boolean, set: (t: Rows) => void) {
		try {
			const r = await rows;
			if (current()) set({ status: 'ready', rows: r });
		} catch (e) {
			if (current()) set({ status: 'error', error: (e as Error).message });
		}
	}

	/** The case table's rows of a run, read once for as long as its record counts stay the same. */
	#rowsOf(store: IdbStore, run: StoredRun): Promise<CaseRow[]> {
		const key = runKey(run.run);
		const signature = JSON.stringify(run.counts);
		const kept = this.#tables.get(key);
		if (kept && kept.signature === signature) {
			// Most recently used last.
			this.#tables.delete(key);
			this.#tables.set(key, kept);
			return kept.rows;
		}
		const rows = layoutSourceModule()
			.then(({ readRunRecords }) => readRunRecords(store, run.run))
			.then((records) =>
				buildCaseRows(run.manifest.dataset.selected_case_numbers, records, run.manifest.categories)
			);
		rows.catch(() => {
			if (this.#tables.get(key)?.rows === rows) this.#tables.delete(key);
		});
		this.#tables.delete(key);
		this.#tables.set(key, { signature, rows });
		while (this.#tables.size > KEPT_TABLES) this.#tables.delete(this.#tables.keys().next().value!);
		return rows;
	}
}

export const inspector = new InspectorState();
