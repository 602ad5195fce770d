/**
 * The Results page's leaderboard in words: column labels in the interface language, the sort
 * and class options, and the scope a board shows (all cases or one class).
 */
import { LEADERBOARD_COLUMNS, type ColumnKey } from '$lib/core/protocol/metrics';
import type { Board, LeaderboardScope } from '$lib/core/leaderboard/leaderboard';
import type { SortKey } from '$lib/core/leaderboard/sort';
import { m } from '$lib/paraglide/messages';

const LABELS: Record<ColumnKey, () => string> = {
	lca_macro_f1: m.lb_col_lca_macro_f1,
	lca_acc_c: m.lb_col_lca_acc_c,
	lca_acc_u: m.lb_col_lca_acc_u,
	dcg_success: m.lb_col_dcg_success,
	ljp_direct_qwk: m.lb_col_ljp_direct_qwk,
	ljp_gold_qwk: m.lb_col_ljp_gold_qwk,
	ljp_interaction_qwk: m.lb_col_ljp_interaction_qwk
};

export const columnLabel = (c: ColumnKey): string => LABELS[c]();

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
