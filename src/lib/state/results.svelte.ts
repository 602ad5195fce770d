/**
 * The Results page: which stored runs are shown, the report computed over them (the CLI's
 * `computeReport`, in partial mode so a running evaluation shows its figures so far), how
 * series are drawn (each run, or mean ± SD of comparable runs), the figures drawn from it, and
 * the files the page offers for download. Its parts live beside it: the export language
 * (`export-language.ts`), the bootstrap intervals (`results-intervals.svelte.ts`), the paired
 * comparison (`results-comparison.svelte.ts`), what is read (`results-read.ts`), which runs are shown after a read
 * (`results-selection.ts`) and the HTML report (`results-report-file.ts`).
 */
import { Latest } from './latest';
import { downloadBlob } from '$lib/adapters/download';
import type { IdbStore } from '$lib/adapters/idb-store';
import type { BundleView } from '$lib/adapters/bundle-view';
import type { StoredRun } from '$lib/core/store/types';
import type { LoadedRun, ResultsReport } from '$lib/core/results';
import type { Locale } from '$lib/paraglide/runtime';
import type { FigureContext, SeriesMode } from '$lib/view/figures';
import { DEFAULT_FIGURE_CHOICE, type FigureChoice } from '$lib/view/figure-choice';
import type { ResultsQuery } from '$lib/view/results-query';
import { isIncomplete, isInProgress } from '$lib/view/run-progress';
import { drawnReport, groupDifferences } from '$lib/view/shown-report';
import { openSharedIdbStore } from './lazy-store';
import { readReport, readRuns } from './results-read';
import { runKey } from '$lib/core/names';
import { StatsClient } from './stats-client';
import { PanelChoices } from './results-panels.svelte';
import {
	rememberExportLanguage,
	savedExportLanguage,
	type ExportLanguage
} from './export-language';
import { Comparison, type ComparisonState } from './results-comparison.svelte';
import {
	BootstrapIntervals,
	type IntervalStatus,
	type RankedElsewhere
} from './results-intervals.svelte';
import { resultsReportHtml, type ShownReport } from './results-report-file';
import { selectionAfterRead } from './results-selection';

export type ResultsStatus = 'idle' | 'loading' | 'ready' | 'error';

export { EXPORT_LANGUAGE_KEY, type ExportLanguage } from './export-language';
type FigureWriter = typeof import('$lib/view/result-figures');
let figureWriter: Promise<FigureWriter> | null = null;
const loadFigureWriter = () => (figureWriter ??= import('$lib/view/result-figures'));

export type { ComparisonState } from './results-comparison.svelte';
export type { IntervalStatus } from './results-intervals.svelte';

export interface ResultsDeps {
	/** @default the page's shared IndexedDB connection */
	openStore?: () => Promise<IdbStore>;
	/** @default a Web Worker (in-process where there is none) */
	stats?: StatsClient;
	/** Offers a file for download. @default the browser's download (`adapters/download`) */
	save?: (file: Blob, name: string) => void;
	/** Shows the leaderboard ranked with the intervals. @default the page's, loaded with a report */
	leaderboard?: RankedElsewhere;
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
	/** The figures' module: loaded with the first report, so it is not in the page's first load. */
	#figureWriter = $state.raw<FigureWriter | null>(null);
	report = $state.raw<ResultsReport | null>(null);
	/** Why the report could not be computed (a malformed record, storage refused). */
	error = $state<string | null>(null);
	mode = $state<SeriesMode>('runs');
	/** Re-read storage every few seconds while a shown run is still being written. */
	autoRefresh = $state(true);
	/** When the report was last computed (`Date.now()`). */
	updatedAt = $state<number | null>(null);
	/** The bootstrap intervals (`report.*.ci95`) come from the worker after the report. */
	get intervals(): IntervalStatus {
		return this.#intervals.status;
	}
	get intervalError(): string | null {
		return this.#intervals.error;
	}
	/** Wall time of the last bootstrap, from the report to its intervals (ms). */
	get intervalMs(): number | null {
		return this.#intervals.ms;
	}
	/** When the last request went to the worker and when it answered (`performance.now()`). */
	get intervalWindow(): { posted: number; answered: number } | null {
		return this.#intervals.window;
	}
	get comparison(): ComparisonState | null {
		return this.#comparison.current;
	}
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
	readonly figures = $derived(this.#figuresIn(undefined));
	/** The language exports are written in: undefined for the interface's. */
	readonly exportLocale = $derived<Locale | undefined>(
		this.exportLanguage === 'ui' ? undefined : this.exportLanguage
	);
	/** The figures as exports word them: the shown ones, or the same in the export language. */
	readonly exportFigures = $derived(
		this.exportLocale === undefined ? this.figures : this.#figuresIn(this.exportLocale)
	);
	/** Notes of the shown runs and groups, and the report's warnings. */
	readonly notes = $derived(
		this.report && this.#figureWriter ? this.#figureWriter.reportNotes(this.report) : []
	);
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

	/** The figures of the drawn report in `locale` (the interface's when undefined). */
	#figuresIn(locale: Locale | undefined) {
		if (!this.drawn || !this.#figureWriter) return null;
		const ctx: FigureContext = {
			report: this.drawn.report,
			mode: this.mode,
			simulated: this.isSimulated,
			locale
		};
		return this.#figureWriter.resultFigures(ctx, this.choice);
	}

	#openStore: () => Promise<IdbStore>;
	#intervals: BootstrapIntervals;
	#comparison: Comparison;
	#save: (file: Blob, name: string) => void;
	#board: RankedElsewhere | undefined;
	/** Manifests and case tables of the shown runs, by key (for comparisons). */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- replaced whole, never observed
	#loaded = new Map<string, LoadedRun>();
	/** Runs seen before: a new run is shown by default, one the user hid stays hidden. */
	#known: readonly string[] = [];
	/** Bumped per load, so a slow earlier load never overwrites a later one. */
	#latest = new Latest();

	constructor(deps: ResultsDeps = {}) {
		this.#openStore = deps.openStore ?? openSharedIdbStore;
		const stats = deps.stats ?? new StatsClient();
		this.#intervals = new BootstrapIntervals(stats);
		this.#comparison = new Comparison(stats);
		this.#save = deps.save ?? downloadBlob;
		this.#board = deps.leaderboard;
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
			this.#comparison.pending(a, b);
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
		rememberExportLanguage(language);
	}

	/**
	 * Downloads the self-contained HTML report of what the page shows, made at `now` (ms), in
	 * the export language. The report's writer is imported on the first download.
	 */
	async downloadReport(now: number = Date.now()): Promise<void> {
		const html = await resultsReportHtml(() => this.#shownReport(), now);
		if (html === null) return;
		this.download(new Blob([html], { type: 'text/html;charset=utf-8' }), 'lexpilot-report.html');
	}

	/** What the HTML report shows: the page's report and figures in the export language. */
	#shownReport(): ShownReport | null {
		if (!this.drawn || !this.exportFigures) return null;
		return {
			drawn: this.drawn.report,
			full: this.report ?? this.drawn.report,
			figures: this.exportFigures,
			locale: this.exportLocale,
			comparison: this.comparison?.report ?? null,
			runs: this.loadedRuns,
			simulated: this.isSimulated,
			manifestOf: (key) => this.manifestOf(key)
		};
	}

	/** Manifests of the shown runs as last computed, by key. */
	manifestOf(key: string): LoadedRun['manifest'] | undefined {
		return this.#loaded.get(key)?.manifest;
	}

	/** Reads the stored runs and recomputes the report over the selected ones. */
	async load(): Promise<void> {
		const current = this.#latest.begin();
		if (this.status === 'idle') this.status = 'loading';
		try {
			// A bundle opened from a link is read without opening (and so creating) the database.
			const bundle = this.bundle;
			const store = bundle ? null : await this.#openStore();
			const { runs, writing } = await readRuns(store, bundle);
			if (!current()) return;
			this.writing = writing.map(runKey);
			const keys = runs.map((r) => runKey(r.run));
			const linked = this.#linked;
			this.#linked = null;
			const { selected, missing } = selectionAfterRead({
				keys,
				linked,
				selected: this.selected,
				known: this.#known
			});
			if (missing) this.missingFromLink = missing;
			this.#known = keys;
			this.runs = runs;
			this.selected = selected;
			await this.#compute(store, current);
		} catch (e) {
			this.#failed(e, current);
		}
	}

	#failed(e: unknown, current: () => boolean): void {
		if (!current()) return;
		this.error = (e as Error).message;
		this.status = 'error';
	}

	async #compute(store: IdbStore | null, current: () => boolean): Promise<void> {
		const shown = this.shownRuns.map((r) => r.run);
		const [{ report, loaded }, figureWriter, leaderboard] = await Promise.all([
			readReport(store, this.bundle, shown),
			loadFigureWriter(),
			this.#board ?? import('./leaderboard.svelte').then((l) => l.leaderboardState)
		]);
		if (!current()) return;
		this.#figureWriter = figureWriter;
		this.#loaded = loaded;
		const runs = [...loaded.values()];
		this.loadedRuns = runs;
		this.report = report;
		this.error = null;
		this.status = 'ready';
		this.updatedAt = Date.now();
		// Averages are the default once some runs can be averaged, until the user picks a mode.
		if (!this.#modeChosen && report) {
			this.mode = report.groups.some((g) => g.n > 1) ? 'groups' : 'runs';
		}
		if (this.comparison) void this.compare(this.comparison.a, this.comparison.b);
		if (report) {
			const show = (withCi: ResultsReport) => (this.report = withCi);
			await this.#intervals.compute(report, runs, current, show, leaderboard);
		} else this.#intervals.status = 'idle';
	}

	/**
	 * Compares run B with run A (keys) case by case in the worker: B − A with paired intervals
	 * and p-values. Runs whose selected cases differ are refused, with the reason.
	 */
	compare(a: string, b: string): Promise<void> {
		return this.#comparison.compare(a, b, this.#loaded.get(a), this.#loaded.get(b));
	}

	clearComparison(): void {
		this.#comparison.clear();
	}

	#select(next: readonly string[]): void {
		this.#runsChosen = true;
		this.missingFromLink = [];
		this.selected = next;
		void this.#recompute();
	}

	async #recompute(): Promise<void> {
		const current = this.#latest.begin();
		try {
			await this.#compute(this.bundle ? null : await this.#openStore(), current);
		} catch (e) {
			this.#failed(e, current);
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
