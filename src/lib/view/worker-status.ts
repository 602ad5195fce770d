/** When a worker got a request and when its answer came back (the page's clock, ms). */
export interface WorkerWindow {
	posted: number;
	answered: number;
}

/**
 * The data attributes of a status line for a worker's computation (the intervals, the
 * leaderboard), which the e2e tests and benches wait on and time: its state, the milliseconds
 * it took, and its window; '' for what is not known yet.
 */
export function workerStatusData(status: string, ms: number | null, window: WorkerWindow | null) {
	return {
		'data-status': status,
		'data-ms': ms === null ? '' : String(Math.round(ms)),
		'data-posted': window?.posted ?? '',
		'data-answered': window?.answered ?? ''
	};
}
