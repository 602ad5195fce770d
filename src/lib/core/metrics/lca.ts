/** LCA (PROTOCOL.md §7): did the model ask when, and only when, the consultation was underspecified? */
import type { LcaResultRecord } from '../records';
import { ratio } from './ratio';
import type { LcaMetrics } from './types';

/** Confusion counts with underspecified = positive and clarification = predicted positive. */
export interface LcaConfusion {
	/** underspecified & clarification */
	tp: number;
	/** underspecified & judgment */
	fn: number;
	/** complete & clarification */
	fp: number;
	/** complete & judgment */
	tn: number;
}

type LcaLabelled = Pick<LcaResultRecord, 'history_type' | 'label'>;

export function lcaConfusion(records: readonly LcaLabelled[]): LcaConfusion {
	const c: LcaConfusion = { tp: 0, fn: 0, fp: 0, tn: 0 };
	for (const r of records) {
		const asked = r.label === 'clarification';
		if (r.history_type === 'underspecified') {
			if (asked) c.tp++;
			else c.fn++;
		} else if (asked) c.fp++;
		else c.tn++;
	}
	return c;
}

export function lcaFromConfusion({ tp, fn, fp, tn }: LcaConfusion): LcaMetrics {
	const f1_u = ratio(2 * tp, 2 * tp + fp + fn);
	const f1_c = ratio(2 * tn, 2 * tn + fp + fn);
	return {
		macro_f1: f1_u === null || f1_c === null ? null : (f1_u + f1_c) / 2,
		f1_u,
		f1_c,
		acc_c: ratio(tn, tn + fp),
		acc_u: ratio(tp, tp + fn),
		n: tp + fn + fp + tn
	};
}

/** LCA metrics of a set of LCA_results records (a whole run, or one cause class of it). */
export function lcaMetrics(records: readonly LcaLabelled[]): LcaMetrics {
	return lcaFromConfusion(lcaConfusion(records));
}
