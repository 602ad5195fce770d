/**
 * The leaderboard's rows in the direction the user chose: the paper's table sorts best first
 * (`core/leaderboard/sort.ts`); turned round, the order is reversed and a row without a value
 * still comes last, as it does best first.
 */
import type { PaperRow } from '$lib/core/leaderboard/paper-table';
import type { SortKey } from '$lib/core/leaderboard/sort';
import { defaultDirection, type SortDirection } from './leaderboard-query';

function valueOf(row: PaperRow, key: SortKey): number | string | null {
	if (key === 'model') return row.id;
	if (key === 'tokens') return row.cost?.tokens_per_run ?? null;
	if (key === 'cost') return row.cost?.cost_per_run ?? null;
	return row.cells[key].mean;
}

/** `rows` (sorted best first by `key`) in direction `dir`; a new array when turned round. */
export function orderedRows(rows: PaperRow[], key: SortKey, dir: SortDirection): PaperRow[] {
	if (dir === defaultDirection(key)) return rows;
	const known = rows.filter((r) => valueOf(r, key) !== null);
	return [...known.reverse(), ...rows.filter((r) => valueOf(r, key) === null)];
}
