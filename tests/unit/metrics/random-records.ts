/**
 * Random but reproducible eval records for statistics tests: each case gets both LCA
 * histories, a DCG record and 1–4 claims judged in all three LJP setups.
 */
import { VERDICTS, type Verdict } from '../../../src/lib/core/dataset/types';
import type { CaseRecords } from '../../../src/lib/core/metrics/case-table';
import { Prng } from '../../../src/lib/core/metrics/prng';

export interface RandomRunOptions {
	cases: number;
	seed: number;
	/** Causes drawn uniformly per case. */
	causes?: string[];
	/** Probability that a label is right (clarification on underspecified, …). @default 0.6 */
	skill?: number;
	/** Case numbers; defaults to c1 … cN. */
	caseNumbers?: string[];
}

/** Every file present, as mutable arrays. */
export type FullRecords = { [K in keyof CaseRecords]-?: NonNullable<CaseRecords[K]>[number][] };

/** One run's records over the same cases and causes for a given `seed` and `caseSeed`. */
export function randomRun(options: RandomRunOptions, caseSeed = 1): FullRecords {
	const { cases, seed, causes = ['合同纠纷', '婚姻家庭纠纷', '劳动争议'], skill = 0.6 } = options;
	const shape = new Prng(caseSeed); // the cases themselves (cause, claims, gold) depend only on caseSeed
	const rng = new Prng(seed);
	const yes = (p: number) => rng.nextUint32() / 2 ** 32 < p;
	const out: FullRecords = {
		LCA_results: [],
		DCG_results: [],
		LJP_direct: [],
		LJP_gold: [],
		LJP_interaction: []
	};
	for (let i = 0; i < cases; i++) {
		const case_number = options.caseNumbers?.[i] ?? `c${i + 1}`;
		const cause_of_action = causes[shape.below(causes.length)];
		const gold: Verdict[] = Array.from(
			{ length: 1 + shape.below(4) },
			() => VERDICTS[shape.below(3)]
		);
		out.LCA_results.push(
			{
				case_number,
				cause_of_action,
				history_type: 'complete',
				label: yes(skill) ? 'judgment' : 'clarification'
			},
			{
				case_number,
				cause_of_action,
				history_type: 'underspecified',
				label: yes(skill) ? 'clarification' : 'judgment'
			}
		);
		out.DCG_results.push({
			case_number,
			cause_of_action,
			round_labels: [yes(skill * 0.7) ? '是' : '否', yes(skill * 0.5) ? '是' : '否']
		});
		for (const file of ['LJP_direct', 'LJP_gold', 'LJP_interaction'] as const) {
			const predicted = gold.map((g) => (yes(skill) ? g : VERDICTS[rng.below(3)]));
			out[file].push({ case_number, cause_of_action, gold, predicted });
		}
	}
	return out;
}

/** The records of case `caseNumber` in every file. */
export function recordsOfCase(records: FullRecords, caseNumber: string): FullRecords {
	const pick = <R extends { case_number: string | number }>(rs: readonly R[]) =>
		rs.filter((r) => String(r.case_number) === caseNumber);
	return {
		LCA_results: pick(records.LCA_results),
		DCG_results: pick(records.DCG_results),
		LJP_direct: pick(records.LJP_direct),
		LJP_gold: pick(records.LJP_gold),
		LJP_interaction: pick(records.LJP_interaction)
	};
}
