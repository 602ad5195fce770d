/**
 * The Progress card's stage rows from a snapshot of stages running together (`runAll`'s
 * tracker): each stage's counts, with its status worked out from the whole run's.
 */
import type { RunSnapshot as EngineSnapshot, StageProgress } from '$lib/core/engine/types';
import type { RunSnapshot } from './run-snapshot';

/**
 * `batch`: a pass of batch mode, whose unfinished cases wait for the round's answers (running)
 * rather than having stopped.
 */
export function stageRows(snap: EngineSnapshot, batch = false): RunSnapshot['progress'] {
	const progress: RunSnapshot['progress'] = {};
	for (const s of snap.stages) {
		const complete = s.done >= s.total && s.inFlight === 0;
		const status: StageProgress['status'] = complete
			? 'done'
			: snap.status === 'running' || (batch && s.failures === 0)
				? 'running'
				: s.failures > 0
					? 'failed'
					: 'stopped';
		const end = s.doneAt ?? snap.startedAt + snap.elapsedMs;
		progress[s.stage] = {
			stage: s.stage,
			status,
			total: s.total,
			done: s.done,
			resumed: s.resumed,
			inFlight: s.inFlight,
			retries: s.retries,
			failures: s.failures,
			calls: s.byRole,
			tokens: s.tokens,
			startedAt: snap.startedAt,
			elapsedMs: Math.max(0, end - snap.startedAt),
			...(status === 'failed' && snap.error !== undefined ? { error: snap.error } : {})
		};
	}
	return progress;
}
