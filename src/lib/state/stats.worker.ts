/**
 * The Results page's statistics worker: bootstrap intervals, paired comparisons and the
 * leaderboard off the main thread, so 5 runs × 432 cases × 2,000 resamples never freeze the page.
 */
/// <reference lib="webworker" />
import { serveRpc } from '$lib/adapters/worker-rpc';
import { statsHandlers, type StatsApi } from './stats-protocol';

serveRpc<StatsApi>(self as unknown as DedicatedWorkerGlobalScope, statsHandlers);
