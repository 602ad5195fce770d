/**
 * The Run page's state: the form, the run in progress (drawn at most once per frame), the
 * unfinished runs of this browser, and storage use. The engine runs on the main thread; see
 * `run-controller.ts` for why.
 */
import { estimateStorage, type StorageInfo } from '$lib/adapters/storage-info';
import type { IdbStore } from '$lib/adapters/idb-store';
import type { StageName } from '$lib/core/engine/types';
import type { RunKey } from '$lib/core/layout';
import { modelDirName } from '$lib/core/layout';
import { appUpdate } from './app-update.svelte';
import { browserClientFactory } from './browser-client';
import { datasetState } from './dataset.svelte';
import { frameThrottle, type Throttled } from './frame-throttle';
import { promptsState } from './prompts.svelte';
import {
	idleSnapshot,
	RunController,
	toRunError,
	type RunError,
	type RunSnapshot
} from './run-controller';
import { loadPlans, removePlan } from './run-plans';
import {
	checkResume,
	newRunRequest,
	orderStages,
	resumeRequest,
	startProblems,
	type RunSources
} from './run-request';
import { browserStorage, settingsState } from './settings.svelte';
import { listUnfinished, savedPerStage, type UnfinishedRun } from './unfinished-runs';

/** The stages the Run form offers, in protocol order (lca re-judging is a CLI tool). */
export const FORM_STAGES: readonly StageName[] = [
	'gen',
	'dcg',
	'ljp-direct',
	'ljp-gold',
	'ljp-interaction'
];

export class RunState {
	runId = $state('');
	/** Set once the user types in the run id field; the automatic suggestion then stays away. */
	runIdEdited = false;
	/** The limit field as typed; empty means every case. */
	limitText = $state('');
	stages = $state<Record<StageName, boolean>>({
		gen: true,
		lca: false,
		dcg: true,
		'ljp-direct': true,
		'ljp-gold': true,
		'ljp-interaction': true
	});

	/** The run of this page, as last drawn. */
	snapshot = $state.raw<RunSnapshot>(idleSnapshot());
	unfinished = $state.raw<UnfinishedRun[]>([]);
	/** Every run saved in this browser (for suggesting a free run id). */
	savedRuns = $state.raw<RunKey[]>([]);
	/** Cases saved per stage of the run the form names, when it exists already. */
	savedForForm = $state.raw<Partial<Record<StageName, number>> | null>(null);
	storage = $state.raw<StorageInfo | null>(null);
	/** An error outside any run: storage unavailable, a resume refused. */
	pageError = $state.raw<RunError | null>(null);
	/** Roles without a key when the last resume started; shown, not blocking. */
	resumedWithoutKeys = $state.raw<string[]>([]);
	/** Ticks once a second while a run is active, for elapsed time and ETA. */
	now = $state(Date.now());

	/** True once the shown run has started a stage (a refused start has nothing to show). */
	hasProgress = $derived(Object.keys(this.snapshot.progress).length > 0);
	chosenStages = $derived(orderStages(FORM_STAGES.filter((s) => this.stages[s])));
	limit = $derived(parseLimit(this.limitText));
	active = $derived(
		['starting', 'running', 'pausing', 'paused', 'stopping'].includes(this.snapshot.status)
	);

	#controller: RunController | null = null;
	#store: Promise<IdbStore> | null = null;
	#draw: Throttled;
	#ticker: ReturnType<typeof setInterval> | null = null;
	#askedPersist = false;

	constructor() {
		this.#draw = frameThrottle(() => {
			if (this.#controller) this.snapshot = this.#controller.snapshot;
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

	get problems(): string[] {
		return startProblems(this.sources, {
			runId: this.runId,
			limit: this.limit,
			stages: this.chosenStages
		});
	}

	/** Opens IndexedDB once; a failure becomes the page's error. */
	async store(): Promise<IdbStore> {
		if (!this.#store) {
			this.#store = import('$lib/adapters/idb-store').then((m) => m.openIdbStore());
			this.#store.catch(() => (this.#store = null));
		}
		return this.#store;
	}

	async #controllerFor(): Promise<RunController> {
		if (!this.#controller) {
			this.#controller = new RunController({
				store: await this.store(),
				plans: browserStorage(),
				onChange: () => this.#draw.request()
			});
		}
		return this.#controller;
	}

	/** Loads the lists the page shows: unfinished runs, saved runs, storage use. */
	async refresh(): Promise<void> {
		try {
			const store = await this.store();
			this.unfinished = await listUnfinished(
				store,
				loadPlans(browserStorage()),
				await store.heldRuns(),
				// The run this page shows has its own card, with Start to continue it; a run refused
				// before it began (another tab holds it) stays listed.
				this.hasProgress ? this.snapshot.run : null
			);
			this.savedRuns = await store.listRuns();
			await this.refreshSavedForForm();
		} catch (e) {
			this.pageError = toRunError(e);
		}
		this.storage = await estimateStorage();
	}

	/** Counts what is saved under the run id and model the form names, for the estimate. */
	async refreshSavedForForm(): Promise<void> {
		const evaluated = settingsState.identity.models.evaluated;
		if (!this.runId || !evaluated) {
			this.savedForForm = null;
			return;
		}
		const run = { runId: this.runId, modelDir: await modelDirName(evaluated) };
		const exists = this.savedRuns.some((r) => r.runId === run.runId && r.modelDir === run.modelDir);
		this.savedForForm = exists
			? await savedPerStage(await this.store(), run, this.chosenStages).catch(() => null)
			: null;
	}

	/** `run1`, `run2`, …: the first id not used yet by the evaluated model. */
	/**
	 * Fills the run id with the first free `runN` of the evaluated model. With `onlyIfEmpty`
	 * (the page's automatic suggestion) a run id the user typed meanwhile is kept, and so is a
	 * field the user has edited at all.
	 */
	async suggestRunId(
		options: {
			onlyIfEmpty?: boolean;
			/** Asked just before writing; false keeps the field as it is (e.g. it has focus). */
			onlyIf?: () => boolean;
		} = {}
	): Promise<void> {
		const evaluated = settingsState.identity.models.evaluated;
		const modelDir = evaluated ? await modelDirName(evaluated) : null;
		// The suggestion is worked out while the page loads, when a quick user (or a test) may
		// already be typing: whatever they typed, even a cleared field, wins.
		if (options.onlyIfEmpty && (this.runId || this.runIdEdited)) return;
		if (options.onlyIf && !options.onlyIf()) return;
		const used = this.savedRuns
			.filter((r) => modelDir === null || r.modelDir === modelDir)
			.map((r) => r.runId);
		let n = 1;
		while (used.includes(`run${n}`)) n++;
		this.runId = `run${n}`;
		await this.refreshSavedForForm();
	}

	async start(): Promise<void> {
		this.pageError = null;
		this.resumedWithoutKeys = [];
		try {
			const request = newRunRequest(
				this.sources,
				{ runId: this.runId, limit: this.limit, stages: this.chosenStages },
				browserClientFactory
			);
			this.#showStarting(request.stages);
			await this.#run(() => this.#controllerFor().then((c) => c.start(request)));
		} catch (e) {
			this.pageError = toRunError(e);
		}
	}

	/**
	 * Shows the new run as starting at once, on the click: the last run's status and error must
	 * not stay on screen while storage opens (the controller's first snapshot comes after that).
	 */
	#showStarting(stages: readonly StageName[]): void {
		this.snapshot = { ...idleSnapshot(), status: 'starting', stages: [...stages] };
	}

	async resumeUnfinished(item: UnfinishedRun): Promise<void> {
		this.pageError = null;
		const check = checkResume(
			this.sources,
			item.manifest,
			item.plan,
			promptsState.hashes?.prompts ?? null
		);
		if (check.problems.length > 0) {
			this.pageError = { kind: 'usage', message: check.problems.join('\n') };
			return;
		}
		this.resumedWithoutKeys = check.missingKeys;
		try {
			const request = resumeRequest(this.sources, item.manifest, item.plan, browserClientFactory);
			this.runId = item.plan.runId;
			this.stages = Object.fromEntries(
				Object.keys(this.stages).map((s) => [s, item.plan.stages.includes(s as StageName)])
			) as Record<StageName, boolean>;
			this.limitText = request.limit === null ? '' : String(request.limit);
			this.#showStarting(request.stages);
			await this.#run(() => this.#controllerFor().then((c) => c.start(request)));
		} catch (e) {
			this.pageError = toRunError(e);
		}
	}

	/** Forgets an unfinished run's plan; its records stay in the browser. */
	dismiss(item: UnfinishedRun): void {
		removePlan(browserStorage(), item.plan);
		this.unfinished = this.unfinished.filter((u) => u !== item);
	}

	pause(): void {
		this.#controller?.pause();
	}

	resume(): void {
		this.#controller?.resume();
	}

	stop(): void {
		this.#controller?.stop();
	}

	async #run(body: () => Promise<RunSnapshot>): Promise<void> {
		if (!this.#askedPersist) {
			// Asked once, when a run starts: Firefox may show a prompt, which must follow a click.
			this.#askedPersist = true;
			this.storage = await estimateStorage({ requestPersist: true });
		}
		this.#ticker ??= setInterval(() => (this.now = Date.now()), 1000);
		try {
			await body();
		} finally {
			this.#draw.flush();
			// Without a controller (storage would not open) nothing started: the error says why.
			this.snapshot = this.#controller ? this.#controller.snapshot : idleSnapshot();
			if (this.#ticker) clearInterval(this.#ticker);
			this.#ticker = null;
			this.now = Date.now();
			await this.refresh();
		}
	}
}

/** Empty → null (every case); anything else as typed, for the form to check. */
export function parseLimit(text: string): number | null {
	const t = text.trim();
	return t === '' ? null : Number(t);
}

export const runState = new RunState();
// A new version's reload notice waits until no run would be cut off by it.
appUpdate.holdWhile(() => runState.active);
