/** DCG (PROTOCOL.md §7): did a forced clarifying question target the missing key facts? */
import type { DcgResultRecord } from '../records';
import { orNull, rate } from './kernel';
import type { DcgMetrics } from './types';

type DcgJudged = Pick<DcgResultRecord, 'round_labels'>;

/**
 * DCG metrics over one record per case. Success is recomputed from `round_labels` (either
 * round 是) rather than read from `success`, which the record schema already ties to them.
 */
export function dcgMetrics(records: readonly DcgJudged[]): DcgMetrics {
	let success = 0;
	let round1 = 0;
	let round2 = 0;
	for (const {
		round_labels: [r1, r2]
	} of records) {
		if (r1 === '是') round1++;
		if (r2 === '是') round2++;
		if (r1 === '是' || r2 === '是') success++;
	}
	const n = records.length;
	return {
		success_rate: orNull(rate(success, n)),
		round1_rate: orNull(rate(round1, n)),
		round2_rate: orNull(rate(round2, n)),
		n
	};
}
