/** How a leaderboard cell is written in every export, through the one number formatter. */
import { formatCount, formatNumber, UNDEFINED } from '../report/format';
import type { PaperCell } from './paper-table';

/** `0.8476 ± 0.0209`, or the mean alone when there is no SD (one run). */
export function meanSd(cell: Pick<PaperCell, 'mean' | 'sd'>, pm = '±'): string {
	if (cell.mean === null) return UNDEFINED;
	const mean = formatNumber(cell.mean);
	return cell.sd === null ? mean : `${mean} ${pm} ${formatNumber(cell.sd)}`;
}

/** `2 [1–3]`: the rank and its 95% interval. */
export function rankText(cell: Pick<PaperCell, 'rank' | 'rank_ci95'>): string {
	if (cell.rank === null) return UNDEFINED;
	return cell.rank_ci95 === null
		? String(cell.rank)
		: `${cell.rank} [${cell.rank_ci95[0]}–${cell.rank_ci95[1]}]`;
}

/** Tokens as a whole number with thousands separators, money with `digits` decimals. */
export const tokensText = formatCount;
export const moneyText = (v: number | null, digits = 4) => formatNumber(v, digits);
