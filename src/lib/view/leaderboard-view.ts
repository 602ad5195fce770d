/**
 * The Results page's leaderboard in words: column labels in the interface language, the sort
 * and class options, and the scope a board shows (all cases or one class).
 */
import { COLUMN, LEADERBOARD_COLUMNS, type ColumnKey } from '$lib/core/protocol/metrics';
import { metricMessage } from './figure-metrics';
import type { Board, LeaderboardScope } from '$lib/core/leaderboard/leaderboard';
import type { SortKey } from '$lib/core/leaderboard/sort';
import { m } from '$lib/paraglide/messages';

export const columnLabel = (c: ColumnKey): string => metricMessage(COLUMN[c].label);

export function metricOptions(): { value: ColumnKey; label: string }[] {
	return LEADERBOARD_COLUMNS.map((c) => ({ value: c, label: columnLabel(c) }));
}

export function sortOptions(): { value: SortKey; label: string }[] {
	return [
		...metricOptions(),
		{ value: 'tokens', label: m.lb_sort_tokens() },
		{ value: 'cost', label: m.lb_sort_cost() },
		{ value: 'model', label: m.lb_sort_model() }
	];
}

/** The value `''` stands for all cases. */
export function classOptions(boards: readonly Board[]): { value: string; label: string }[] {
	const classes = [...new Set(boards.flatMap((b) => Object.keys(b.by_class)))];
	return [{ value: '', label: m.lb_scope_all() }, ...classes.map((c) => ({ value: c, label: c }))];
}

export function scopeOf(board: Board, cls: string | null): LeaderboardScope | null {
	if (cls === null) return board.overall;
	return Object.hasOwn(board.by_class, cls) ? board.by_class[cls] : null;
}
