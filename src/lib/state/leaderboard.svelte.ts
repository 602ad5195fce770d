/**
 * The Results page's leaderboard: computed in a statistics worker of its own from the shown runs
 * (all cases with intervals, every class with means and ranks, the chosen class with intervals
 * too), sorted and priced on the page. Choices: prices here; sort column and direction, class and
 * heat-map metric in `leaderboard-choices.svelte.ts` (the page's URL holds them).
 */
import { Latest } from './latest';
import type { ColumnKey } from '$lib/core/protocol/metrics';
import { costsOfBoards } from '$lib/core/leaderboard/costs';
import type { Leaderboard, LeaderboardOptions } from '$lib/core/leaderboard/leaderboard';
import type { Price, Prices } from '$lib/core/leaderboard/prices';
import type { SortKey } from '$lib/core/leaderboard/sort';
import type { LoadedRun } from '$lib/core/results';
import { leaderboardChoices, type LeaderboardChoices } from './leaderboard-choices.svelte';
import { savedPrices, savePrices } from './saved-prices';
import { StatsClient } from './stats-client';

export type LeaderboardStatus = 'idle' | 'computing' | 'ready' | 'error';

export class LeaderboardState {
	status = $state<LeaderboardStatus>('idle');
	leaderboard = $state.raw<Leaderboard | null>(null);
	error = $state<string | null>(null);
	/** Milliseconds from posting to the answer (the bench reads it). */
	ms = $state<number | null>(null);
	/** When the last request was posted and answered (`performance.now()`), for the bench. */
	window = $state.raw<{ posted: number; answered: number } | null>(null);
	readonly choices: LeaderboardChoices;
	prices = $state.raw<Prices>(savedPrices());
	runs = $state.raw<LoadedRun[]>([]);
	/** Per board, each row's cost (from the rows the worker made: the runs are not split again). */
	costs = $derived(costsOfBoards(this.leaderboard?.boards ?? [], this.runs, this.prices));

	#stats: StatsClient;
	#latest = new Latest();

	constructor(stats?: StatsClient, choices: LeaderboardChoices = leaderboardChoices) {
		this.#stats = stats ?? new StatsClient();
		this.choices = choices;
	}

	get sort(): SortKey {
		return this.choices.sort;
	}
	/** The class whose leaderboard is shown; null: all cases. */
	get cls(): string | null {
		return this.choices.cls;
	}
	/** The metric of the heat map and of the narrow-screen table. */
	get metric(): ColumnKey {
		return this.choices.metric;
	}
	set metric(metric: ColumnKey) {
		this.choices.metric = metric;
	}

	/** The worker's options for the shown class: its intervals too, beside all cases'. */
	get options(): LeaderboardOptions {
		return { classIntervals: this.cls === null ? [] : [this.cls] };
	}

	/**
	 * Ranks `runs` unless they are the runs ranked or asked for already (the Results view asks
	 * with its intervals, in one worker call: `take`); a newer call wins over an older one.
	 */
	async compute(runs: LoadedRun[]): Promise<void> {
		if (runs !== this.runs) await this.#rank(runs);
	}

	/** Shows the leaderboard of `runs` that `answer` brings (asked for by the Results view). */
	take(runs: LoadedRun[], answer: Promise<{ leaderboard: Leaderboard | null; posted: number }>) {
		void this.#rank(runs, answer);
	}

	async #rank(
		runs: LoadedRun[],
		answer?: Promise<{ leaderboard: Leaderboard | null; posted: number }>
	): Promise<void> {
		const current = this.#latest.begin();
		this.runs = runs;
		if (runs.every((r) => r.run.empty)) {
			answer?.catch(() => undefined);
			this.leaderboard = null;
			this.status = 'idle';
			return;
		}
		this.status = 'computing';
		const cls = this.cls;
		try {
			const { leaderboard, posted } = await (answer ?? this.#ask(runs));
			if (!current()) return;
			this.leaderboard = leaderboard;
			// A class no board holds (a link's, or one of runs no longer shown) reads as all cases.
			if (cls !== null && !leaderboard?.boards.some((b) => Object.hasOwn(b.by_class, cls))) {
				this.choices.cls = null;
			}
			this.window = { posted, answered: performance.now() };
			this.ms = performance.now() - posted;
			this.error = null;
			this.status = 'ready';
		} catch (e) {
			if (!current()) return;
			this.error = (e as Error).message;
			this.status = 'error';
		}
	}

	/** The leaderboard of `runs` alone, asked of the worker after the page has drawn. */
	async #ask(runs: LoadedRun[]): Promise<{ leaderboard: Leaderboard; posted: number }> {
		const options = this.options;
		// Posted after the page has drawn (Svelte flushes in microtasks, the effect that calls this
		// among them): the worker's time then overlaps no long task of the page's own.
		await new Promise((resolve) => setTimeout(resolve, 0));
		const posted = performance.now();
		return { leaderboard: await this.#stats.leaderboard(runs, options), posted };
	}

	/** Shows class `cls` (null: all cases); its intervals are computed when first asked for. */
	chooseClass(cls: string | null): void {
		this.choices.cls = cls;
		const known = this.leaderboard?.boards.some((b) => {
			const scope = cls === null || !Object.hasOwn(b.by_class, cls) ? null : b.by_class[cls];
			return scope?.rows.some((r) => Object.values(r.cells).some((c) => c.ci95 !== null));
		});
		if (cls !== null && !known) void this.#rank(this.runs);
	}

	/** Sets (or with null clears) the price of `model`, remembered in this browser. */
	setPrice(model: string, price: Price | null): void {
		const models = { ...this.prices.models };
		if (price) models[model] = price;
		else delete models[model];
		this.prices = { ...this.prices, models };
		savePrices(this.prices);
	}

	setCurrency(currency: string): void {
		const trimmed = currency.trim().slice(0, 12);
		this.prices = { ...this.prices, currency: trimmed || undefined };
		savePrices(this.prices);
	}
}

export const leaderboardState = new LeaderboardState();
