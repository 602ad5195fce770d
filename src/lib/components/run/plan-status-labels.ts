/**
 * Words for a run plan's status and its rows' (PROTOCOL.md §8): the session's one vocabulary
 * (`SessionStatus`, `SessionRunStatus`), one table for the plan progress of both modes; its badges
 * serve the single run's card too, and a batch round's status words both. A row of a paused plan
 * that was running says "paused". `waiting` is batch mode's: a files round waits for its outputs.
 */
import type {
	SessionRow,
	SessionRunStatus,
	SessionSnapshot,
	SessionStatus
} from '$lib/core/session';
import type { BatchRound } from '$lib/core/batch/store';
import { m } from '$lib/paraglide/messages';

/** A batch round's saved status. */
export const ROUND_STATUS: Record<BatchRound['status'], () => string> = {
	written: () => m.batch_status_written(),
	submitted: () => m.batch_status_submitted(),
	answered: () => m.batch_status_answered(),
	cancelled: () => m.batch_status_cancelled()
};

export const PLAN_STATUS: Record<SessionStatus, () => string> = {
	running: () => m.plans_status_running(),
	pausing: () => m.plans_status_pausing(),
	paused: () => m.plans_status_paused(),
	stopping: () => m.plans_status_stopping(),
	waiting: () => m.planbatch_status_waiting(),
	done: () => m.plans_status_done(),
	failed: () => m.plans_status_failed(),
	stopped: () => m.plans_status_stopped()
};

export const PLAN_BADGE: Record<SessionStatus, string> = {
	running: 'badge-accent',
	pausing: 'badge-warn',
	paused: 'badge-warn',
	stopping: 'badge-warn',
	waiting: 'badge-warn',
	done: 'badge-ok',
	failed: 'badge-danger',
	stopped: 'badge-warn'
};

/** What a row shows: its own status, `paused` while the plan holds it. */
export type PlanRowShown = SessionRunStatus | 'paused';

export const PLAN_ROW: Record<PlanRowShown, () => string> = {
	queued: () => m.plans_row_queued(),
	running: () => m.plans_row_running(),
	paused: () => m.plans_row_paused(),
	waiting: () => m.planbatch_row_waiting(),
	done: () => m.plans_row_done(),
	failed: () => m.plans_row_failed(),
	stopped: () => m.plans_row_stopped()
};

export function rowShown(snapshot: SessionSnapshot, row: SessionRow): PlanRowShown {
	return row.status === 'running' && snapshot.status === 'paused' ? 'paused' : row.status;
}
