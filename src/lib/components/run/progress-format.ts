/** Numbers of the Run page as a person reads them: durations, token counts, time left. */
import type { StageProgress } from '$lib/core/engine/types';
import { m } from '$lib/paraglide/messages';
import { getLocale } from '$lib/paraglide/runtime';

/** `45 s`, `3 min 05 s`, `2 h 04 min` (`45 秒`, `3 分 05 秒`, `2 小时 04 分` in Chinese). */
export function formatDuration(ms: number): string {
	const s = Math.max(0, Math.round(ms / 1000));
	if (s < 60) return m.run_duration_s({ s });
	const min = Math.floor(s / 60);
	const pad = (n: number) => String(n).padStart(2, '0');
	if (min < 60) return m.run_duration_min({ min, s: pad(s % 60) });
	return m.run_duration_h({ h: Math.floor(min / 60), min: pad(min % 60) });
}

/**
 * `950`, `1.23K`, `4.56M` in English; `1234`, `1.23万`, `456万` in Chinese: three figures with
 * the language's unit, and the whole number where the language has no unit for it yet.
 */
export function formatCount(n: number, locale: string = getLocale()): string {
	const compact = new Intl.NumberFormat(locale, {
		notation: 'compact',
		maximumSignificantDigits: 3
	});
	const parts = compact.formatToParts(n);
	return parts.some((p) => p.type === 'compact') ? compact.format(n) : String(n);
}

export interface StageTiming {
	elapsedMs: number;
	/** Time left at the pace of the cases generated so far; null until one is. */
	etaMs: number | null;
}

/** A stretch of time the run stood paused, in `Date.now()` ms; `to` null while it lasts. */
export interface Pause {
	from: number;
	to: number | null;
}

/**
 * Elapsed time (live while running, standing still while paused) and time left. Resumed cases
 * cost nothing, so the pace is taken from the cases this run generated; paused time is no part
 * of the pace either.
 */
export function stageTiming(
	p: Pick<StageProgress, 'status' | 'startedAt' | 'elapsedMs' | 'done' | 'resumed' | 'total'>,
	now: number,
	pauses: readonly Pause[] = []
): StageTiming {
	const end =
		p.status === 'running' ? Math.max(p.startedAt + p.elapsedMs, now) : p.startedAt + p.elapsedMs;
	const elapsedMs = Math.max(0, end - p.startedAt - pausedWithin(pauses, p.startedAt, end));
	const generated = p.done - p.resumed;
	const left = p.total - p.done;
	if (p.status !== 'running' || left <= 0) return { elapsedMs, etaMs: left <= 0 ? 0 : null };
	if (generated <= 0 || elapsedMs <= 0) return { elapsedMs, etaMs: null };
	return { elapsedMs, etaMs: (elapsedMs / generated) * left };
}

/** Milliseconds of `pauses` that fall between `start` and `end` (a pause under way lasts to `end`). */
function pausedWithin(pauses: readonly Pause[], start: number, end: number): number {
	let total = 0;
	for (const pause of pauses) {
		const from = Math.max(pause.from, start);
		const to = Math.min(pause.to ?? end, end);
		if (to > from) total += to - from;
	}
	return total;
}
