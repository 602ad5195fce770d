/** LCA (PROTOCOL.md §7): did the model ask when, and only when, the consultation was underspecified? */
import type { LcaResultRecord } from '../records';
import { f1, orNull, rate } from './kernel';
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
	const f1u = f1(tp, fp, fn);
	const f1c = f1(tn, fp, fn);
	return {
		macro_f1: orNull((f1u + f1c) / 2),
		f1_u: orNull(f1u),
		f1_c: orNull(f1c),
		acc_c: orNull(rate(tn, tn + fp)),
		acc_u: orNull(rate(tp, tp + fn)),
		n: tp + fn + fp + tn
	};
}

/** LCA metrics of a set of LCA_results records (a whole run, or one cause class of it). */
export function lcaMetrics(records: readonly LcaLabelled[]): LcaMetrics {
	return lcaFromConfusion(lcaConfusion(records));
}
