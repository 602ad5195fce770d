/** How a leaderboard figure is written in every export: fixed decimals, a dash when undefined. */
import type { Interval } from '../metrics/bootstrap';
import type { PaperCell } from './paper-table';

export const DECIMALS = 4;
/** What an undefined figure prints as. */
export const UNDEFINED = '—';

export const fixed = (v: number | null, d = DECIMALS) => (v === null ? UNDEFINED : v.toFixed(d));

/** `0.8476 ± 0.0209`, or the mean alone when there is no SD (one run). */
export function meanSd(cell: Pick<PaperCell, 'mean' | 'sd'>, pm = '±'): string {
	if (cell.mean === null) return UNDEFINED;
	return cell.sd === null ? fixed(cell.mean) : `${fixed(cell.mean)} ${pm} ${fixed(cell.sd)}`;
}

export const interval = (ci: Interval) =>
	ci === null ? UNDEFINED : `[${fixed(ci[0])}, ${fixed(ci[1])}]`;

/** `2 [1–3]`: the rank and its 95% interval. */
export function rankText(cell: Pick<PaperCell, 'rank' | 'rank_ci95'>): string {
	if (cell.rank === null) return UNDEFINED;
	return cell.rank_ci95 === null
		? String(cell.rank)
		: `${cell.rank} [${cell.rank_ci95[0]}–${cell.rank_ci95[1]}]`;
}

/** Tokens as a whole number with thousands separators, money with `digits` decimals. */
export const tokensText = (v: number | null) =>
	v === null ? UNDEFINED : Math.round(v).toLocaleString('en-US');
export const moneyText = (v: number | null, digits = 4) =>
	v === null ? UNDEFINED : v.toFixed(digits);
