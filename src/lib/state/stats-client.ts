/**
 * The page side of the statistics worker: one module Web Worker, started on first use, with
 * promises per request. Where no Worker exists (unit tests in Node), the same code runs
 * in-process after a macrotask, so callers never depend on which path ran.
 */
import type { BootstrapOptions, RunIntervals } from '$lib/core/metrics/bootstrap';
import type { CaseTable } from '$lib/core/metrics/case-table';
import type { ComparisonReport, LoadedRun } from '$lib/core/results';
import type { Leaderboard, LeaderboardOptions } from '$lib/core/leaderboard/leaderboard';
import { UsageError } from '$lib/core/errors';
import { m } from '$lib/paraglide/messages';
import type { StatsRequest, StatsResponse } from './stats-protocol';

type StatsRequestBody = StatsRequest extends infer R
	? R extends StatsRequest
		? Omit<R, 'id'>
		: never
	: never;

type Pending = { resolve: (r: StatsResponse) => void; reject: (e: Error) => void };

/** A refusal or failure the worker sent back, its coded pieces kept (`saidOf` reads them). */
function failure(r: Extract<StatsResponse, { kind: 'error' }>): Error {
	return r.said ? new UsageError(r.message, r.said) : new Error(r.message);
}

/** Runs statistics requests, in a Web Worker when the platform has one. */
export class StatsClient {
	#worker: Worker | null = null;
	#next = 1;
	#pending = new Map<number, Pending>();

	#start(): Worker | null {
		if (this.#worker) return this.#worker;
		if (typeof Worker === 'undefined') return null;
		const worker = new Worker(new URL('./stats.worker.ts', import.meta.url), { type: 'module' });
		worker.onmessage = (event: MessageEvent<StatsResponse>) => {
			const pending = this.#pending.get(event.data.id);
			this.#pending.delete(event.data.id);
			pending?.resolve(event.data);
		};
		worker.onerror = (event) => {
			// A worker that cannot load (a blocked script) fails every request it holds, by name.
			const error = new Error(
				event.message
					? m.results_stats_failed({ detail: event.message })
					: m.results_stats_not_started()
			);
			for (const p of this.#pending.values()) p.reject(error);
			this.#pending.clear();
			this.#worker = null;
		};
		this.#worker = worker;
		return worker;
	}

	async #request(body: StatsRequestBody): Promise<StatsResponse> {
		const request = { ...body, id: this.#next++ } as StatsRequest;
		const worker = this.#start();
		if (!worker) {
			await new Promise((r) => setTimeout(r, 0));
			// Loaded here only: the page's worker has its own copy, so the page's first load
			// does not carry the statistics code.
			const { handleStatsRequest } = await import('./stats-protocol');
			return handleStatsRequest(structuredClone(request));
		}
		return new Promise((resolve, reject) => {
			this.#pending.set(request.id, { resolve, reject });
			worker.postMessage(request);
		});
	}

	/** Case-bootstrap intervals of each table, keyed as given. */
	async intervals(
		tables: { key: string; table: CaseTable }[],
		options: BootstrapOptions = {}
	): Promise<Record<string, RunIntervals>> {
		const r = await this.#request({ kind: 'intervals', tables, options });
		if (r.kind === 'error') throw failure(r);
		if (r.kind !== 'intervals') throw new Error(m.results_stats_out_of_turn());
		return r.intervals;
	}

	/** The paired comparison B − A; rejects with the refusal's reason when they cannot pair. */
	async compare(
		a: LoadedRun,
		b: LoadedRun,
		options: BootstrapOptions = {}
	): Promise<ComparisonReport> {
		const r = await this.#request({ kind: 'compare', a, b, options });
		if (r.kind === 'error') throw failure(r);
		if (r.kind !== 'compare') throw new Error(m.results_stats_out_of_turn());
		return r.comparison;
	}

	/** The leaderboard of `runs` (one bootstrap for every model at once). */
	async leaderboard(runs: LoadedRun[], options: LeaderboardOptions = {}): Promise<Leaderboard> {
		const r = await this.#request({ kind: 'leaderboard', runs, options });
		if (r.kind === 'error') throw failure(r);
		if (r.kind !== 'leaderboard') throw new Error(m.results_stats_out_of_turn());
		return r.leaderboard;
	}

	/** Stops the worker (pending requests are rejected). */
	terminate(): void {
		this.#worker?.terminate();
		this.#worker = null;
		for (const p of this.#pending.values()) p.reject(new Error(m.results_stats_stopped()));
		this.#pending.clear();
	}
}
