/**
 * The statistics kernel: F1, accuracy, every share and QWK of PROTOCOL.md §7, computed here and
 * nowhere else, with one rule for "undefined" (NaN inside the kernel, null outside it). The
 * record-level metrics (lca.ts, dcg.ts, ljp.ts), the agreement's corrected tables, the
 * leaderboard and every bootstrap call it. `evaluateRates` writes every rate of one summed row
 * of case counts (see case-table.ts) into its slot: the inner loop of the bootstrap, no
 * allocation, no records.
 */
import { CELL, LJP_OFFSET, ROW_WIDTH, type ScoredStages } from './case-table';
import { METRICS, slotOf, type MetricStage } from '../protocol/metrics';
import { LJP_SETUPS, type LjpSetup } from './types';

/** The rates that get an interval, in slot order (`../protocol/metrics.ts`). */
export const RATE_SLOTS = METRICS.map((m) => [m.stage, m.key] as const);
export const SLOTS = METRICS.length;

/** The rates of one stage, with one value `V` each (an interval, a difference, …). */
export interface RateTree<V> {
	lca: { macro_f1: V; f1_u: V; f1_c: V; acc_c: V; acc_u: V } | null;
	dcg: { success_rate: V; round1_rate: V; round2_rate: V } | null;
	ljp: Record<LjpSetup, { qwk: V; accuracy: V } | null>;
}

// Module-local copies of the layout: some loaders turn imported bindings into getters.
const { LCA_TP: TP, LCA_FN: FN, LCA_FP: FP, LCA_TN: TN } = CELL;
const { DCG_N: D_N, DCG_SUCCESS: D_SUCCESS, DCG_ROUND1: D_ROUND1, DCG_ROUND2: D_ROUND2 } = CELL;
const LJP_BLOCKS = LJP_SETUPS.map((s) => LJP_OFFSET[s]);
// Where each rate goes: its row of METRICS.
const [MACRO_F1, F1_U, F1_C, ACC_C, ACC_U] = ['macro_f1', 'f1_u', 'f1_c', 'acc_c', 'acc_u'].map(
	(k) => slotOf('lca', k)
);
const [SUCCESS, ROUND1, ROUND2] = ['success_rate', 'round1_rate', 'round2_rate'].map((k) =>
	slotOf('dcg', k)
);
const LJP_QWK = LJP_SETUPS.map((s) => slotOf(s, 'qwk'));
const LJP_ACCURACY = LJP_SETUPS.map((s) => slotOf(s, 'accuracy'));

/**
 * `num / den`, NaN when the denominator is zero: a share with nothing to count is undefined
 * (PROTOCOL.md §7), never 0. Denominators are counts or sums of non-negative weights.
 */
export const rate = (num: number, den: number): number => (den === 0 ? NaN : num / den);

/** F1 of one class: 2·hit / (2·hit + the two kinds of miss). */
export const f1 = (hit: number, missA: number, missB: number): number =>
	rate(2 * hit, 2 * hit + missA + missB);

/** A kernel value as the reports keep it: null for undefined. */
export const orNull = (v: number): number | null => (Number.isNaN(v) ? null : v);

/**
 * Below this the expected disagreement of QWK counts as zero. On integer counts the rule is
 * the same as `=== 0`: a nonzero expected disagreement is at least w·1·1/total = 1/(4·total),
 * far above 1e-12 for any number of claims. On the weighted tables of the corrected estimates
 * (agreement/ljp-table.ts, cells from a matrix inverse) a gold and predicted column concentrated
 * on one verdict leaves a rounding residue of about 1e-16 instead of 0, and `=== 0` would turn
 * that into a kappa of any size; so the tolerance is the one rule.
 */
const QWK_ZERO = 1e-12;

function total(acc: ArrayLike<number>, o: number): number {
	let t = 0;
	for (let k = 0; k < 9; k++) t += acc[o + k];
	return t;
}

/**
 * Quadratic weighted kappa of the 3 × 3 gold × predicted block at `o` (row-major, gold rows,
 * verdicts 支持, 部分支持, 驳回 whether or not each occurs): 1 − Σ w·O / Σ w·E with
 * w = (i−j)²/4 and E the outer product of the marginals over the total. NaN when there is no
 * claim or the expected disagreement is zero (gold and predicted one and the same verdict).
 */
export function qwk(acc: ArrayLike<number>, o = 0): number {
	const g0 = acc[o] + acc[o + 1] + acc[o + 2];
	const g1 = acc[o + 3] + acc[o + 4] + acc[o + 5];
	const g2 = acc[o + 6] + acc[o + 7] + acc[o + 8];
	const t = g0 + g1 + g2;
	if (t === 0) return NaN;
	let observed = 0;
	let expected = 0;
	for (let i = 0; i < 3; i++) {
		const gold = i === 0 ? g0 : i === 1 ? g1 : g2;
		for (let j = 0; j < 3; j++) {
			const w = (i - j) ** 2 / 4;
			const predicted = acc[o + j] + acc[o + 3 + j] + acc[o + 6 + j];
			observed += w * acc[o + 3 * i + j];
			expected += (w * gold * predicted) / t;
		}
	}
	return expected <= QWK_ZERO ? NaN : 1 - observed / expected;
}

/** Share of the 3 × 3 block at `o` on its diagonal (claims whose prediction is the gold verdict). */
export const accuracy = (acc: ArrayLike<number>, o = 0): number =>
	rate(acc[o] + acc[o + 4] + acc[o + 8], total(acc, o));

/** Writes the SLOTS rates of the summed counts `acc` into `out[at … at + SLOTS)`. */
export function evaluateRates(acc: Float64Array | Int32Array, out: Float64Array, at: number): void {
	const tp = acc[TP];
	const fn = acc[FN];
	const fp = acc[FP];
	const tn = acc[TN];
	const f1u = f1(tp, fp, fn);
	const f1c = f1(tn, fp, fn);
	out[at + MACRO_F1] = (f1u + f1c) / 2; // NaN when either is
	out[at + F1_U] = f1u;
	out[at + F1_C] = f1c;
	out[at + ACC_C] = rate(tn, tn + fp);
	out[at + ACC_U] = rate(tp, tp + fn);
	const n = acc[D_N];
	out[at + SUCCESS] = rate(acc[D_SUCCESS], n);
	out[at + ROUND1] = rate(acc[D_ROUND1], n);
	out[at + ROUND2] = rate(acc[D_ROUND2], n);
	for (let s = 0; s < 3; s++) {
		const o = LJP_BLOCKS[s];
		out[at + LJP_QWK[s]] = qwk(acc, o);
		out[at + LJP_ACCURACY[s]] = accuracy(acc, o);
	}
}

/** Builds a RateTree from one value per slot (METRICS order); a stage that is not scored is null. */
export function rateTree<V>(scored: ScoredStages, value: (slot: number) => V): RateTree<V> {
	const stage = (name: MetricStage, on: boolean) => {
		if (!on) return null;
		const out: Record<string, V> = {};
		METRICS.forEach((m, slot) => {
			if (m.stage === name) out[m.key] = value(slot);
		});
		return out;
	};
	const ljp = Object.fromEntries(LJP_SETUPS.map((s) => [s, stage(s, scored.ljp[s])]));
	return { lca: stage('lca', scored.lca), dcg: stage('dcg', scored.dcg), ljp } as RateTree<V>;
}

/** z of a two-sided 95% normal interval (the 97.5th percentile of the standard normal). */
export const Z95 = 1.959963984540054;

/**
 * Wilson's score interval (Wilson 1927) of a share `p` observed on `n` trials: the shares whose
 * score test at level 95% does not reject `p`. Unlike the percentile bootstrap it does not
 * collapse when every trial agrees: at p = 1 it is [n / (n + z²), 1] (32 of 32: [0.8928, 1]).
 * `p` may be a mean of shares (it need not be a count over `n`). Null without a trial.
 */
export function wilson(p: number, n: number, z = Z95): [number, number] | null {
	if (!(n > 0) || !(p >= 0 && p <= 1)) return null;
	const z2 = z * z;
	const den = 1 + z2 / n;
	const centre = (p + z2 / (2 * n)) / den;
	const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / den;
	return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/**
 * The denominator of the share in `slot` from a row of case counts at `o` (ROW_WIDTH wide): the
 * LCA histories of one kind (Acc_C, Acc_U), DCG records (its three rates), LJP claims of one setup
 * (accuracy); -1 for a rate that is no share of trials (F1, macro-F1, QWK), which gets no Wilson
 * interval. A case "holds" a share when this is positive.
 */
export function shareDenominator(acc: ArrayLike<number>, slot: number, o = 0): number {
	if (slot === ACC_C) return acc[o + TN] + acc[o + FP];
	if (slot === ACC_U) return acc[o + TP] + acc[o + FN];
	if (slot === SUCCESS || slot === ROUND1 || slot === ROUND2) return acc[o + D_N];
	const s = LJP_ACCURACY.indexOf(slot);
	return s < 0 ? -1 : total(acc, o + LJP_BLOCKS[s]);
}

/** Whether the rate in `slot` is a share of trials (Wilson applies) rather than F1 or QWK. */
export const isShare = (slot: number): boolean =>
	slot === ACC_C ||
	slot === ACC_U ||
	slot === SUCCESS ||
	slot === ROUND1 ||
	slot === ROUND2 ||
	LJP_ACCURACY.includes(slot);

/**
 * The cases of `rows` (row indices of `counts`, case rows of ROW_WIDTH) that hold the share in
 * `slot`; -1 for a rate that is no share. Wilson's n: the case is the unit, as in the bootstrap,
 * so LJP accuracy counts the cases with claims, not the claims (one case's claims are not
 * independent), which makes its interval wider, not narrower.
 */
export function shareCases(
	counts: ArrayLike<number>,
	rows: ArrayLike<number>,
	slot: number
): number {
	if (!isShare(slot)) return -1;
	let n = 0;
	for (let i = 0; i < rows.length; i++)
		if (shareDenominator(counts, slot, rows[i] * ROW_WIDTH) > 0) n++;
	return n;
}
