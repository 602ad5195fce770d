/**
 * The y axis every bar chart of the Results page shares, on screen (Chart.js) and in exports
 * (svg-chart.ts): its range, its ticks, how a tick reads, and whiskers clipped to it.
 */
import { formatNumber } from '$lib/core/report/format';
import { m } from '$lib/paraglide/messages';
import type { Cell, Figure } from '$lib/view/figures';

/** Tick step of every y axis: 0, 0.2, …, 1. */
export const TICK_STEP = 0.2;

/**
 * What a whisker shows: `sd`, ± one sample SD over a group's runs; `ci`, one run's 95% interval
 * over the cases. Drawn differently (solid with wide caps; dashed with short caps) and named in
 * the chart's legend, so a group of one run beside groups of several is not read as their SD.
 */
export type WhiskerKind = 'sd' | 'ci';

/** The whisker of a bar and what it shows: its 95% interval, else ± one SD (groups), else none. */
export function whiskerMark(
	cell: Cell,
	figure: Pick<Figure, 'withSd' | 'withCi'>
): { range: [number, number]; kind: WhiskerKind } | null {
	if (cell.value === null) return null;
	if (figure.withCi && cell.ci) return { range: [cell.ci[0], cell.ci[1]], kind: 'ci' };
	if (figure.withSd && cell.sd !== null && cell.sd !== undefined && cell.sd > 0) {
		return { range: [cell.value - cell.sd, cell.value + cell.sd], kind: 'sd' };
	}
	return null;
}

/** The whisker of a bar: its bootstrap interval, else ± one SD (groups), else none. */
export function whiskerOf(
	cell: Cell,
	figure: Pick<Figure, 'withSd' | 'withCi'>
): [number, number] | null {
	return whiskerMark(cell, figure)?.range ?? null;
}

/** The kinds of whisker a figure draws, in legend order (± SD first). */
export function whiskerKinds(figure: Pick<Figure, 'withSd' | 'withCi' | 'cells'>): WhiskerKind[] {
	const drawn = new Set(figure.cells.flat().map((c) => whiskerMark(c, figure)?.kind));
	return (['sd', 'ci'] as const).filter((k) => drawn.has(k));
}

/** Rates on [0, 1]; kappa from 1 down to 0, or to the tick below the lowest value or whisker. */
export function yRange(figure: Figure): { min: number; max: number } {
	if (figure.scale === 'rate') return { min: 0, max: 1 };
	const lows = figure.cells
		.flat()
		.map((c) => Math.min(c.value ?? 0, whiskerOf(c, figure)?.[0] ?? 0));
	const low = Math.min(0, ...lows);
	// A multiple of the tick step (and never below −1, QWK's floor), so the axis reads 1.0, …, 0, −0.2, …
	return {
		min: low < 0 ? Math.max(-1, Math.floor(low / TICK_STEP - 1e-9) * TICK_STEP) : 0,
		max: 1
	};
}

/** The tick values of a range, exact multiples of the step (no 0.6000000000000001). */
export function ticksOf(range: { min: number; max: number }, step = TICK_STEP): number[] {
	const first = Math.ceil(range.min / step - 1e-9);
	const last = Math.floor(range.max / step + 1e-9);
	const ticks: number[] = [];
	for (let k = first; k <= last; k++) ticks.push(Number((k * step).toFixed(10)));
	return ticks;
}

/**
 * A tick label with `decimals` digits; whatever rounds to zero reads `0.0`, never `-0.0`, and
 * negative values use a true minus sign (U+2212).
 */
export const formatTick = (value: number, decimals = 1): string =>
	formatNumber(value, { decimals, typeset: true });

/** A whisker clipped to the axis; null when it lies wholly outside. */
export function clipToAxis(
	whisker: readonly [number, number],
	range: { min: number; max: number }
): [number, number] | null {
	const lo = Math.max(range.min, Math.min(whisker[0], whisker[1]));
	const hi = Math.min(range.max, Math.max(whisker[0], whisker[1]));
	return lo > hi ? null : [lo, hi];
}

/** The legend's words for each kind of whisker the figure draws, in its language. */
export function whiskerLegend(figure: Figure): { kind: WhiskerKind; text: string }[] {
	const o = { locale: figure.locale };
	return whiskerKinds(figure).map((kind) => ({
		kind,
		text: kind === 'sd' ? m.results_whisker_sd({}, o) : m.results_whisker_ci({}, o)
	}));
}
