/**
 * A plan's progress on the terminal: on a TTY one line redrawn in place (runs done, the plan's
 * calls, rate and ETA); otherwise a plan line every tenth of the estimated calls, and one line per
 * run when it ends (its cases per stage, calls, tokens, failures).
 */
import { runName } from '../../lib/core/layout';
import type { SessionRow, SessionSnapshot } from '../../lib/core/session';
import { escapeControl } from '../../lib/core/text/escape-control';
import { callRate, formatTokens, ttyLine } from '../progress';
import { spendLine } from '../session/spend-flags';
import type { CliIo } from '../types';

/** `plan  3/6 runs done  1234/~5000 calls  41.0 calls/s  ETA 2m01s`. */
export function formatPlanProgress(s: SessionSnapshot): string {
	const done = s.runs.filter((r) => r.status === 'done').length;
	const live = ['running', 'pausing', 'paused', 'stopping'].includes(s.status);
	const parts = ['plan', `${done}/${s.runs.length} runs done`];
	parts.push(`${s.calls.done}/${live ? `~${s.calls.estimatedTotal}` : s.calls.done} calls`);
	if (live) parts.push(...callRate(s.calls.perSecond, s.etaMs));
	const limits = [...new Set(s.endpoints.map((e) => e.limit))];
	if (limits.length > 0) parts.push(`concurrency ${limits.join('/')}`);
	const spent = spendLine(s);
	if (spent) parts.push(spent);
	if (!live || s.status !== 'running') parts.push(s.status);
	return parts.join('  ');
}

/** `gen 6/6, dcg 6/6, …`: each stage's cases saved of its total, or null before the run opened. */
export function stagesDone(row: SessionRow): string | null {
	return row.run?.stages.map((st) => `${st.stage} ${st.done}/${st.total}`).join(', ') ?? null;
}

/**
 * What a row of the plan says it is: its own status, or, stopped by the CLI because the spending
 * cap paused the plan, `paused at the spending cap` (the same command with a higher cap goes on).
 */
export function rowStatus(row: SessionRow, snapshot: Pick<SessionSnapshot, 'spend'>): string {
	return row.status === 'stopped' && snapshot.spend?.capped
		? 'paused at the spending cap'
		: row.status;
}

/** `run2 simulated-weak: done; gen 6/6, dcg 6/6, …; 120 calls; evaluated 1.2k in / …`. */
export function formatPlanRow(row: SessionRow, snapshot: Pick<SessionSnapshot, 'spend'>): string {
	const head = `${escapeControl(runName(row.runId, row.model, ' '))}: ${rowStatus(row, snapshot)}`;
	const s = row.run;
	if (!s) return head;
	return `${head}; ${stagesDone(row)}; ${s.calls.done} calls; ${formatTokens({ ...s, calls: s.calls.byRole })}; failures ${s.failures}`;
}

export function createPlanPrinter(io: Pick<CliIo, 'stderr' | 'isTTY' | 'redraw'>): {
	onSnapshot: (s: SessionSnapshot) => void;
	end: () => void;
} {
	const { draw, end } = ttyLine(io);
	let lastStep = -1;
	let lastStatus: SessionSnapshot['status'] = 'running';
	const reported = new Set<number>();
	const onSnapshot = (s: SessionSnapshot) => {
		const ended = s.runs
			.map((row, i) => [row, i] as const)
			.filter(
				([row, i]) => !reported.has(i) && row.status !== 'queued' && row.status !== 'running'
			);
		if (ended.length > 0) {
			end();
			for (const [row, i] of ended) {
				reported.add(i);
				io.stderr(`  ${formatPlanRow(row, s)}\n`);
			}
		}
		if (io.isTTY) {
			draw(formatPlanProgress(s));
			if (!['running', 'pausing', 'paused', 'stopping'].includes(s.status)) end();
			return;
		}
		const total = Math.max(1, s.calls.estimatedTotal);
		const step = Math.floor((s.calls.done / total) * 10);
		if (step !== lastStep || s.status !== lastStatus) {
			lastStep = step;
			lastStatus = s.status;
			io.stderr(`${formatPlanProgress(s)}\n`);
		}
	};
	return { onSnapshot, end };
}
