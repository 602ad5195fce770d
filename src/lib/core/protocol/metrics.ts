/**
 * The rates of PROTOCOL.md §7, declared once. A row's place is its slot in the statistics
 * kernel (`metrics/kernel.ts` writes the rates in this order); the row says what the text
 * report, the comparison, the figures and the leaderboard call it, how it reads, and why it
 * is undefined. Words that differ by language are message keys (messages/results,
 * messages/leaderboard) that the page resolves (`view/figure-metrics.ts`); the symbols are the
 * paper's terms, the same in every language and in the CLI's English. Counts (n, n_claims) are
 * not rates: they get no slot.
 */

/** Which stage a rate belongs to: LCA, DCG or one LJP setup. */
export type MetricStage = 'lca' | 'dcg' | 'direct' | 'gold' | 'interaction';

/** How a rate reads: a share on [0, 1], or a kappa on [−1, 1] (its axis goes below zero). */
export type MetricScale = 'rate' | 'kappa';

/** A rate's column in the leaderboard (the paper's main table); every one is "higher is better". */
export interface MetricColumn {
	key: string;
	/** Its head in the exports and the CLI (the paper's table, the same in every language). */
	head: string;
	/** The message naming it on the page. */
	label: string;
}

export interface Metric {
	stage: MetricStage;
	/** Its key in the stage's metric object (`results --json`). */
	key: string;
	/** The paper's symbol (`Macro-F1`, `QWK`, `Acc`): the CLI's column and, without a label, the page's. */
	symbol: string;
	/** The message naming it on the page when the words differ by language. */
	label: string | null;
	scale: MetricScale;
	/** The message saying why it is undefined; null: the generic "zero denominator" one. */
	undefinedWhy: string | null;
	column: MetricColumn | null;
}

/** A leaderboard column; the page names it by the message `lb_col_<key>`. */
const column = <K extends string>(key: K, head: string) =>
	({ key, head, label: `lb_col_${key}` }) as const;

/** An LCA rate: named by its symbol alone, undefined for a reason of its own (`results_undef_<key>`). */
const lca = <K extends string, C extends MetricColumn | null>(key: K, symbol: string, col: C) =>
	({
		stage: 'lca',
		key,
		symbol,
		label: null,
		scale: 'rate',
		undefinedWhy: `results_undef_${key}`,
		column: col
	}) as const;

/** A DCG rate: named by a message of its own on the page, undefined for the generic reason. */
const dcg = <L extends string, C extends MetricColumn | null>(
	key: string,
	symbol: string,
	label: L,
	col: C
) =>
	({ stage: 'dcg', key, symbol, label, scale: 'rate', undefinedWhy: null, column: col }) as const;

/** The paper's names of the LJP setups (the same in every language). */
export const LJP_SETUP_NAMES = { direct: 'Direct', gold: 'Gold', interaction: 'Interaction' };

/** An LJP setup's two rates: its QWK (a leaderboard column) and its accuracy. */
const ljp = <S extends 'direct' | 'gold' | 'interaction'>(stage: S) =>
	[
		{
			stage,
			key: 'qwk',
			symbol: 'QWK',
			label: null,
			scale: 'kappa',
			undefinedWhy: 'results_undef_qwk',
			column: column(`ljp_${stage}_qwk`, `QWK ${LJP_SETUP_NAMES[stage]}`)
		},
		{
			stage,
			key: 'accuracy',
			symbol: 'Acc',
			label: 'results_measure_accuracy',
			scale: 'rate',
			undefinedWhy: null,
			column: null
		}
	] as const;

/** Every rate, in kernel slot order. */
export const METRICS = [
	lca('macro_f1', 'Macro-F1', column('lca_macro_f1', 'LCA Macro-F1')),
	lca('f1_u', 'F1_U', null),
	lca('f1_c', 'F1_C', null),
	lca('acc_c', 'Acc_C', column('lca_acc_c', 'Acc_C')),
	lca('acc_u', 'Acc_U', column('lca_acc_u', 'Acc_U')),
	dcg('success_rate', 'Success', 'results_dcg_success', column('dcg_success', 'DCG success')),
	dcg('round1_rate', 'Round 1', 'results_dcg_round1', null),
	dcg('round2_rate', 'Round 2', 'results_dcg_round2', null),
	...ljp('direct'),
	...ljp('gold'),
	...ljp('interaction')
] as const satisfies readonly Metric[];

export type MetricRow = (typeof METRICS)[number];
/** A message key the table names (labels, column labels, reasons): the page resolves each. */
export type MetricMessage =
	| NonNullable<MetricRow['label']>
	| NonNullable<MetricRow['undefinedWhy']>
	| NonNullable<MetricRow['column']>['label'];

/** Any tree shaped like a report's metrics: values, means, intervals, differences. */
export interface StageTree {
	lca: unknown;
	dcg: unknown;
	ljp: Record<'direct' | 'gold' | 'interaction', unknown>;
}

/** The object of one stage in a tree (null: the stage is not scored), its values typed `V`. */
export function stageOf<V = number | null>(tree: StageTree, stage: MetricStage) {
	const obj = stage === 'lca' ? tree.lca : stage === 'dcg' ? tree.dcg : tree.ljp[stage];
	return obj as Record<string, V> | null;
}

/** The slot of a rate (its index in METRICS); throws for a key that is no rate. */
export function slotOf(stage: MetricStage, key: string): number {
	const slot = METRICS.findIndex((m) => m.stage === stage && m.key === key);
	if (slot < 0) throw new RangeError(`no rate ${stage}.${key}`);
	return slot;
}

/** The rates of one stage, in slot order. */
export const metricsOf = (stage: MetricStage): MetricRow[] =>
	METRICS.filter((m) => m.stage === stage);

type Columned = Extract<MetricRow, { column: object }>;
/** A leaderboard column's key. */
export type ColumnKey = Columned['column']['key'];
/** A leaderboard column with the kernel slot it reads. */
export type LeaderboardColumn = Columned['column'] & { slot: number };

/** The leaderboard's columns, in table order. */
export const COLUMNS: readonly LeaderboardColumn[] = METRICS.flatMap((m, slot) =>
	m.column === null ? [] : [{ ...m.column, slot }]
);
export const LEADERBOARD_COLUMNS: readonly ColumnKey[] = COLUMNS.map((c) => c.key);
/** Each column by key. */
export const COLUMN = Object.fromEntries(COLUMNS.map((c) => [c.key, c])) as Record<
	ColumnKey,
	LeaderboardColumn
>;

/** A column key, or null when `text` names none (CLI `--sort`, a link's parameter). */
export function columnKey(text: string): ColumnKey | null {
	return Object.hasOwn(COLUMN, text) ? (text as ColumnKey) : null;
}
