/**
 * The Results page: which stored runs are shown, the report computed over them (the CLI's
 * `computeReport`, in partial mode so a running evaluation shows its figures so far), how
 * series are drawn (each run, or mean ± SD of comparable runs), the figures drawn from it, and
 * the files the page offers for download.
 *
 * One file: it is the one state class the Results page binds to. Splitting it by concern is still to do.
 */
import { downloadBlob } from '$lib/adapters/download';
import { listStoredRuns } from '$lib/adapters/idb-listing';
import type { IdbStore } from '$lib/adapters/idb-store';
import type { BundleView } from '$lib/adapters/bundle-view';
import type { RunKey } from '$lib/core/layout';
import type { LayoutSource } from '$lib/core/results/source';
import type { StoredRun } from '$lib/core/store/types';
import type { ComparisonReport, LoadedRun, ResultsReport } from '$lib/core/results';
import { withIntervals } from '$lib/core/results/with-intervals';
import type { Locale } from '$lib/paraglide/runtime';
import { refusalOf, refusalText } from '$lib/view/compare-refusal';
import type { FigureContext, SeriesMode } from '$lib/view/figures';
import {
	DEFAULT_FIGURE_CHOICE,
	reportNotes,
	resultFigures,
	type FigureChoice
} from '$lib/view/result-figures';
import type { ResultsQuery } from '$lib/view/results-query';
import { isIncomplete, isInProgress } from '$lib/view/run-progress';
import { drawnReport, groupDifferences } from '$lib/view/shown-report';
import { layoutSourceModule, openSharedIdbStore, resultsModule } from './lazy-store';
import { reportRunKey, runKey } from '$lib/core/names';
import { StatsClient } from './stats-client';
import { PanelChoices } from './results-panels.svelte';

export type ResultsStatus = 'idle' | 'loading' | 'ready' | 'error';

/** The language of the page's exports: the interface's, or one chosen for a paper. */
export type ExportLanguage = 'ui' | Locale;

/** Where the export language is remembered in this browser. */
export const EXPORT_LANGUAGE_KEY = 'lexpilot-export-language';

function savedExportLanguage(): ExportLanguage {
	try {
		const saved = globalThis.localStorage?.getItem(EXPORT_LANGUAGE_KEY);
		return saved === 'en' || saved === 'zh-CN' ? saved : 'ui';
	} catch {
		return 'ui';
	}
}

/** Where the bootstrap intervals of the shown runs are. */
export type IntervalStatus = 'idle' | 'computing' | 'ready' | 'error';

/** The paired comparison of two runs picked on the page. */
export interface ComparisonState {
	a: string;
	b: string;
	status: 'computing' | 'ready' | 'refused';
	report: ComparisonReport | null;
	/**
	 * Why the runs cannot be compared (different cases or datasets), in the interface language
	 * at each read, or what failed.
	 */
	readonly error: string | null;
}

export interface ResultsDeps {
	/** @default the page's shared IndexedDB connection */
	openStore?: () => Promise<IdbStore>;
	/** @default a Web Worker (in-process where there is none) */
	stats?: StatsClient;
	/** Offers a file for download. @default the browser's download (`adapters/download`) */
	save?: (file: Blob, name: string) => void;
}

export class ResultsState {
	status = $state<ResultsStatus>('idle');
	/** Every run stored in this browser. */
	runs = $state.raw<StoredRun[]>([]);
	/**
	 * Keys of the runs being written now: their writer lock is held in this browser (a Run page,
	 * any tab, with the run running or paused; `IdbStore.heldRuns()`), asked at each load.
	 */
	writing = $state.raw<readonly string[]>([]);
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
	/** The shown runs as loaded (report, manifest, case table): what the leaderboard ranks. */
	loadedRuns = $state.raw<LoadedRun[]>([]);
	/** Draw simulated runs beside real ones (off: the figures show the real runs only). */
	mixSimulated = $state(false);
	/** The metric or setup each figure by cause class shows. */
	choice = $state<FigureChoice>({ ...DEFAULT_FIGURE_CHOICE });
	/** The language of copies, images and the HTML report (the interface's by default). */
	exportLanguage = $state<ExportLanguage>(savedExportLanguage());
	/** Runs a link asked for that are not stored in this browser (keys). */
	missingFromLink = $state.raw<readonly string[]>([]);
	/** A bundle opened from a link, read in memory instead of this browser's storage (read-only). */
	bundle = $state.raw<BundleView | null>(null);
	/** The lower panels' picks (comparison class, confusion run and class). */
	readonly panels = new PanelChoices();
	#modeChosen = $state(false);
	/** The user picked the shown runs (or a link named them): the URL keeps the list. */
	#runsChosen = $state(false);
	/** Runs a link named, shown at the next load instead of every stored run. */
	#linked = $state.raw<readonly string[] | null>(null);

	/** Whether a run (by key) was made by the simulated provider. */
	readonly isSimulated = (key: string): boolean =>
		this.runs.find((r) => runKey(r.run) === key)?.manifest.simulated ?? false;

	readonly shownRuns = $derived(this.runs.filter((r) => this.selected.includes(runKey(r.run))));
	/** A shown run is being written with a stage under way: its figures may still change. */
	readonly inProgress = $derived(this.shownRuns.some((r) => isInProgress(r, this.writing)));
	/** Shown runs with an unfinished stage that nothing is writing (imported, stopped): final. */
	readonly incomplete = $derived(
		this.shownRuns.filter((r) => isIncomplete(r) && !isInProgress(r, this.writing))
	);
	/** The report as drawn: simulated runs left out beside real ones unless `mixSimulated`. */
	readonly drawn = $derived(
		this.report ? drawnReport(this.report, this.isSimulated, this.mixSimulated) : null
	);
	readonly figures = $derived.by(() => {
		if (!this.drawn) return null;
		const ctx: FigureContext = {
			report: this.drawn.report,
			mode: this.mode,
			simulated: this.isSimulated
		};
		return resultFigures(ctx, this.choice);
	});
	/** The language exports are written in: undefined for the interface's. */
	readonly exportLocale = $derived<Locale | undefined>(
		this.exportLanguage === 'ui' ? undefined : this.exportLanguage
	);
	/** The figures as exports word them: the shown ones, or the same in the export language. */
	readonly exportFigures = $derived.by(() => {
		if (!this.drawn || !this.figures) return null;
		if (this.exportLocale === undefined) return this.figures;
		const ctx: FigureContext = {
			report: this.drawn.report,
			mode: this.mode,
			simulated: this.isSimulated,
			locale: this.exportLocale
		};
		return resultFigures(ctx, this.choice);
	});
	/** Notes of the shown runs and groups, and the report's warnings. */
	readonly notes = $derived(this.report ? reportNotes(this.report) : []);
	/** Why groups of one model are not averaged together. */
	readonly differences = $derived(
		this.drawn ? groupDifferences(this.drawn.report, (key) => this.manifestOf(key)) : []
	);
	/**
	 * What the URL keeps: only what the user chose (or a link asked for). Null until the runs are
	 * read, so a link's runs are never written over before they are shown.
	 */
	readonly query = $derived<ResultsQuery | null>(
		this.status === 'idle' || this.status === 'loading' || this.#linked !== null
			? null
			: {
					runs: this.#runsChosen ? [...this.selected] : null,
					mode: this.#modeChosen ? this.mode : null,
					mixSimulated: this.mixSimulated,
					choice: { ...this.choice },
					compare: this.comparison ? [this.comparison.a, this.comparison.b] : null,
					...this.panels.query,
					bundle: this.bundle?.url ?? null
				}
	);

	#openStore: () => Promise<IdbStore>;
	#stats: StatsClient;
	#save: (file: Blob, name: string) => void;
	/** Manifests and case tables of the shown runs, by key (for comparisons). */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- replaced whole, never observed
	#loaded = new Map<string, LoadedRun>();
	#compareGeneration = 0;
	/** Runs seen before: a new run is shown by default, one the user hid stays hidden. */
	#known: readonly string[] = [];
	/** Bumped per load, so a slow earlier load never overwrites a later one. */
	#generation = 0;

	constructor(deps: ResultsDeps = {}) {
		this.#openStore = deps.openStore ?? openSharedIdbStore;
		this.#stats = deps.stats ?? new StatsClient();
		this.#save = deps.save ?? downloadBlob;
	}

	/**
	 * Takes the choices of a link (the page's URL) before the page loads: the runs it names are
	 * shown instead of every stored run, the rest as it says.
	 */
	restore(query: ResultsQuery): void {
		if (query.runs) {
			this.#linked = query.runs;
			this.#runsChosen = true;
		}
		if (query.mode) {
			this.mode = query.mode;
			this.#modeChosen = true;
		}
		this.mixSimulated = query.mixSimulated;
		this.choice = { ...query.choice };
		this.panels.restore(query);
		// Compared once its runs are read (`#compute` compares again whatever is shown).
		if (query.compare) {
			const [a, b] = query.compare;
			this.comparison = { a, b, status: 'computing', report: null, error: null };
		}
	}

	/**
	 * Shows the runs of `bundle` (read-only, nothing stored) instead of this browser's, or, with
	 * null, this browser's again; `keep` keeps the runs shown now (after their import).
	 */
	async showBundle(bundle: BundleView | null, keep = false): Promise<void> {
		this.bundle = bundle;
		this.#known = [];
		if (keep) this.#linked = [...this.selected];
		await this.load();
	}

	/** Offers a file for download: every download of the page goes through here. */
	download(file: Blob, name: string): void {
		this.#save(file, name);
	}

	/** Sets (and remembers) the language of the page's exports. */
	setExportLanguage(language: ExportLanguage): void {
		this.exportLanguage = language;
		try {
			localStorage.setItem(EXPORT_LANGUAGE_KEY, language);
		} catch {
			// Not remembered; the choice still holds for this visit.
		}
	}

	/**
	 * Downloads the self-contained HTML report of what the page shows, made at `now` (ms), in
	 * the export language. The report's writer is imported on the first download.
	 */
	async downloadReport(now: number = Date.now()): Promise<void> {
		if (!this.drawn || !this.exportFigures) return;
		const [{ resultsHtml }, { reportExtras }, { leaderboardState }] = await Promise.all([
			import('$lib/view/results-html'),
			import('$lib/view/report-extras'),
			import('./leaderboard.svelte')
		]);
		if (!this.drawn || !this.exportFigures) return;
		const locale = this.exportLocale;
		const sections = reportExtras({
			leaderboard: leaderboardState.leaderboard,
			costs: leaderboardState.costs,
			comparison: this.comparison?.report ?? null,
			runs: this.loadedRuns,
			locale
		});
		const differences = groupDifferences(this.drawn.report, (key) => this.manifestOf(key), locale);
		const html = resultsHtml({
			report: this.drawn.report,
			figures: this.exportFigures,
			simulated: this.isSimulated,
			notes: [...reportNotes(this.report ?? this.drawn.report, locale), ...differences],
			// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local, read once
			generatedAt: new Date(now).toISOString(),
			locale,
			sections
		});
		this.download(new Blob([html], { type: 'text/html;charset=utf-8' }), 'lexpilot-report.html');
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
			// A bundle opened from a link is read without opening (and so creating) the database.
			const bundle = this.bundle;
			const store = bundle ? null : await this.#openStore();
			const runs = store ? await listStoredRuns(store) : (bundle?.runs ?? []);
			// Asked after the records are read: a writer takes its lock before writing anything.
			const writing = store ? (await store.heldRuns()).map(runKey) : [];
			if (generation !== this.#generation) return;
			this.writing = writing;
			const keys = runs.map((r) => runKey(r.run));
			const linked = this.#linked;
			this.#linked = null;
			if (linked) {
				// Exactly the linked runs; every other stored run counts as hidden by the user.
				this.missingFromLink = linked.filter((k) => !keys.includes(k));
				this.#known = keys;
				this.runs = runs;
				this.selected = linked.filter((k) => keys.includes(k));
			} else {
				const kept = this.selected.filter((k) => keys.includes(k));
				const added = keys.filter((k) => !this.#known.includes(k) && !kept.includes(k));
				this.#known = keys;
				this.runs = runs;
				this.selected = [...kept, ...added];
			}
			await this.#compute(store, generation);
		} catch (e) {
			if (generation !== this.#generation) return;
			this.error = (e as Error).message;
			this.status = 'error';
		}
	}

	/** The shown runs' files: from the open bundle, or from browser storage. */
	async #layout(store: IdbStore | null, runs: RunKey[]): Promise<LayoutSource> {
		if (!store) return this.bundle?.layout(runs) ?? (await resultsModule()).memorySource({});
		return (await layoutSourceModule()).idbLayoutSource(store, { runs });
	}

	async #compute(store: IdbStore | null, generation: number): Promise<void> {
		const shown = this.shownRuns.map((r) => r.run);
		// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local, filled before use
		const loaded = new Map<string, LoadedRun>();
		const report =
			shown.length === 0
				? null
				: await (
						await resultsModule()
					).computeReport(await this.#layout(store, shown), {
						partial: true,
						onRun: (run, manifest, table) =>
							loaded.set(reportRunKey(run), {
								run,
								manifest,
								table
							})
					});
		if (generation !== this.#generation) return;
		this.#loaded = loaded;
		this.loadedRuns = [...loaded.values()];
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
		const refusal = refusalOf(a, b, runA, runB);
		if (refusal || !runA || !runB) {
			this.comparison = {
				a,
				b,
				status: 'refused',
				report: null,
				get error() {
					return refusal ? refusalText(refusal) : null;
				}
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
		this.#runsChosen = true;
		this.missingFromLink = [];
		this.selected = next;
		void this.#recompute();
	}

	async #recompute(): Promise<void> {
		const generation = ++this.#generation;
		try {
			await this.#compute(this.bundle ? null : await this.#openStore(), generation);
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
			.map((r) => runKey(r.run));
		const rest = this.selected.filter((k) => !keys.includes(k));
		this.#select(on ? [...rest, ...keys] : rest);
	}

	selectAll(): void {
		this.#select(this.runs.map((r) => runKey(r.run)));
	}

	selectNone(): void {
		this.#select([]);
	}

	setMode(mode: SeriesMode): void {
		this.#modeChosen = true;
		this.mode = mode;
	}
}

export const resultsState = new ResultsState();
