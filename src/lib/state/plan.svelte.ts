/**
 * The Run page's run plan: the models and repetitions of the form, the plan under way (its
 * session's snapshot: progress, tokens, the spend against the cap kept with the plan) and the
 * plans of this browser not finished yet, for "Resume". The plan runs in the run's worker
 * (`run-engine.ts`, `plan-runner.ts`), whose session pauses it at the cap; what is remembered of
 * it (no key) is in `plan-specs.ts`, prices in `plan-prices.ts`.
 */
import type { Prices } from '$lib/core/calls/cost';
import { datasetTokensPerCall, type TokenRange } from '$lib/core/calls/token-estimate';
import { planId, planRuns, type PlannedRun } from '$lib/core/engine/plan';
import type { StageName } from '$lib/core/engine/types';
import type { RunKey } from '$lib/core/layout';
import type { Role } from '$lib/core/record-names';
import type { SessionSnapshot } from '$lib/core/session';
import { measuredTokens, type MeasuredTokens } from './earlier-tokens';
import { storedClients } from './plan-clients';
import { learnTokensPerCall, type TokensPerCall } from './plan-cost';
import { buildPlan, isPlan, keysOf, type PlanModelRow } from './plan-form';
import { loadPrices, parseAmount, savePrices } from './plan-prices';
import type { PlanInputs, PlanRequest } from '$lib/adapters/workers/plan-runner';
import { BatchPage } from './batch-page.svelte';
import type { BatchChoice } from '$lib/core/control/batch-view';
import * as specs from './plan-specs';
import type { RunEngine } from '$lib/adapters/workers/run-engine';
import { resolveEndpoints } from './model-settings';
import type { RunSources } from './run-request';
import { browserStorage } from './settings.svelte';
import { Latest } from './latest';

const emptyRole = () => ({ model: '', baseURL: '', apiKey: '' });
const emptyRow = (): PlanModelRow => ({ ...emptyRole(), user: emptyRole(), judge: emptyRole() });

export class PlanState {
	rows = $state<PlanModelRow[]>([emptyRow()]);
	repetitions = $state(1);
	prices = $state<Prices>(loadPrices(browserStorage()));
	capText = $state('');
	cap = $derived(parseAmount(this.capText));

	/** The plan shown in Progress (under way or last ended), with its runs. */
	shown = $state.raw<{ stored: specs.StoredPlan; runs: PlannedRun[] } | null>(null);
	/** Its session as last reported (either mode): status, rows, calls, spend against the cap. */
	snapshot = $state.raw<SessionSnapshot | null>(null);
	/** Batch mode, files: each waiting run's input files (by row), once the plan has ended. */
	inputs = $state.raw<PlanInputs>([]);
	/** Batch mode: files downloaded and uploaded, a plan taken up after a reload. */
	readonly batch: BatchPage<specs.StoredPlan>;
	active = $state(false);
	error = $state<string | null>(null);
	/** Plans of this browser not finished, less the one shown. */
	stored = $state.raw<specs.StoredPlan[]>([]);
	unfinished = $derived(this.stored.filter((p) => p.planId !== this.shown?.stored.planId));
	/** Tokens per call of the models of the plans run in this page, for the next estimate. */
	perCall = $state.raw<TokensPerCall>({});
	/** Tokens per call measured in the call logs of the runs saved in this browser. */
	earlier = $state.raw<MeasuredTokens | null>(null);
	/** What the estimate before Start prices calls with: this page's plans over earlier runs. */
	knownPerCall = $derived<TokensPerCall>({ ...this.earlier?.perCall, ...this.perCall });
	readonly #measures = new Latest();
	/** The session's cap has filled the cap field (when empty) since the last start. */
	#capShown = false;

	readonly #engine: () => RunEngine;
	readonly #sources: () => RunSources;
	/** The plan last started here, with its clients: an upload goes on with it. */
	#last: { stored: specs.StoredPlan; clients: PlanRequest['clients']; keys: string[] } | null =
		null;

	constructor(engine: () => RunEngine, sources: () => RunSources) {
		this.#engine = engine;
		this.#sources = sources;
		this.batch = new BatchPage<specs.StoredPlan>({
			engine,
			request: () => null,
			// The cap kept with the plan holds on.
			goOn: () => this.restartShown(),
			key: (p) => p.planId,
			waits: (p) => p.batch !== undefined && (p.status === 'running' || p.status === 'paused')
		});
	}

	/** Whether the form with `runId` is a plan rather than one run. */
	isPlan(runId: string): boolean {
		return isPlan({ runId, repetitions: this.repetitions, rows: this.rows });
	}

	/** The plan's runs for the form, or why there are none. */
	runsOf(runId: string): { runs: PlannedRun[]; problem: string | null } {
		try {
			const form = { runId, repetitions: this.repetitions, rows: this.rows };
			return { runs: planRuns(buildPlan(form, this.#sources().settings).spec), problem: null };
		} catch (e) {
			return { runs: [], problem: e instanceof Error ? e.message : String(e) };
		}
	}

	addRow(): void {
		this.rows.push(emptyRow());
	}

	removeRow(index: number): void {
		this.rows.splice(index, 1);
		if (this.rows.length === 0) this.rows.push(emptyRow());
	}

	setPrice(model: string, side: 'input' | 'output', text: string): void {
		const value = parseAmount(text);
		const old = this.prices.models[model] ?? { input: 0, output: 0 };
		const models = { ...this.prices.models };
		if (value === null && text.trim() === '') delete models[model];
		else models[model] = { ...old, [side]: value ?? 0 };
		this.prices = { ...this.prices, models };
		savePrices(browserStorage(), $state.snapshot(this.prices));
	}

	/**
	 * Each role's tokens per call estimated from the dataset's first `selected` cases through the
	 * prompt pack, up to `max_tokens` (what a model no run measured is priced with); null without
	 * a dataset. Reactive: it reads the pages' dataset, pack and settings.
	 */
	datasetPerCall(selected: number): Record<Role, TokenRange> | null {
		const { dataset, pack, settings } = this.#sources();
		if (!dataset) return null;
		return datasetTokensPerCall(
			dataset.cases.slice(0, selected),
			pack,
			settings.generation.max_tokens
		);
	}

	/** Reads the tokens per call of the saved `runs` again; the last call wins. */
	async measureEarlier(store: () => Promise<unknown>, runs: readonly RunKey[]): Promise<void> {
		const current = this.#measures.begin();
		try {
			const measured = await measuredTokens(await store(), runs);
			if (current()) this.earlier = measured;
		} catch {
			// Storage that cannot be read: the estimate counts calls only, and says so.
		}
	}

	refresh(): void {
		this.stored = specs.loadStoredPlans(browserStorage());
	}

	/** Starts the form's plan, in batch mode when `batch` says so (a simulated plan never is). */
	async start(
		form: { runId: string; limit: number | null; stages: readonly StageName[] },
		batch: BatchChoice = 'interactive'
	) {
		const sources = this.#sources();
		const rows = $state.snapshot(this.rows);
		const built = buildPlan(
			{ runId: form.runId, repetitions: this.repetitions, rows },
			sources.settings
		);
		const stored: specs.StoredPlan = {
			planId: await planId(built.spec),
			spec: built.spec,
			stages: [...form.stages],
			limit: form.limit,
			settings: { ...sources.settings.generation },
			datasetName: sources.datasetName ?? 'dataset.json',
			simulated: built.simulated,
			status: 'running',
			updatedAt: specs.nowIso(),
			...(batch !== 'interactive' && !built.simulated ? { batch } : {})
		};
		await this.#run(stored, built.clients, built.keys, this.cap);
	}

	/**
	 * Starts a stored plan again: every run goes on where it stopped, under the cap kept with the
	 * plan (the cap field's, when one is typed), the spend continuing from the saved one.
	 */
	async resumeStored(plan: specs.StoredPlan): Promise<void> {
		const shared = resolveEndpoints(this.#sources().settings);
		const clients = storedClients(plan.spec, $state.snapshot(this.rows), shared);
		const keys = plan.simulated ? [] : keysOf(clients);
		const cap = this.capText.trim() === '' ? undefined : this.cap;
		await this.#run({ ...plan, status: 'running' }, clients, keys, cap);
	}

	/** After a reload: takes up the plan in batch mode this browser was sending rounds for. */
	async resumeBatch(): Promise<void> {
		const plan = this.active ? null : this.batch.toResume(this.unfinished);
		if (plan) await this.resumeStored(plan);
	}

	dismiss(plan: specs.StoredPlan): void {
		specs.forgetPlan(browserStorage(), plan.planId);
		this.refresh();
	}

	/**
	 * Files mode, the plan shown waiting for its outputs: stops waiting. The plan is stopped (a
	 * reload no longer takes it up); its runs' rounds stay saved, so Resume offers the same files.
	 */
	stopWaiting(): void {
		if (this.active || this.snapshot?.status !== 'waiting') return;
		this.#status('stopped');
		this.snapshot = { ...this.snapshot, status: 'stopped' };
		this.inputs = [];
		this.batch.note = null;
	}

	/** Forgets the plan shown, waiting or stopped (its runs' records stay); the card goes. */
	dismissShown(): void {
		if (this.active || !this.shown) return;
		specs.forgetPlan(browserStorage(), this.shown.stored.planId);
		this.shown = null;
		this.snapshot = null;
		this.inputs = [];
		this.batch.note = null;
		this.refresh();
	}

	/** Starts the plan shown stopped again, with the clients it ran with (else the form's). */
	async restartShown(): Promise<void> {
		const shown = this.shown;
		if (this.active || !shown) return;
		const last = this.#last?.stored.planId === shown.stored.planId ? this.#last : null;
		if (!last) return this.resumeStored(shown.stored);
		await this.#run({ ...last.stored, status: 'running' }, last.clients, last.keys, undefined);
	}

	pause(): void {
		this.#engine().pause();
	}

	resume(): void {
		this.#engine().resume();
	}

	/** The cap field changed: the plan under way takes the new cap (a higher one resumes it). */
	capChanged(): void {
		if (this.active && this.snapshot?.spend) this.#engine().setCap(this.cap);
	}

	stop(): void {
		this.#engine().stop();
	}

	/** `cap` undefined: the cap kept with the plan; else the cap field's (null: none). */
	async #run(
		stored: specs.StoredPlan,
		clients: PlanRequest['clients'],
		keys: string[],
		cap: number | null | undefined
	): Promise<void> {
		const sources = this.#sources();
		if (!sources.dataset) throw new Error('no dataset loaded');
		const d = sources.dataset;
		const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
		const request: PlanRequest = {
			planId: stored.planId,
			spec: plain(stored.spec),
			dataset: {
				cases: d.cases,
				sha256: d.sha256,
				historyFields: plain(d.historyFields),
				categories: plain(d.categories)
			},
			limit: stored.limit,
			stages: [...stored.stages],
			settings: {
				...stored.settings,
				timeout_s: sources.settings.generation.timeout_s,
				retries: sources.settings.generation.retries
			},
			concurrency: sources.settings.concurrency,
			pack: plain(sources.pack),
			simulated: stored.simulated,
			clients: plain(clients),
			keys,
			spend: { prices: plain(this.prices), ...(cap === undefined ? {} : { cap }) },
			...(stored.batch ? { batch: stored.batch } : {})
		};
		specs.storePlan(browserStorage(), stored);
		this.batch.taken(stored.planId);
		this.#last = { stored, clients, keys };
		// The same plan again (after an upload, a resume): its last snapshot stays until the next.
		if (this.shown?.stored.planId !== stored.planId) {
			this.snapshot = null;
			this.batch.note = null;
		}
		this.shown = { stored, runs: planRuns(stored.spec) };
		this.inputs = [];
		this.#capShown = false;
		this.error = null;
		this.active = true;
		this.refresh();
		try {
			const end = await this.#engine().startPlan(request, (s) => this.#onSnapshot(s));
			if (end.snapshot) this.#onSnapshot(end.snapshot);
			this.inputs = end.inputs ?? [];
			this.error = end.error;
			const status = end.snapshot?.status;
			if (status === 'done') specs.forgetPlan(browserStorage(), stored.planId);
			// Files mode: every run left is waiting for its outputs; the plan resumes after the upload.
			else if (status === 'waiting') this.#status('paused');
			else this.#status(status === 'stopped' ? 'stopped' : 'failed');
		} finally {
			this.active = false;
			this.refresh();
		}
	}

	#onSnapshot(snapshot: SessionSnapshot): void {
		const was = this.snapshot?.status;
		this.snapshot = snapshot;
		const shown = this.shown;
		if (!shown) return;
		this.perCall = learnTokensPerCall(snapshot, shown.runs, this.perCall);
		// The cap the session holds (kept with the plan) fills an empty cap field, once a start.
		const cap = snapshot.spend?.cap ?? null;
		if (!this.#capShown && cap !== null && this.capText.trim() === '') this.capText = String(cap);
		this.#capShown = true;
		if (snapshot.status !== was && snapshot.status === 'paused') this.#status('paused');
		if (snapshot.status !== was && snapshot.status === 'running') this.#status('running');
	}

	#status(status: specs.StoredPlan['status']): void {
		if (this.shown) specs.setStoredPlanStatus(browserStorage(), this.shown.stored.planId, status);
	}
}
