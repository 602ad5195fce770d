/**
 * The leaderboard as the paper's table: rows in the chosen order, each metric cell with its mean,
 * SD, interval and rank, marked best (the highest mean of its column) or tied with the best (a
 * pair test with a best row ran and did not reject at Holm-corrected 0.05; untested is no tie).
 * Every export renders this one shape.
 */
import { LEADERBOARD_COLUMNS, type ColumnKey } from '../protocol/metrics';
import type { RowCost } from './costs';
import type { LeaderboardScope } from './leaderboard';
import type { LeaderboardCell } from './scope';
import { sortRows, type SortKey } from './sort';

export interface PaperCell extends LeaderboardCell {
	best: boolean;
	/**
	 * Not significantly different from a best row; false for a best row itself and for one the
	 * tests set apart; null when it was not tested against any best row, and in every cell of a
	 * scope with no test at all (no tie, and no "not tied", without a test).
	 */
	tied_with_best: boolean | null;
}

export interface PaperRow {
	id: string;
	model: string;
	n: number;
	differs: string[];
	cells: Record<ColumnKey, PaperCell>;
	cost: RowCost | null;
}

const TOLERANCE = 1e-12;

export function paperTable(
	scope: LeaderboardScope,
	sort: SortKey = 'lca_macro_f1',
	costs: Record<string, RowCost> | null = null
): PaperRow[] {
	const bestOf = Object.fromEntries(
		LEADERBOARD_COLUMNS.map((c) => {
			const means = scope.rows.flatMap((r) => (r.cells[c].mean === null ? [] : [r.cells[c].mean]));
			const top = means.length ? Math.max(...means) : null;
			const ids = scope.rows.filter(
				(r) => top !== null && r.cells[c].mean !== null && top - r.cells[c].mean <= TOLERANCE
			);
			return [c, new Set(ids.map((r) => r.id))];
		})
	) as Record<ColumnKey, Set<string>>;
	return sortRows(scope.rows, sort, costs).map((row) => ({
		id: row.id,
		model: row.model,
		n: row.n,
		differs: row.differs,
		cost: costs?.[row.id] ?? null,
		cells: Object.fromEntries(
			LEADERBOARD_COLUMNS.map((c) => {
				const cell = row.cells[c];
				const best = bestOf[c].has(row.id);
				const tied = scope.untested
					? null
					: best
						? false
						: cell.tied_with.some((id) => bestOf[c].has(id))
							? true
							: cell.untested_with.some((id) => bestOf[c].has(id))
								? null
								: false;
				return [c, { ...cell, best, tied_with_best: tied }];
			})
		) as Record<ColumnKey, PaperCell>
	}));
}
