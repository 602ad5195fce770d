/**
 * The Case inspector's state: the stored runs, the run and case chosen (from the URL), and the
 * view of that case built from its records and, when it is the run's dataset, the loaded one.
 */
import { readCaseCalls, readCaseRecords } from '$lib/adapters/idb-layout-source';
import { listStoredRuns } from '$lib/adapters/idb-listing';
import { sharedIdbStore, type IdbStore } from '$lib/adapters/idb-store';
import type { StoredRun } from '$lib/core/store/types';
import type { CallLogEntry } from '$lib/core/calls/schema';
import type { Dataset } from '$lib/core/dataset/load';
import { caseKey } from '$lib/core/records';
import { keyOf } from '$lib/state/results.svelte';
import { caseView, type CaseView } from './case-view';

export class InspectorState {
	status = $state<'idle' | 'loading' | 'ready' | 'error'>('idle');
	error = $state<string | null>(null);
	runs = $state.raw<StoredRun[]>([]);
	/** `run_id/model_dir` of the run shown. */
	runKey = $state<string | null>(null);
	caseNumber = $state<string | null>(null);
	view = $state.raw<CaseView | null>(null);
	/** Cause of action per case of the run, from its records, for the case picker. */
	causes = $state.raw<Readonly<Record<string, string>>>({});
	/** The run asked for in the URL is not stored here. */
	notFound = $state<string | null>(null);
	/** The call-log lines of the case shown ([] when the run has no call log). */
	calls = $state.raw<CallLogEntry[]>([]);
	/** Why the case's call log could not be read; the records are shown all the same. */
	callsError = $state<string | null>(null);

	readonly run = $derived(this.runs.find((r) => keyOf(r.run) === this.runKey) ?? null);
	/** The run's case numbers as strings: how the URL and the records are matched (SPEC §5). */
	readonly cases = $derived(this.run?.manifest.dataset.selected_case_numbers.map(caseKey) ?? []);
	readonly position = $derived(this.caseNumber ? this.cases.indexOf(this.caseNumber) : -1);

	#openStore: () => Promise<IdbStore>;
	#generation = 0;
	#causesOf: string | null = null;

	constructor(openStore: () => Promise<IdbStore> = sharedIdbStore) {
		this.#openStore = openStore;
	}

	/**
	 * Shows `caseNumber` of run `runKey` (the first run / first case when not given). `dataset`
	 * supplies histories and hidden facts when its SHA-256 is the run's.
	 */
	async show(runKey: string | null, caseNumber: string | null, dataset: Dataset | null) {
		const generation = ++this.#generation;
		if (this.status === 'idle') this.status = 'loading';
		try {
			const store = await this.#openStore();
			const runs = await listStoredRuns(store);
			if (generation !== this.#generation) return;
			this.runs = runs;
			const run = runKey ? runs.find((r) => keyOf(r.run) === runKey) : runs[0];
			this.notFound = runKey && !run ? runKey : null;
			if (!run) {
				this.runKey = null;
				this.caseNumber = null;
				this.view = null;
				this.status = 'ready';
				return;
			}
			const key = keyOf(run.run);
			const selected = run.manifest.dataset.selected_case_numbers.map(caseKey);
			const chosen =
				caseNumber !== null && selected.includes(caseNumber) ? caseNumber : selected[0];
			if (caseNumber !== null && chosen !== caseNumber) {
				this.notFound = `case_number ${caseNumber} in ${key}`;
			}
			const records = await readCaseRecords(store, run.run, chosen);
			let calls: CallLogEntry[] = [];
			let callsError: string | null = null;
			try {
				calls = await readCaseCalls(store, run.run, chosen);
			} catch (e) {
				callsError = (e as Error).message;
			}
			if (this.#causesOf !== key) {
				const lca = await store.readRecords(run.run, 'LCA_results');
				const dcg = lca.length ? [] : await store.readRecords(run.run, 'DCG_results');
				this.causes = Object.fromEntries(
					[...lca, ...dcg].map((r) => [caseKey(r.case_number), String(r.cause_of_action)])
				);
				this.#causesOf = key;
			}
			if (generation !== this.#generation) return;
			const datasetCase =
				dataset && dataset.sha256 === run.manifest.dataset.sha256
					? (dataset.cases.find((c) => c.case_number === chosen) ?? null)
					: null;
			this.runKey = key;
			this.caseNumber = chosen;
			this.view = caseView(chosen, records, datasetCase, run.manifest.categories);
			this.calls = calls;
			this.callsError = callsError;
			this.error = null;
			this.status = 'ready';
		} catch (e) {
			if (generation !== this.#generation) return;
			this.error = (e as Error).message;
			this.status = 'error';
		}
	}
}

export const inspector = new InspectorState();
