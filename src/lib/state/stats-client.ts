/**
 * The page side of the statistics worker: one module Web Worker, started on first use, called
 * through `worker-rpc`. Where no worker can run (unit tests in Node, a host's CSP) the same
 * handlers answer in this thread after a macrotask, so callers never depend on which path ran.
 */
import type { BootstrapOptions } from '$lib/core/metrics/bootstrap';
import type { ComparisonReport, LoadedRun } from '$lib/core/results';
import type { Leaderboard, LeaderboardOptions } from '$lib/core/leaderboard/leaderboard';
import type { RpcClient, RpcPort } from '$lib/adapters/worker-rpc';
import { m } from '$lib/paraglide/messages';
import type { StatsApi } from './stats-protocol';

const spawn = (): RpcPort =>
	new Worker(new URL('./stats.worker.ts', import.meta.url), { type: 'module' }) as RpcPort;

/** Runs statistics requests, in a Web Worker when the platform has one. */
export class StatsClient {
	#rpc: Promise<RpcClient<StatsApi>> | null = null;

	/** The client, made on first use: the page's first load carries no worker code. */
	#client(): Promise<RpcClient<StatsApi>> {
		return (this.#rpc ??= import('$lib/adapters/worker-rpc').then(
			({ RpcClient, inThreadPort }) =>
				new RpcClient<StatsApi>(
					typeof Worker === 'undefined' ? null : spawn,
					// The worker has its own copy of the statistics code; the page loads it only here.
					() => inThreadPort(async () => (await import('./stats-protocol')).statsHandlers),
					{
						stopped: (detail) =>
							detail ? m.results_stats_failed({ detail }) : m.results_stats_died(),
						unreadable: () => m.results_stats_unreadable(),
						terminated: () => m.results_stats_stopped()
					}
				)
		));
	}

	/** Each run's intervals (keyed by `reportRunKey`) and the leaderboard of them all, in one call. */
	async results(
		runs: LoadedRun[],
		options: BootstrapOptions = {},
		leaderboard: LeaderboardOptions = {}
	): Promise<StatsApi['results']['result']> {
		return (await this.#client()).call('results', { runs, options, leaderboard });
	}

	/** The paired comparison B − A; rejects with the refusal's reason when they cannot pair. */
	async compare(
		a: LoadedRun,
		b: LoadedRun,
		options: BootstrapOptions = {}
	): Promise<ComparisonReport> {
		return (await this.#client()).call('compare', { a, b, options });
	}

	/** The leaderboard of `runs` (one bootstrap for every model at once). */
	async leaderboard(runs: LoadedRun[], options: LeaderboardOptions = {}): Promise<Leaderboard> {
		return (await this.#client()).call('leaderboard', { runs, options });
	}

	/** Stops the worker (pending requests are rejected). */
	terminate(): void {
		void this.#rpc?.then((client) => client.terminate());
	}
}
