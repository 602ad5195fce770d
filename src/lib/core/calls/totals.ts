/** Run totals from a call log: calls, retries, tokens per role and stage, wall time. */
import { perRole, type Role } from '../record-names';
import type { CallLogEntry } from './schema';

/** Tokens summed over calls; `reasoning` is null when no call of the group reported it. */
export interface TokenTotals {
	prompt: number;
	completion: number;
	reasoning: number | null;
}

/** Totals of a group of calls (a role, or a role within a stage). */
export interface CallGroupTotals {
	/** Lines of the log: answered calls and calls that failed for good. */
	calls: number;
	/** Calls that failed for good (no response). */
	failed: number;
	/** Further attempts after the first, summed. */
	retries: number;
	/** Calls whose provider reported no usage; their tokens are not in `tokens`. */
	no_usage: number;
	/** Latency summed over calls (calls in flight together overlap, so this exceeds wall time). */
	latency_ms: number;
	tokens: TokenTotals;
}

/** What `results` shows of a run's call log (`calls` beside `metrics`). */
export interface CallTotals extends CallGroupTotals {
	/**
	 * Wall time: per session (one `runStages` call), from its first call's start to its last
	 * call's end, summed over sessions, so the pause between a stop and a resume is left out.
	 */
	wall_ms: number;
	/** How many `runStages` calls wrote to the log (1 + resumes). */
	sessions: number;
	by_role: Record<Role, CallGroupTotals>;
	/** Per stage that made calls, per role that answered there. */
	by_stage: Record<string, Partial<Record<Role, CallGroupTotals>>>;
}

function emptyGroup(): CallGroupTotals {
	return {
		calls: 0,
		failed: 0,
		retries: 0,
		no_usage: 0,
		latency_ms: 0,
		tokens: { prompt: 0, completion: 0, reasoning: null }
	};
}

function add(group: CallGroupTotals, entry: CallLogEntry): void {
	group.calls++;
	if (entry.response === null) group.failed++;
	group.retries += entry.retries;
	group.latency_ms += entry.latency_ms;
	if (!entry.usage) {
		group.no_usage++;
		return;
	}
	group.tokens.prompt += entry.usage.prompt;
	group.tokens.completion += entry.usage.completion;
	if (typeof entry.usage.reasoning === 'number') {
		group.tokens.reasoning = (group.tokens.reasoning ?? 0) + entry.usage.reasoning;
	}
}

/** Totals of `entries` (every line counts: calls of interrupted cases were made and billed too). */
export function callTotals(entries: readonly CallLogEntry[]): CallTotals {
	const total = emptyGroup();
	const byRole = perRole(emptyGroup);
	const byStage: Record<string, Partial<Record<Role, CallGroupTotals>>> = {};
	const spans = new Map<string, { start: number; end: number }>();
	for (const entry of entries) {
		add(total, entry);
		add(byRole[entry.role], entry);
		const stage = (byStage[entry.stage] ??= {});
		add((stage[entry.role] ??= emptyGroup()), entry);
		const start = Date.parse(entry.started_at);
		if (Number.isFinite(start)) {
			const end = start + entry.latency_ms;
			const span = spans.get(entry.session);
			if (!span) spans.set(entry.session, { start, end });
			else {
				span.start = Math.min(span.start, start);
				span.end = Math.max(span.end, end);
			}
		}
	}
	let wall = 0;
	for (const span of spans.values()) wall += span.end - span.start;
	return { ...total, wall_ms: wall, sessions: spans.size, by_role: byRole, by_stage: byStage };
}
