/**
 * The metric objects of PROTOCOL.md §7 and §8, as they appear in `results --json`. Every rate is a
 * fraction in [0, 1]; a value whose denominator is zero is `null`, never 0 and never NaN.
 */
import type { LjpSetup } from '../protocol';

/** The LJP setups are the protocol's (`../protocol/stages.ts`). */
export { LJP_SETUPS, type LjpSetup } from '../protocol';

/** LCA over LCA_results records; underspecified = positive, clarification = predicted positive. */
export interface LcaMetrics {
	/** (F1_U + F1_C) / 2; null when either is null. */
	macro_f1: number | null;
	/** 2TP / (2TP + FP + FN). */
	f1_u: number | null;
	/** 2TN / (2TN + FP + FN). */
	f1_c: number | null;
	/** TN / (TN + FP): complete histories answered directly. */
	acc_c: number | null;
	/** TP / (TP + FN): underspecified histories met with a clarification. */
	acc_u: number | null;
	/** Number of LCA records (two per case). */
	n: number;
}

/** DCG over DCG_results records, one per selected case (its underspecified history). */
export interface DcgMetrics {
	/** Cases where either round's question was judged 是, over all cases. */
	success_rate: number | null;
	/** Cases whose round-1 question was judged 是, over all cases. */
	round1_rate: number | null;
	/** Cases whose round-2 question was judged 是 (whatever round 1 got), over all cases. */
	round2_rate: number | null;
	/** Number of cases. */
	n: number;
}

/** Claim-level LJP over one setup's records. */
export interface LjpMetrics {
	/** Quadratic weighted kappa; null when the expected disagreement is zero. */
	qwk: number | null;
	/** Claims whose predicted verdict equals the gold verdict, over all claims. */
	accuracy: number | null;
	/** Number of claims. */
	n_claims: number;
}

/**
 * Every metric of one run (or one run × class). A stage that is missing or incomplete is
 * `null` in place of its object.
 */
export interface MetricsTree {
	lca: LcaMetrics | null;
	dcg: DcgMetrics | null;
	ljp: Record<LjpSetup, LjpMetrics | null>;
}

/** The numeric keys of each metric object, in the order tables show them. */
export const LCA_KEYS = ['macro_f1', 'f1_u', 'f1_c', 'acc_c', 'acc_u', 'n'] as const;
export const DCG_KEYS = ['success_rate', 'round1_rate', 'round2_rate', 'n'] as const;
export const LJP_KEYS = ['qwk', 'accuracy', 'n_claims'] as const;

/** A metric object with every value possibly undefined: the shape of a mean or an SD. */
export type Stat<T> = { [K in keyof T]: number | null };
/** A metric object holding, per value, how many runs it was defined in. */
export type Count<T> = { [K in keyof T]: number };

/** A mean or an SD over runs, shaped like `MetricsTree`. */
export interface StatTree {
	lca: Stat<LcaMetrics> | null;
	dcg: Stat<DcgMetrics> | null;
	ljp: Record<LjpSetup, Stat<LjpMetrics> | null>;
}

/** Per value, the number of runs it was defined in, shaped like `MetricsTree`. */
export interface CountTree {
	lca: Count<LcaMetrics> | null;
	dcg: Count<DcgMetrics> | null;
	ljp: Record<LjpSetup, Count<LjpMetrics> | null>;
}
