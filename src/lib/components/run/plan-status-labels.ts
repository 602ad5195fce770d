/**
 * Words for a run plan's status and for its rows' (PROTOCOL.md §8), one table for the plan
 * progress of both modes; batch mode says its own "waiting" (for a round, not for a turn).
 */
import type { PlanRunStatus, PlanSnapshot } from '$lib/core/engine/plan-progress';
import { m } from '$lib/paraglide/messages';

export const PLAN_STATUS: Record<PlanSnapshot['status'], () => string> = {
	running: () => m.plans_status_running(),
	paused: () => m.plans_status_paused(),
	done: () => m.plans_status_done(),
	failed: () => m.plans_status_failed(),
	aborted: () => m.plans_status_aborted()
};

export const PLAN_ROW: Record<PlanRunStatus, () => string> = {
	waiting: () => m.plans_row_waiting(),
	running: () => m.plans_row_running(),
	done: () => m.plans_row_done(),
	failed: () => m.plans_row_failed(),
	aborted: () => m.plans_row_aborted()
};
