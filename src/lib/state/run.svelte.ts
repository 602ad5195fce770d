/**
 * The Run page's state: the form (with what its run id already holds), the run in progress
 * (drawn at most once per frame and 4 times a second), the unfinished runs of this browser, and
 * storage use. The engine runs in a worker (`adapters/workers/run-engine.ts`, `run.worker.ts`).
 * It is the one state class the Run page binds to; what it works out lives beside it: the form's
 * run and its check (`run-form.ts`), the readiness cards (`run-readiness.ts`), Start's problems
 * (`run-problems.ts`).
 */
import type { IdbStore } from '$lib/adapters/idb-store';
import { RUN_ALL_STAGES, type StageName } from '$lib/core/protocol';
import { modelDirName, type RunKey } from '$lib/core/layout';
import { appUpdate } from './app-update.svelte';
import { browserClientFactory } from '$lib/adapters/workers/browser-client';
import { estimateCalls } from './call-estimate';
import { cliCommands } from './cli-command';
import { datasetState } from './dataset.svelte';
import { frameThrottle, spacedFrames, type Throttled } from './frame-throttle';
import { PlanState } from './plan.svelte';
import { promptsState } from './prompts.svelte';
import { BatchPage } from './batch-page.svelte';
import type { RunRequest } from '$lib/adapters/workers/run-controller-types';
import { browserRunEngine, type RunEngine } from '$lib/adapters/workers/run-engine';
import { runKey } from '$lib/core/names';
import { loadPlans, removePlan } from '$lib/core/control/run-plans';
import { firstFreeRunId, formCheckOf, parseLimit, stageTicks, type FormCheck } from './run-form';
import { formProblems } from './run-problems';
import { readinessNow } from './run-readiness';
import {
	checkResume,
	newRunRequest,
	orderStages,
	resumeRequest,
	type RunSources
} from './run-request';
import { checkSavedRun, type SavedRun } from './saved-run';
import { idleSnapshot, runOf, toRunError } from '$lib/core/control/run-snapshot';
import type { RunError, RunSnapshot } from '$lib/core/control/run-snapshot';
import { browserStorage, settingsState } from './settings.svelte';
import { storageUse } from './storage-use.svelte';
import { listUnfinished, type UnfinishedRun } from './unfinished-runs';
import { Latest } from './latest';
import { RUN_WORDS } from './worker-words';

export { parseLimit, type FormCheck } from './run-form';
export type { Readiness } from './run-readiness';

/**
 * The least time between two draws of a run's progress (the worker sends a snapshot every
 * 50 ms): redrawing the Run page at that pace takes CPU from the run (PERFORMANCE.md, "Browser run").
 */
const DRAW_GAP_MS = 250;

export class RunState {
	runId = $state('');
	/** Set once the user types in the run id field; the automatic suggestion then stays away. */
	runIdEdited = false;
	/** The limit field as typed; empty means every case. */
	limitText = $state('');
	/** The form's ticks: the stages `runAll` runs (lca re-judging is a CLI tool). */
	stages = $state<Record<StageName, boolean>>(stageTicks(RUN_ALL_STAGES));

	/** The run of this page, as last drawn. */
	snapshot = $state.raw<RunSnapshot>(idleSnapshot());
	/** Every run saved in this browser (for suggesting a free run id). */
	savedRuns = $state.raw<RunKey[]>([]);
	/** An error outside any run: storage unavailable, a resume refused. */
	pageError = $state.raw<RunError | null>(null);
	/** Roles without a key when the last resume started; shown, not blocking. */
	resumedWithoutKeys = $state.raw<string[]>([]);
	/** Ticks once a second while a run is active, for elapsed time and ETA. */
	now = $state(Date.now());

	/** True once the shown run has started a stage (a refused start has nothing to show). */
	hasProgress = $derived(runOf(this.snapshot) !== null);
	chosenStages = $derived(orderStages(RUN_ALL_STAGES.filter((s) => this.stages[s])));
	limit = $derived(parseLimit(this.limitText));
	/** The form's models and repetitions, and a plan under way (several runs). */
	readonly plan = new PlanState(
		() => this.#engine,
		() => this.sources
	);
	active = $derived(
		['starting', 'running', 'pausing', 'paused', 'stopping'].includes(this.snapshot.status) ||
			this.plan.active
	);
	/** The run the Progress card shows, live; null when it shows none. */
	shownRun = $derived(this.active || this.hasProgress ? this.snapshot.run : null);

	/** Unfinished runs as last read from storage. */
	#listed = $state.raw<UnfinishedRun[]>([]);
	/**
	 * The unfinished runs of this browser, less the one the Progress card shows with its live
	 * counts (a run resumed or paused here is never listed twice).
	 */
	unfinished = $derived.by(() => {
		const shown = this.shownRun ? runKey(this.shownRun) : null;
		return this.#listed.filter((u) => runKey(u.plan) !== shown);
	});

	/** Cases of the loaded dataset; 0 without a valid one. */
	nCases = $derived(
		datasetState.status === 'ready' && datasetState.head ? datasetState.head.caseCount : 0
	);
	readiness = $derived(readinessNow());
	/** Cases the form selects. */
	selected = $derived(
		this.limit !== null && Number.isInteger(this.limit) && this.limit > 0
			? Math.min(this.limit, this.nCases)
			: this.nCases
	);

	/**
	 * Everything the saved-run check depends on, read field by field (a changed temperature, model,
	 * base URL, dataset, limit, prompt pack or run id makes a new value); null while the form
	 * cannot name a run.
	 */
	formCheck = $derived(formCheckOf(this.runId, this.limit, this.chosenStages));
	#checked = $state.raw<{ key: string; result: SavedRun } | null>(null);
	/**
	 * What the form's run id holds, for the form as it is now; null until checked (or when the
	 * form names no run). Never the answer for an earlier state of the form.
	 */
	savedRun = $derived(
		this.#checked && this.#checked.key === this.formCheck?.key ? this.#checked.result : null
	);
	/** The estimate: the form's cases, less those a resume keeps. */
	estimate = $derived(
		estimateCalls(
			this.chosenStages,
			this.selected,
			this.savedRun?.kind === 'resume' ? this.savedRun.saved : {}
		)
	);
	/** ljp-interaction ticked without gen: it needs gen's saved interaction. */
	interactionWithoutGen = $derived(this.stages['ljp-interaction'] && !this.stages.gen);
	/** Why Start cannot run the form now, one sentence each; empty when it can. */
	problems = $derived(
		formProblems({
			sources: this.sources,
			form: { runId: this.runId, limit: this.limit, stages: this.chosenStages },
			plan: this.plan,
			savedRun: this.savedRun
		})
	);
	canStart = $derived(this.problems.length === 0 && !this.active);
	/** The same run from the command line. */
	cli = $derived(
		cliCommands(settingsState.value, {
			runId: this.runId || 'run1',
			datasetPath: datasetState.isSample
				? 'static/sample/lexpilot-sample.json'
				: (datasetState.fileName ?? 'lexpilot.json'),
			stages: this.chosenStages,
			limit: this.limit
		})
	);
	/** Browser storage, one figure for every page. */
	readonly storage = storageUse;
	/** Batch mode: the form's choice, a files round's downloads and uploads. */
	readonly batch = new BatchPage<UnfinishedRun>({
		engine: () => this.#engine,
		request: () => this.lastRequest,
		goOn: () => this.restartShown(),
		key: (u) => runKey(u.plan),
		waits: (u) => u.plan.batch !== undefined && ['interrupted', 'paused'].includes(u.state)
	});
	/** The last run started here (a files round's upload goes on with it). */
	lastRequest = $state.raw<RunRequest | null>(null);

	#engine: RunEngine;
	#store: Promise<IdbStore> | null = null;
	#draw: Throttled;
	#ticker: ReturnType<typeof setInterval> | null = null;
	#askedPersist = false;
	readonly #refreshes = new Latest();
	readonly #checks = new Latest();

	constructor() {
		this.#draw = frameThrottle(
			() => (this.snapshot = this.#engine.snapshot),
			spacedFrames(DRAW_GAP_MS)
		);
		this.#engine = browserRunEngine({
			plans: browserStorage,
			onChange: () => this.#draw.request(),
			store: () => this.store(),
			words: RUN_WORDS
		});
	}

	/** What the pages hold now, for building a run. */
	get sources(): RunSources {
		return {
			dataset: datasetState.status === 'ready' ? datasetState.dataset : null,
			datasetName: datasetState.fileName,
			settings: settingsState.value,
			pack: promptsState.pack
		};
	}

	/** Opens IndexedDB once; a failure becomes the page's error. */
	async store(): Promise<IdbStore> {
		if (!this.#store) {
			this.#store = import('$lib/adapters/idb-store').then((idb) => idb.openIdbStore());
			this.#store.catch(() => (this.#store = null));
		}
		return this.#store;
	}

	/**
	 * Loads the lists the page shows: unfinished runs, saved runs, what the form's run id holds,
	 * storage use. Called again on every change another tab makes; when calls overlap, the last
	 * one asked wins, so a slow answer read before a change never replaces a newer one.
	 */
	async refresh(): Promise<void> {
		const current = this.#refreshes.begin();
		try {
			const store = await this.store();
			const listed = await listUnfinished(store, loadPlans(browserStorage()), () =>
				store.heldRuns()
			);
			const savedRuns = await store.listRuns();
			if (!current()) return;
			this.plan.refresh();
			this.#listed = listed;
			this.savedRuns = savedRuns;
			await this.checkSavedRun();
		} catch (e) {
			if (current()) this.pageError = toRunError(e);
		}
		await this.storage.refresh();
	}

	/**
	 * Looks up what the run id of `check` (the form as it is now, by default) holds, for the hint,
	 * the estimate and Start. The last call wins.
	 */
	async checkSavedRun(check: FormCheck | null = this.formCheck): Promise<SavedRun | null> {
		const current = this.#checks.begin();
		if (!check) return null;
		try {
			const result = await checkSavedRun(
				await this.store(),
				check.request,
				check.stages,
				loadPlans(browserStorage())
			);
			if (current()) this.#checked = { key: check.key, result };
			return result;
		} catch {
			// Storage that cannot be read says so through the page's error; the hint just stays away.
			return null;
		}
	}

	/**
	 * Fills the run id with the first free `runN` of the evaluated model. With `onlyIfEmpty`
	 * (the page's automatic suggestion) a run id the user typed meanwhile is kept, and so is a
	 * field the user has edited at all; `onlyIf`, asked just before writing, false keeps the
	 * field as it is (e.g. it has focus).
	 */
	async suggestRunId(options: { onlyIfEmpty?: boolean; onlyIf?: () => boolean } = {}) {
		const evaluated = settingsState.identity.models.evaluated;
		const modelDir = evaluated ? await modelDirName(evaluated) : null;
		// The suggestion is worked out while the page loads, when a quick user (or a test) may
		// already be typing: whatever they typed, even a cleared field, wins.
		if (options.onlyIfEmpty && (this.runId || this.runIdEdited)) return;
		if (options.onlyIf && !options.onlyIf()) return;
		this.runId = firstFreeRunId(this.savedRuns, modelDir);
	}

	async start(): Promise<void> {
		this.pageError = null;
		this.batch.note = null;
		this.resumedWithoutKeys = [];
		const before = this.snapshot;
		try {
			if (this.plan.isPlan(this.runId)) {
				const form = { runId: this.runId, limit: this.limit, stages: this.chosenStages };
				const batch = this.batch.choice;
				return await this.#run(async () => (await this.plan.start(form, batch), this.snapshot));
			}
			const request = newRunRequest(
				this.sources,
				{ runId: this.runId, limit: this.limit, stages: this.chosenStages },
				browserClientFactory
			);
			this.#showStarting(request.stages, this.savedRun?.run ?? null);
			// Asked again now, not from the last (debounced) check: a run id of other inputs is never
			// started, so nothing of that run is touched; the form lists what differs.
			const saved = await this.checkSavedRun();
			if (saved?.kind === 'refused') {
				this.snapshot = before;
				return;
			}
			if (this.batch.choice !== 'interactive') request.batch = this.batch.choice;
			this.lastRequest = request;
			await this.#run(() => this.#engine.start(request));
		} catch (e) {
			this.pageError = toRunError(e);
		}
	}

	/**
	 * Shows the new run as starting at once, on the click: the last run's status and error must
	 * not stay on screen while storage opens (the controller's first snapshot comes after that).
	 */
	#showStarting(stages: readonly StageName[], run: RunKey | null): void {
		this.snapshot = { ...idleSnapshot(), status: 'starting', stages: [...stages], run };
	}

	async resumeUnfinished(item: UnfinishedRun): Promise<void> {
		this.pageError = null;
		this.batch.note = null;
		await datasetState.loadCases(); // clicked just after a reload: the cases may be on their way
		const prompts = promptsState.hashes?.prompts ?? null;
		const check = checkResume(this.sources, item.manifest, item.plan, prompts);
		if (check.problems.length > 0) {
			this.pageError = { kind: 'usage', message: check.problems.join('\n') };
			return;
		}
		this.resumedWithoutKeys = check.missingKeys;
		try {
			const request = resumeRequest(this.sources, item.manifest, item.plan, browserClientFactory);
			this.runId = item.plan.runId;
			this.stages = stageTicks(item.plan.stages);
			this.limitText = request.limit === null ? '' : String(request.limit);
			if (item.plan.batch) request.batch = item.plan.batch;
			this.batch.choice = item.plan.batch ?? 'interactive';
			this.lastRequest = request;
			this.#showStarting(request.stages, { runId: item.plan.runId, modelDir: item.plan.modelDir });
			await this.#run(() => this.#engine.start(request));
		} catch (e) {
			this.pageError = toRunError(e);
		}
	}

	/** After a reload: takes up the batch run this browser was sending rounds for, if any. */
	async resumeBatch(): Promise<void> {
		const item = this.active ? null : this.batch.toResume(this.unfinished);
		if (item) await this.resumeUnfinished(item);
	}

	/** Forgets an unfinished run's plan; its records stay in the browser. */
	dismiss(run: RunKey): void {
		removePlan(browserStorage(), run);
		this.#listed = this.#listed.filter((u) => runKey(u.plan) !== runKey(run));
	}

	/** Forgets the batch run shown, waiting or stopped, as `dismiss` does; the card goes. */
	dismissShown(): void {
		const run = this.snapshot.run;
		if (this.active || !run) return;
		this.dismiss(run);
		this.batch.note = null;
		this.snapshot = idleSnapshot();
	}

	/** Starts the batch run the Progress card shows stopped again: its saved round goes on. */
	async restartShown(): Promise<void> {
		const request = this.lastRequest;
		if (!this.active && request) await this.#run(() => this.#engine.start(request));
	}

	pause(): void {
		this.#engine.pause();
	}

	resume(): void {
		this.#engine.resume();
	}

	stop(): void {
		this.#engine.stop();
	}

	async #run(body: () => Promise<RunSnapshot>): Promise<void> {
		if (!this.#askedPersist) {
			// Asked once, when a run starts: Firefox may show a prompt, which must follow a click.
			this.#askedPersist = true;
			await this.storage.refresh({ requestPersist: true });
		}
		this.#ticker ??= setInterval(() => (this.now = Date.now()), 1000);
		try {
			await body();
		} finally {
			this.#draw.flush();
			this.snapshot = this.#engine.snapshot;
			if (this.#ticker) clearInterval(this.#ticker);
			this.#ticker = null;
			this.now = Date.now();
			await this.refresh();
		}
	}
}

export const runState = new RunState();
// A new version's reload notice waits until no run would be cut off by it.
appUpdate.holdWhile(() => runState.active);
