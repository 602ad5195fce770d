/** Numbers of the Run page as a person reads them: durations, token counts, time left. */
import type { StageProgress } from '$lib/core/engine/types';

/** `45 s`, `3 min 05 s`, `2 h 04 min`. */
export function formatDuration(ms: number): string {
	const s = Math.max(0, Math.round(ms / 1000));
	if (s < 60) return `${s} s`;
	const m = Math.floor(s / 60);
	if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
	return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** `950`, `12.3k`, `4.56M`. */
export function formatCount(n: number): string {
	if (n < 1000) return String(n);
	if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 2 : 1)}k`;
	return `${(n / 1_000_000).toFixed(2)}M`;
}

export interface StageTiming {
	elapsedMs: number;
	/** Time left at the pace of the cases generated so far; null until one is. */
	etaMs: number | null;
}

/**
 * Elapsed time (live while running) and time left. Resumed cases cost nothing, so the pace is
 * taken from the cases this run generated.
 */
export function stageTiming(p: StageProgress, now: number): StageTiming {
	const elapsedMs = p.status === 'running' ? Math.max(p.elapsedMs, now - p.startedAt) : p.elapsedMs;
	const generated = p.done - p.resumed;
	const left = p.total - p.done;
	if (p.status !== 'running' || left <= 0) return { elapsedMs, etaMs: left <= 0 ? 0 : null };
	if (generated <= 0 || elapsedMs <= 0) return { elapsedMs, etaMs: null };
	return { elapsedMs, etaMs: (elapsedMs / generated) * left };
}
