/**
 * The Results page: which stored runs are shown, the report computed over them (the CLI's
 * `computeReport`, in partial mode so a running evaluation shows its figures so far), and how
 * series are drawn (each run, or mean ± SD of comparable runs).
 */
import {
	idbLayoutSource,
	listStoredRuns,
	sharedIdbStore,
	type StoredRun
} from '$lib/adapters/idb-source';
import type { IdbStore } from '$lib/adapters/idb-store';
import { computeReport, type ResultsReport } from '$lib/core/results';
import type { SeriesMode } from '$lib/components/results/figures';
import { isInProgress } from '$lib/components/results/run-progress';

/** `run_id/model_dir`: how selections, series and URLs name a run. */
export function keyOf(run: { runId: string; modelDir: string }): string {
	return `${run.runId}/${run.modelDir}`;
}

export type ResultsStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface ResultsDeps {
	/** @default the page's shared IndexedDB connection */
	openStore?: () => Promise<IdbStore>;
}

export class ResultsState {
	status = $state<ResultsStatus>('idle');
	/** Every run stored in this browser. */
	runs = $state.raw<StoredRun[]>([]);
	/** Keys of the runs shown. */
	selected = $state.raw<readonly string[]>([]);
	report = $state.raw<ResultsReport | null>(null);
	/** Why the report could not be computed (a malformed record, storage refused). */
	error = $state<string | null>(null);
	mode = $state<SeriesMode>('runs');
	/** Re-read storage every few seconds while a shown run is still being written. */
	autoRefresh = $state(true);
	/** When the report was last computed (`Date.now()`). */
	updatedAt = $state<number | null>(null);

	readonly shownRuns = $derived(this.runs.filter((r) => this.selected.includes(keyOf(r.run))));
	/** A shown run has a stage under way: its figures are partial and may still change. */
	readonly inProgress = $derived(this.shownRuns.some(isInProgress));

	#openStore: () => Promise<IdbStore>;
	/** Runs seen before: a new run is shown by default, one the user hid stays hidden. */
	#known: readonly string[] = [];
	#modeChosen = false;
	/** Bumped per load, so a slow earlier load never overwrites a later one. */
	#generation = 0;

	constructor(deps: ResultsDeps = {}) {
		this.#openStore = deps.openStore ?? sharedIdbStore;
	}

	/** Reads the stored runs and recomputes the report over the selected ones. */
	async load(): Promise<void> {
		const generation = ++this.#generation;
		if (this.status === 'idle') this.status = 'loading';
		try {
			const store = await this.#openStore();
			const runs = await listStoredRuns(store);
			if (generation !== this.#generation) return;
			const keys = runs.map((r) => keyOf(r.run));
			const kept = this.selected.filter((k) => keys.includes(k));
			const added = keys.filter((k) => !this.#known.includes(k) && !kept.includes(k));
			this.#known = keys;
			this.runs = runs;
			this.selected = [...kept, ...added];
			await this.#compute(store, generation);
		} catch (e) {
			if (generation !== this.#generation) return;
			this.error = (e as Error).message;
			this.status = 'error';
		}
	}

	async #compute(store: IdbStore, generation: number): Promise<void> {
		const shown = this.shownRuns.map((r) => r.run);
		const report =
			shown.length === 0
				? null
				: await computeReport(idbLayoutSource(store, { runs: shown }), { partial: true });
		if (generation !== this.#generation) return;
		this.report = report;
		this.error = null;
		this.status = 'ready';
		this.updatedAt = Date.now();
		// Averages are the default once some runs can be averaged, until the user picks a mode.
		if (!this.#modeChosen && report) {
			this.mode = report.groups.some((g) => g.n > 1) ? 'groups' : 'runs';
		}
	}

	#select(next: readonly string[]): void {
		this.selected = next;
		void this.#recompute();
	}

	async #recompute(): Promise<void> {
		const generation = ++this.#generation;
		try {
			await this.#compute(await this.#openStore(), generation);
		} catch (e) {
			if (generation !== this.#generation) return;
			this.error = (e as Error).message;
			this.status = 'error';
		}
	}

	toggle(key: string, on: boolean): void {
		const rest = this.selected.filter((k) => k !== key);
		this.#select(on ? [...rest, key] : rest);
	}

	/** Shows or hides every run of one evaluated model. */
	setModel(model: string, on: boolean): void {
		const keys = this.runs
			.filter((r) => r.manifest.models.evaluated === model)
			.map((r) => keyOf(r.run));
		const rest = this.selected.filter((k) => !keys.includes(k));
		this.#select(on ? [...rest, ...keys] : rest);
	}

	selectAll(): void {
		this.#select(this.runs.map((r) => keyOf(r.run)));
	}

	selectNone(): void {
		this.#select([]);
	}

	setMode(mode: SeriesMode): void {
		this.#modeChosen = true;
		this.mode = mode;
	}

	/** Whether a run (by key) was made by the simulated provider. */
	isSimulated = (key: string): boolean =>
		this.runs.find((r) => keyOf(r.run) === key)?.manifest.simulated ?? false;
}

export const resultsState = new ResultsState();
