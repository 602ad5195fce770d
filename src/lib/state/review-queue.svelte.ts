/**
 * Inspect's review queue: a seeded, stratified sample of a run's judge decisions
 * (`core/agreement`), a reviewer's label for each, saved in this browser as it is given, and the
 * agreement of the judge with every reviewer of the run. The queue's settings (reviewer, size,
 * seed) are kept per run in localStorage, so a reload shows the same sample.
 */
import { Latest } from './latest';
import { listDecisions, sampleDecisions, reviewReport } from '$lib/core/agreement';
import { refuseUnheld } from '$lib/core/agreement/report';
import type { StageSizes } from '$lib/core/agreement/sample';
import { saidOf } from '$lib/core/errors';
import type { CoreText } from '$lib/core/said';
import type { Decision, ReviewReport } from '$lib/core/agreement';
import type { ReviewLine } from '$lib/core/agreement/review-line';
import type { CallLogEntry } from '$lib/core/calls/schema';
import { decisionKey, runKey } from '$lib/core/names';
import type { StoredRun } from '$lib/core/store/types';
import { layoutSourceModule, openSharedIdbStore } from './lazy-store';
import { judgeCallOf } from './review-call';

const reviewsModule = () => import('$lib/adapters/idb-reviews');
const SETTINGS_KEY = 'lexpilot-review-queue';
/** @default 50 decisions a sample */
export const DEFAULT_SAMPLE = 50;

interface QueueSettings {
	reviewer: string;
	size: number;
	seed: number;
	/** A size per stage group the reviewer set (the others share the rest of `size`). */
	stages?: StageSizes;
}

/** The stage sizes of saved settings, when each is a whole number (else none). */
function savedStages(raw: unknown): StageSizes | undefined {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const out: StageSizes = {};
	for (const g of ['lca', 'dcg', 'ljp'] as const) {
		const n = (raw as Record<string, unknown>)[g];
		if (Number.isInteger(n) && (n as number) >= 0) out[g] = n as number;
	}
	return Object.keys(out).length ? out : undefined;
}

function savedSettings(key: string): QueueSettings | null {
	try {
		const all = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}') as Record<string, unknown>;
		const s = all[key] as Partial<QueueSettings> | undefined;
		if (
			!s ||
			typeof s.reviewer !== 'string' ||
			!Number.isInteger(s.size) ||
			!Number.isInteger(s.seed)
		)
			return null;
		const stages = savedStages(s.stages);
		return { reviewer: s.reviewer, size: s.size!, seed: s.seed!, ...(stages ? { stages } : {}) };
	} catch {
		return null;
	}
}

function saveSettings(key: string, settings: QueueSettings | null): void {
	try {
		const all = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}') as Record<string, unknown>;
		if (settings) all[key] = settings;
		else delete all[key];
		localStorage.setItem(SETTINGS_KEY, JSON.stringify(all));
	} catch {
		// Private mode without storage: the queue lasts as long as the page.
	}
}

export class ReviewQueueState {
	status = $state<'idle' | 'loading' | 'ready' | 'error'>('idle');
	error = $state<string | null>(null);
	/** The error's coded pieces, for the page's language (null: say `error` as it is). */
	errorSaid = $state.raw<CoreText[] | null>(null);
	run = $state.raw<StoredRun | null>(null);
	decisions = $state.raw<Decision[]>([]);
	/** Every review of the run kept here, every reviewer. */
	reviews = $state.raw<ReviewLine[]>([]);
	settings = $state.raw<QueueSettings | null>(null);
	sample = $state.raw<Decision[]>([]);
	index = $state(0);
	/** The judge's call of the decision shown (its filled prompt and raw answer), when logged. */
	call = $state.raw<CallLogEntry | null>(null);

	readonly current = $derived(this.sample[this.index] ?? null);
	readonly mine = $derived(
		// eslint-disable-next-line svelte/prefer-svelte-reactivity -- built whole in a derived, never changed
		new Map(
			this.reviews
				.filter((r) => r.reviewer === this.settings?.reviewer)
				.map((r) => [decisionKey(r.decision), r])
		)
	);
	readonly reviewed = $derived(this.sample.filter((d) => this.mine.has(d.key)).length);
	readonly report = $derived<ReviewReport | null>(
		this.run && this.reviews.length
			? reviewReport(this.decisions, this.reviews, this.run.manifest.categories)
			: null
	);
	#latest = new Latest();

	/** Reads the run's decisions and reviews; the queue of a reload comes back from its settings. */
	async open(run: StoredRun | null): Promise<void> {
		const isLatest = this.#latest.begin();
		this.run = run;
		this.sample = [];
		this.call = null;
		if (!run) return;
		this.status = 'loading';
		try {
			const store = await openSharedIdbStore();
			const { readRunRecords } = await layoutSourceModule();
			const records = await readRunRecords(store, run.run);
			const placed = await (await reviewsModule()).storedReviews(store, run.run);
			if (!isLatest()) return;
			const decisions = listDecisions(run.run, records, run.manifest.categories);
			// A review of a decision the run does not hold is refused by name, never compared.
			refuseUnheld(decisions, placed);
			this.decisions = decisions;
			this.reviews = placed.map((p) => p.review);
			this.settings = savedSettings(runKey(run.run));
			if (this.settings) this.#draw();
			this.status = 'ready';
			await this.#loadCall();
		} catch (e) {
			if (!isLatest()) return;
			this.error = (e as Error).message;
			this.errorSaid = saidOf(e) ?? null;
			this.status = 'error';
		}
	}

	/** Starts (or restarts) the queue: the sample of `size` drawn from `seed`, by `reviewer`. */
	async start(settings: QueueSettings): Promise<void> {
		if (!this.run) return;
		this.settings = settings;
		saveSettings(runKey(this.run.run), settings);
		this.#draw();
		await this.#loadCall();
	}

	/** Closes the queue (its reviews stay). */
	stop(): void {
		if (this.run) saveSettings(runKey(this.run.run), null);
		this.settings = null;
		this.sample = [];
	}

	#draw(): void {
		const s = this.settings!;
		this.sample = sampleDecisions(this.decisions, s.size, s.seed, s.stages);
		const firstOpen = this.sample.findIndex((d) => !this.mine.has(d.key));
		this.index = firstOpen < 0 ? 0 : firstOpen;
	}

	/** Saves the reviewer's label (and note) for the decision shown, then moves on. */
	async label(label: string, note = ''): Promise<void> {
		const d = this.current;
		const s = this.settings;
		if (!d || !s) return;
		const review: ReviewLine = {
			decision: d.id,
			judge_label: d.label,
			reviewer_label: label,
			...(note.trim() ? { note: note.trim() } : {}),
			reviewer: s.reviewer,
			// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a timestamp, never observed
			at: new Date().toISOString()
		};
		const store = await openSharedIdbStore();
		await (await reviewsModule()).saveReview(store, review);
		this.reviews = [
			...this.reviews.filter(
				(r) => !(r.reviewer === s.reviewer && decisionKey(r.decision) === d.key)
			),
			review
		];
		await this.go(1);
	}

	/** Moves `step` decisions on (1 next or skip, −1 back), within the sample. */
	async go(step: number): Promise<void> {
		const next = Math.min(Math.max(this.index + step, 0), Math.max(this.sample.length - 1, 0));
		if (next === this.index) return;
		this.index = next;
		await this.#loadCall();
	}

	async #loadCall(): Promise<void> {
		const d = this.current;
		const run = this.run;
		this.call = null;
		if (!d || !run) return;
		const isLatest = this.#latest.watch();
		try {
			const { readCaseCalls } = await layoutSourceModule();
			const calls = await readCaseCalls(
				await openSharedIdbStore(),
				run.run,
				String(d.id.case_number)
			);
			if (isLatest() && this.current === d) this.call = judgeCallOf(calls, d.id);
		} catch {
			// No readable call log: the decision is shown with its label only.
		}
	}
}

export const reviewQueue = new ReviewQueueState();
