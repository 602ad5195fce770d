/**
 * The run's worker: serves the run's calls (`run-worker-protocol.ts`) over the IndexedDB store.
 * The model client and its keys, which arrive in the start call, live only in this worker's
 * memory. Its timers are not throttled when the tab is hidden.
 */
/// <reference lib="webworker" />
import { openIdbStore } from '$lib/adapters/idb-store';
import { serveRpc } from '$lib/adapters/worker-rpc';
import { runHandlers, type RunApi } from './run-worker-protocol';

serveRpc<RunApi>(
	self as unknown as DedicatedWorkerGlobalScope,
	runHandlers(() => openIdbStore())
);
