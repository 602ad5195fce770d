/**
 * The columns of the leaderboard (the paper's main table): which rate of the kernel each one
 * reads (`RATE_SLOTS` of `../metrics/kernel.ts`). Every one of them is "higher is better".
 */
export const LEADERBOARD_COLUMNS = [
	'lca_macro_f1',
	'lca_acc_c',
	'lca_acc_u',
	'dcg_success',
	'ljp_direct_qwk',
	'ljp_gold_qwk',
	'ljp_interaction_qwk'
] as const;
export type ColumnKey = (typeof LEADERBOARD_COLUMNS)[number];

/** The kernel slot of each column (index into `RATE_SLOTS`). */
export const COLUMN_SLOT: Record<ColumnKey, number> = {
	lca_macro_f1: 0,
	lca_acc_c: 3,
	lca_acc_u: 4,
	dcg_success: 5,
	ljp_direct_qwk: 8,
	ljp_gold_qwk: 10,
	ljp_interaction_qwk: 12
};

/** The heads the paper's table uses (exports and the CLI); symbols, the same in every language. */
export const COLUMN_HEAD: Record<ColumnKey, string> = {
	lca_macro_f1: 'LCA Macro-F1',
	lca_acc_c: 'Acc_C',
	lca_acc_u: 'Acc_U',
	dcg_success: 'DCG success',
	ljp_direct_qwk: 'QWK Direct',
	ljp_gold_qwk: 'QWK Gold',
	ljp_interaction_qwk: 'QWK Interaction'
};

/** A column key, or null when `text` names none (CLI `--sort`, a link's parameter). */
export function columnKey(text: string): ColumnKey | null {
	return (LEADERBOARD_COLUMNS as readonly string[]).includes(text) ? (text as ColumnKey) : null;
}
