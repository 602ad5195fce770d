/** Sorting a leaderboard (CLI `--sort`, the page's column heads): best first, undefined last. */
import type { ColumnKey } from '../protocol/metrics';
import { columnKey } from '../protocol/metrics';
import type { RowCost } from './costs';
import type { LeaderboardRow } from './leaderboard';

/** A metric column, the cost columns (cheapest first), or the model id (A to Z). */
export type SortKey = ColumnKey | 'tokens' | 'cost' | 'model';
export const EXTRA_SORT_KEYS = ['tokens', 'cost', 'model'] as const;

/** A sort key, or null when `text` names none. */
export function sortKey(text: string): SortKey | null {
	return (
		columnKey(text) ??
		((EXTRA_SORT_KEYS as readonly string[]).includes(text) ? (text as SortKey) : null)
	);
}

const collator = new Intl.Collator('en', { numeric: true });

/** `rows` sorted by `key` (a new array); ties keep the model ids in order. */
export function sortRows(
	rows: readonly LeaderboardRow[],
	key: SortKey,
	costs: Record<string, RowCost> | null = null
): LeaderboardRow[] {
	const value = (row: LeaderboardRow): number | null => {
		if (key === 'model') return 0;
		if (key === 'tokens') return costs?.[row.id]?.tokens_per_run ?? null;
		if (key === 'cost') return costs?.[row.id]?.cost_per_run ?? null;
		return row.cells[key].mean;
	};
	const sign = key === 'tokens' || key === 'cost' ? 1 : -1;
	return [...rows].sort((a, b) => {
		const va = value(a);
		const vb = value(b);
		if (va !== vb) {
			if (va === null) return 1;
			if (vb === null) return -1;
			return sign * (va - vb);
		}
		return collator.compare(a.id, b.id);
	});
}
