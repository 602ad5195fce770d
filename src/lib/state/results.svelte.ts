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
import {
	computeReport,
	withIntervals,
	type ComparisonReport,
	type LoadedRun,
	type ResultsReport
} from '$lib/core/results';
import { StatsClient } from './stats-client';
import type { SeriesMode } from '$lib/components/results/figures';
import { isInProgress } from '$lib/components/results/run-progress';

/** `run_id/model_dir`: how selections, series and URLs name a run. */
export function keyOf(run: { runId: string; modelDir: string }): string {
	return `${run.runId}/${run.modelDir}`;
}

export type ResultsStatus = 'idle' | 'loading' | 'ready' | 'error';

/** Where the bootstrap intervals of the shown runs are. */
export type IntervalStatus = 'idle' | 'computing' | 'ready' | 'error';

/** The paired comparison of two runs picked on the page. */
export interface ComparisonState {
	a: string;
	b: string;
	status: 'computing' | 'ready' | 'refused';
	report: ComparisonReport | null;
	/** Why the runs cannot be compared (different cases or datasets), or what failed. */
	error: string | null;
}

export interface ResultsDeps {
	/** @default the page's shared IndexedDB connection */
	openStore?: () => Promise<IdbStore>;
	/** @default a Web Worker (in-process where there is none) */
	stats?: StatsClient;
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
	/** The bootstrap intervals (`report.*.ci95`) come from the worker after the report. */
	intervals = $state<IntervalStatus>('idle');
	intervalError = $state<string | null>(null);
	/** Wall time of the last bootstrap, from the report to its intervals (ms). */
	intervalMs = $state<number | null>(null);
	/** When the last request went to the worker and when it answered (`performance.now()`). */
	intervalWindow = $state.raw<{ posted: number; answered: number } | null>(null);
	comparison = $state.raw<ComparisonState | null>(null);
	/** Draw simulated runs beside real ones (off: the figures show the real runs only). */
	mixSimulated = $state(false);

	readonly shownRuns = $derived(this.runs.filter((r) => this.selected.includes(keyOf(r.run))));
	/** A shown run has a stage under way: its figures are partial and may still change. */
	readonly inProgress = $derived(this.shownRuns.some(isInProgress));

	#openStore: () => Promise<IdbStore>;
	#stats: StatsClient;
	/** Manifests and case tables of the shown runs, by key (for comparisons). */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- replaced whole, never observed
	#loaded = new Map<string, LoadedRun>();
	#compareGeneration = 0;
	/** Runs seen before: a new run is shown by default, one the user hid stays hidden. */
	#known: readonly string[] = [];
	#modeChosen = false;
	/** Bumped per load, so a slow earlier load never overwrites a later one. */
	#generation = 0;

	constructor(deps: ResultsDeps = {}) {
		this.#openStore = deps.openStore ?? sharedIdbStore;
		this.#stats = deps.stats ?? new StatsClient();
	}

	/** Manifests of the shown runs as last computed, by key. */
	manifestOf(key: string): LoadedRun['manifest'] | undefined {
		return this.#loaded.get(key)?.manifest;
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
		// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local, filled before use
		const loaded = new Map<string, LoadedRun>();
		const report =
			shown.length === 0
				? null
				: await computeReport(idbLayoutSource(store, { runs: shown }), {
						partial: true,
						onRun: (run, manifest, table) =>
							loaded.set(keyOf({ runId: run.run_id, modelDir: run.model_dir }), {
								run,
								manifest,
								table
							})
					});
		if (generation !== this.#generation) return;
		this.#loaded = loaded;
		this.report = report;
		this.error = null;
		this.status = 'ready';
		this.updatedAt = Date.now();
		// Averages are the default once some runs can be averaged, until the user picks a mode.
		if (!this.#modeChosen && report) {
			this.mode = report.groups.some((g) => g.n > 1) ? 'groups' : 'runs';
		}
		if (this.comparison) void this.compare(this.comparison.a, this.comparison.b);
		if (report) await this.#computeIntervals(report, loaded, generation);
		else this.intervals = 'idle';
	}

	/** Bootstrap intervals of every shown run, in the worker; the report gains its `ci95`. */
	async #computeIntervals(
		report: ResultsReport,
		loaded: Map<string, LoadedRun>,
		generation: number
	): Promise<void> {
		this.intervals = 'computing';
		this.intervalError = null;
		const started = performance.now();
		try {
			// The figures draw first (Svelte flushes in microtasks); the worker's time then
			// overlaps nothing but the user's own interaction.
			await new Promise((resolve) => setTimeout(resolve, 0));
			if (generation !== this.#generation) return;
			const posted = performance.now();
			const tables = [...loaded].map(([key, l]) => ({ key, table: l.table }));
			const intervals = await this.#stats.intervals(tables);
			if (generation !== this.#generation) return;
			this.intervalWindow = { posted, answered: performance.now() };
			this.report = withIntervals(report, intervals);
			this.intervalMs = performance.now() - started;
			this.intervals = 'ready';
		} catch (e) {
			if (generation !== this.#generation) return;
			this.intervalError = (e as Error).message;
			this.intervals = 'error';
		}
	}

	/**
	 * Compares run B with run A (keys) case by case in the worker: B − A with paired intervals
	 * and p-values. Runs whose selected cases differ are refused, with the reason.
	 */
	async compare(a: string, b: string): Promise<void> {
		const generation = ++this.#compareGeneration;
		const runA = this.#loaded.get(a);
		const runB = this.#loaded.get(b);
		if (!runA || !runB) {
			this.comparison = {
				a,
				b,
				status: 'refused',
				report: null,
				error: 'Both runs must be shown (ticked above) to be compared.'
			};
			return;
		}
		if (a === b) {
			this.comparison = {
				a,
				b,
				status: 'refused',
				report: null,
				error: 'Pick two different runs: a run compared with itself differs by 0 everywhere.'
			};
			return;
		}
		this.comparison = { a, b, status: 'computing', report: null, error: null };
		try {
			const report = await this.#stats.compare(runA, runB);
			if (generation !== this.#compareGeneration) return;
			this.comparison = { a, b, status: 'ready', report, error: null };
		} catch (e) {
			if (generation !== this.#compareGeneration) return;
			this.comparison = { a, b, status: 'refused', report: null, error: (e as Error).message };
		}
	}

	clearComparison(): void {
		++this.#compareGeneration;
		this.comparison = null;
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
