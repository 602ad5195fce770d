/**
 * The page's words for its workers' own failures (a worker that stopped, a reply it could not
 * read, a broken exchange), in the interface language: the workers and their clients live in
 * `adapters/workers/`, which say nothing themselves.
 */
import type { RpcWords } from '$lib/adapters/worker-rpc';
import type { LoadWords } from '$lib/adapters/workers/dataset-load-protocol';
import { m } from '$lib/paraglide/messages';

/** The dataset worker's own failures, said in the interface language. */
export const LOAD_WORDS: LoadWords = {
	notHeld: () => m.dataset_worker_not_held(),
	broken: (detail) =>
		detail ? m.dataset_worker_broken_detail({ detail }) : m.dataset_worker_broken(),
	stopped: (detail) =>
		detail ? m.dataset_worker_stopped_detail({ detail }) : m.dataset_worker_stopped(),
	unreadable: () => m.dataset_worker_unreadable(),
	terminated: () => m.dataset_worker_stopped()
};

/** The run worker's client's own failures. */
export const RUN_WORDS: RpcWords = {
	stopped: (detail) => (detail ? m.run_worker_stopped_detail({ detail }) : m.run_worker_stopped()),
	unreadable: () => m.run_worker_unreadable(),
	terminated: () => m.run_worker_stopped()
};
