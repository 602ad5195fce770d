/**
 * Pausing as the Progress card shows it: pausing becomes paused once nothing is under way but
 * the tasks held at the gate, and each pause is a span of time.
 */
import type { PauseGate } from './pause-gate';
import type { PauseSpan, RunSnapshot } from './run-snapshot';

/** The pauses with the one under way (if any) ended at `at`. */
export function endPause(pauses: PauseSpan[], at: number): PauseSpan[] {
	const last = pauses.at(-1);
	if (!last || last.to !== null) return pauses;
	return [...pauses.slice(0, -1), { ...last, to: at }];
}

/**
 * What changes in the snapshot when `underWay` tasks are under way and the gate holds its own:
 * the waiting counts, and pausing becoming paused once nothing else runs. Null: nothing changes.
 */
export function pausePatch(
	snap: RunSnapshot,
	gate: PauseGate,
	underWay: number,
	at: number
): Partial<RunSnapshot> | null {
	const waiting = gate.waitingCases;
	const patch: Partial<RunSnapshot> = {};
	if (waiting !== snap.waiting) {
		patch.waiting = waiting;
		patch.waitingBy = gate.waitingByStage();
	}
	if (snap.status === 'pausing' && underWay <= 0) {
		patch.status = 'paused';
		patch.pauses = [...snap.pauses, { from: at, to: null }];
	}
	return Object.keys(patch).length > 0 ? patch : null;
}
