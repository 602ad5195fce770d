/**
 * Every rate of PROTOCOL.md §7 from one summed row of case counts (see case-table.ts), written into
 * a Float64Array slot with NaN for an undefined value. This is the inner loop of the
 * bootstrap: no allocation, no records. The formulas are those of lca.ts, dcg.ts and ljp.ts.
 */
import {
	DCG_N,
	DCG_ROUND1,
	DCG_ROUND2,
	DCG_SUCCESS,
	LCA_FN,
	LCA_FP,
	LCA_TN,
	LCA_TP,
	LJP_OFFSET,
	type ScoredStages
} from './case-table';
import { LJP_SETUPS, type LjpSetup } from './types';

/** The rates that get an interval, in slot order. Counts (n, n_claims) are not estimates. */
export const RATE_SLOTS = [
	['lca', 'macro_f1'],
	['lca', 'f1_u'],
	['lca', 'f1_c'],
	['lca', 'acc_c'],
	['lca', 'acc_u'],
	['dcg', 'success_rate'],
	['dcg', 'round1_rate'],
	['dcg', 'round2_rate'],
	['direct', 'qwk'],
	['direct', 'accuracy'],
	['gold', 'qwk'],
	['gold', 'accuracy'],
	['interaction', 'qwk'],
	['interaction', 'accuracy']
] as const;
export const SLOTS = RATE_SLOTS.length;

/** The rates of one stage, with one value `V` each (an interval, a difference, …). */
export interface RateTree<V> {
	lca: { macro_f1: V; f1_u: V; f1_c: V; acc_c: V; acc_u: V } | null;
	dcg: { success_rate: V; round1_rate: V; round2_rate: V } | null;
	ljp: Record<LjpSetup, { qwk: V; accuracy: V } | null>;
}

// Module-local copies of the layout: some loaders turn imported bindings into getters.
const [TP, FN, FP, TN] = [LCA_TP, LCA_FN, LCA_FP, LCA_TN];
const [D_N, D_SUCCESS, D_ROUND1, D_ROUND2] = [DCG_N, DCG_SUCCESS, DCG_ROUND1, DCG_ROUND2];
const LJP_BLOCKS = LJP_SETUPS.map((s) => LJP_OFFSET[s]);

const div = (num: number, den: number) => (den === 0 ? NaN : num / den);

/** Writes the SLOTS rates of the summed counts `acc` into `out[at … at + SLOTS)`. */
export function evaluateRates(acc: Float64Array | Int32Array, out: Float64Array, at: number): void {
	const tp = acc[TP];
	const fn = acc[FN];
	const fp = acc[FP];
	const tn = acc[TN];
	const f1u = div(2 * tp, 2 * tp + fp + fn);
	const f1c = div(2 * tn, 2 * tn + fp + fn);
	out[at] = (f1u + f1c) / 2; // NaN when either is
	out[at + 1] = f1u;
	out[at + 2] = f1c;
	out[at + 3] = div(tn, tn + fp);
	out[at + 4] = div(tp, tp + fn);
	const n = acc[D_N];
	out[at + 5] = div(acc[D_SUCCESS], n);
	out[at + 6] = div(acc[D_ROUND1], n);
	out[at + 7] = div(acc[D_ROUND2], n);
	for (let s = 0; s < 3; s++) {
		const o = LJP_BLOCKS[s];
		out[at + 8 + 2 * s] = qwk(acc, o);
		out[at + 9 + 2 * s] = div(acc[o] + acc[o + 4] + acc[o + 8], total(acc, o));
	}
}

function total(acc: Float64Array | Int32Array, o: number): number {
	let t = 0;
	for (let k = 0; k < 9; k++) t += acc[o + k];
	return t;
}

/** QWK of the 3 × 3 block at `o`, exactly as `quadraticWeightedKappa` (weights (i−j)²/4). */
function qwk(acc: Float64Array | Int32Array, o: number): number {
	const t = total(acc, o);
	if (t === 0) return NaN;
	let observed = 0;
	let expected = 0;
	for (let i = 0; i < 3; i++) {
		const gold = acc[o + 3 * i] + acc[o + 3 * i + 1] + acc[o + 3 * i + 2];
		for (let j = 0; j < 3; j++) {
			const w = (i - j) ** 2 / 4;
			const predicted = acc[o + j] + acc[o + 3 + j] + acc[o + 6 + j];
			observed += w * acc[o + 3 * i + j];
			expected += (w * gold * predicted) / t;
		}
	}
	return expected === 0 ? NaN : 1 - observed / expected;
}

/** Builds a RateTree from one value per slot; a stage that is not scored is null. */
export function rateTree<V>(scored: ScoredStages, value: (slot: number) => V): RateTree<V> {
	const ljp = (s: number, setup: LjpSetup) =>
		scored.ljp[setup] ? { qwk: value(8 + 2 * s), accuracy: value(9 + 2 * s) } : null;
	return {
		lca: scored.lca
			? {
					macro_f1: value(0),
					f1_u: value(1),
					f1_c: value(2),
					acc_c: value(3),
					acc_u: value(4)
				}
			: null,
		dcg: scored.dcg
			? { success_rate: value(5), round1_rate: value(6), round2_rate: value(7) }
			: null,
		ljp: { direct: ljp(0, 'direct'), gold: ljp(1, 'gold'), interaction: ljp(2, 'interaction') }
	};
}
