/**
 * Stage progress on the terminal: on a TTY one line on stderr, redrawn in place (stage,
 * done/total, rate, ETA, retries, failures); otherwise (CI, a log file) plain lines every
 * tenth of the stage, so a log stays readable.
 */
import type { RunSnapshot, StageProgress } from '../lib/core/engine/types';
import { ROLES } from '../lib/core/records';
import type { CliIo } from './types';

const BAR_WIDTH = 20;
/** Redraws of the TTY line at most this often. */
const REDRAW_MS = 100;

/** Cases per second over the cases generated in this call (resumed ones cost nothing). */
function rate(p: StageProgress): number | null {
	const generated = p.done - p.resumed;
	return generated > 0 && p.elapsedMs > 0 ? generated / (p.elapsedMs / 1000) : null;
}

export function formatDuration(seconds: number): string {
	const s = Math.round(seconds);
	if (s < 60) return `${s}s`;
	if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
	return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

const barOf = (filled: number) => `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
/** How an ended stage or run ends its line: `done in 1m05s`, or its status. */
const ended = (status: string, elapsedMs: number) =>
	status === 'done' ? `done in ${formatDuration(elapsedMs / 1000)}` : status;

/** One line describing a stage's progress, without a line end. */
export function formatProgress(p: StageProgress, bar = false): string {
	const parts = [p.stage.padEnd(15)];
	if (bar) {
		const filled = p.total === 0 ? BAR_WIDTH : Math.round((p.done / p.total) * BAR_WIDTH);
		parts.push(barOf(filled));
	}
	parts.push(`${p.done}/${p.total} cases`);
	if (p.resumed > 0) parts.push(`(${p.resumed} resumed)`);
	if (p.inFlight > 0) parts.push(`${p.inFlight} in flight`);
	const r = rate(p);
	if (r !== null) {
		parts.push(`${r.toFixed(r < 1 ? 2 : 1)} cases/s`);
		if (p.status === 'running' && p.done < p.total) {
			parts.push(`ETA ${formatDuration((p.total - p.done) / r)}`);
		}
	}
	parts.push(`retries ${p.retries}`, `failures ${p.failures}`);
	if (p.status !== 'running') parts.push(ended(p.status, p.elapsedMs));
	return parts.join('  ');
}

/** Tokens per role, e.g. `evaluated 12.3k in / 4.1k out, judge 2.0k in / 0.1k out`. */
export function formatTokens(
	p: Pick<StageProgress, 'calls' | 'tokens' | 'retries' | 'failures'>
): string {
	const k = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));
	const used = ROLES.filter((r) => p.calls[r] > 0);
	if (used.length === 0) {
		// Calls that timed out or failed were still made: "no model calls" would hide them.
		if (p.retries === 0 && p.failures === 0) return 'no model calls';
		const failed = `${p.failures} case${p.failures === 1 ? '' : 's'} failed`;
		return `no model call answered (${p.retries} retried, ${failed})`;
	}
	return used
		.map(
			(r) =>
				`${r} ${p.calls[r]} calls, ${k(p.tokens[r].prompt)} in / ${k(p.tokens[r].completion)} out`
		)
		.join('; ');
}

/** A TTY line redrawn in place; `end()` closes it, so what follows starts a line of its own. */
export function ttyLine(io: Pick<CliIo, 'stderr' | 'redraw'>) {
	let open = false;
	return {
		draw(line: string): void {
			if (io.redraw) io.redraw(line);
			else io.stderr(`\r\x1b[2K${line}`);
			open = true;
		},
		end(): void {
			if (open) io.stderr('\n');
			open = false;
		}
	};
}

/**
 * A progress listener writing to `io.stderr`. Returns the listener and `end()`, which finishes
 * a TTY line in progress so an error message starts on a line of its own.
 */
export function createProgressPrinter(
	io: Pick<CliIo, 'stderr' | 'isTTY' | 'redraw'>,
	now: () => number = Date.now
): { onProgress: (p: StageProgress) => void; end: () => void } {
	const { draw, end } = ttyLine(io);
	let lastDraw = 0;
	let lastPrinted: { stage: string; done: number } | null = null;

	const onProgress = (p: StageProgress) => {
		const finished = p.status !== 'running';
		if (io.isTTY) {
			const t = now();
			if (!finished && t - lastDraw < REDRAW_MS && p.done < p.total) return;
			lastDraw = t;
			draw(formatProgress(p, true));
			if (finished) {
				end();
				io.stderr(`  ${formatTokens(p)}\n`);
			}
			return;
		}
		const step = Math.max(1, Math.ceil(p.total / 10));
		const isNewStage = lastPrinted?.stage !== p.stage;
		// The last case is reported by the finishing event that follows it.
		const advanced =
			!isNewStage && p.done !== lastPrinted!.done && p.done % step === 0 && p.done < p.total;
		if (isNewStage || advanced || finished) {
			io.stderr(`${formatProgress(p)}\n`);
			lastPrinted = { stage: p.stage, done: p.done };
		}
		if (finished) io.stderr(`  ${formatTokens(p)}\n`);
	};
	return { onProgress, end };
}

/** `concurrency 8`, `concurrency 8 (auto, up to 64)`, or one limit per endpoint when they differ. */
export function formatConcurrency(c: RunSnapshot['concurrency']): string {
	const limits = [...new Set(c.endpoints.map((e) => e.limit))];
	const shown = limits.length === 0 ? String(c.max) : limits.join('/');
	return `concurrency ${shown}${c.auto ? ` (auto, up to ${c.max})` : ''}`;
}

/** One line describing a whole run's progress, without a line end. */
export function formatRunProgress(s: RunSnapshot, bar = false): string {
	const parts = ['run'];
	if (bar) {
		const share = s.calls.estimatedTotal === 0 ? 1 : s.calls.done / s.calls.estimatedTotal;
		const filled =
			s.status === 'done' ? BAR_WIDTH : Math.min(BAR_WIDTH, Math.round(share * BAR_WIDTH));
		parts.push(barOf(filled));
	}
	parts.push(`${s.cases.done}/${s.cases.total} cases`);
	const estimate = s.status === 'running' ? `~${s.calls.estimatedTotal}` : String(s.calls.done);
	parts.push(`${s.calls.done}/${estimate} calls`);
	if (s.status === 'running') parts.push(...callRate(s.calls.perSecond, s.etaMs));
	parts.push(formatConcurrency(s.concurrency), `retries ${s.retries}`, `failures ${s.failures}`);
	if (s.status !== 'running') parts.push(ended(s.status, s.elapsedMs));
	return parts.join('  ');
}

/** `41.0 calls/s  ETA 2m01s` of a run or a plan under way, as parts of its line. */
export function callRate(perSecond: number | null, etaMs: number | null): string[] {
	if (perSecond === null) return [];
	const eta = etaMs === null ? [] : [`ETA ${formatDuration(etaMs / 1000)}`];
	return [`${perSecond.toFixed(perSecond < 1 ? 2 : 1)} calls/s`, ...eta];
}

/** Per stage, `gen 24/24 (3 resumed, 170 calls)`, one line each, for the end of a run. */
export function formatRunStages(s: RunSnapshot): string[] {
	return s.stages.map(
		(st) =>
			`  ${st.stage.padEnd(15)} ${st.done}/${st.total} cases` +
			`${st.resumed > 0 ? ` (${st.resumed} resumed)` : ''}, ${st.calls} calls`
	);
}

/**
 * A `runAll` snapshot listener writing to `io.stderr`: on a TTY one line redrawn in place, else
 * a line every tenth of the cases, then per-stage counts and tokens at the end. `end()` closes
 * a TTY line in progress.
 */
export function createRunProgressPrinter(io: Pick<CliIo, 'stderr' | 'isTTY' | 'redraw'>): {
	onSnapshot: (s: RunSnapshot) => void;
	end: () => void;
} {
	const { draw, end } = ttyLine(io);
	let lastCases = -1;
	const onSnapshot = (s: RunSnapshot) => {
		const finished = s.status !== 'running';
		if (io.isTTY) {
			draw(formatRunProgress(s, true));
		} else {
			const step = Math.max(1, Math.ceil(s.cases.total / 10));
			const crossed = Math.floor(s.cases.done / step) !== Math.floor(lastCases / step);
			// The last case is reported by the finishing snapshot that follows it.
			const last = !finished && s.cases.done === s.cases.total;
			if (lastCases === -1 || (crossed && !last) || finished)
				io.stderr(`${formatRunProgress(s)}\n`);
			lastCases = s.cases.done;
		}
		if (finished) {
			end();
			io.stderr(
				`${[...formatRunStages(s), `  ${formatTokens({ ...s, calls: s.calls.byRole })}`].join('\n')}\n`
			);
		}
	};
	return { onSnapshot, end };
}
