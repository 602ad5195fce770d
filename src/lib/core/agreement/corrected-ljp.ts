/**
 * LJP's QWK and accuracy corrected by a reviewed sample (README.md, "Corrected LJP"): the judge's
 * extraction errors on the reviewed LJP decisions (reviewer = truth) form a 3 × 3
 * misclassification matrix, and each setup's gold × prediction table is corrected by inverting
 * it. The interval resamples the reviewed decisions.
 */
import { VERDICTS } from '../dataset/names';
import type { LjpSetup } from '../metrics/types';
import { reviewedInterval, type Corrected } from './corrected';
import type { Decision } from './decisions';
import { MIN_RATED, type BootstrapOptions, type LabelPair } from './kappa';
import { correctTable, tableAccuracy, tableQwk, type Table } from './ljp-table';

/** Reviewed decisions needed of each verdict the reviewer gave, or its row of M rests on few. */
export const MIN_PER_VERDICT = 3;
export const LJP_CORRECTED = ['qwk', 'accuracy'] as const;
export type CorrectedLjp = Partial<
	Record<LjpSetup, Record<(typeof LJP_CORRECTED)[number], Corrected>>
>;

const at = (v: string) => (VERDICTS as readonly string[]).indexOf(v);
const zeros = (): Table => VERDICTS.map(() => VERDICTS.map(() => 0));

/** `M[t][j]` = P(judge j | reviewer t) of `pairs` (`[judge, reviewer]`); null if a row is empty. */
export function misclassification(pairs: readonly LabelPair[]): number[][] | null {
	const m = zeros();
	for (const [judge, person] of pairs) m[at(person)][at(judge)]++;
	const rows = m.map((r) => r.reduce((a, b) => a + b, 0));
	return rows.some((n) => n === 0) ? null : m.map((r, i) => r.map((x) => x / rows[i]));
}

/** Each setup's gold × judge-extracted prediction table of `decisions`. */
function tables(decisions: readonly Decision[]): Map<LjpSetup, Table> {
	const out = new Map<LjpSetup, Table>();
	for (const d of decisions) {
		if (!d.id.stage.startsWith('ljp-') || d.gold === undefined) continue;
		const setup = d.id.stage.slice(4) as LjpSetup;
		const t = out.get(setup) ?? zeros();
		t[at(d.gold)][at(d.label)]++;
		out.set(setup, t);
	}
	return out;
}

function corrected(
	pairs: readonly LabelPair[],
	figure: (m: number[][]) => number | null,
	options: BootstrapOptions & { scope?: string }
): Corrected {
	const n_reviewed = pairs.length;
	const perVerdict = VERDICTS.map((v) => pairs.filter(([, p]) => p === v).length);
	if (n_reviewed < MIN_RATED || perVerdict.some((n) => n < MIN_PER_VERDICT)) {
		return { value: null, ci95: null, status: 'too_small', n_reviewed };
	}
	const value = figure(misclassification(pairs)!);
	if (value === null) return { value: null, ci95: null, status: 'at_chance', n_reviewed };
	const ci95 = reviewedInterval(
		pairs,
		(drawn) => {
			const m = misclassification(drawn);
			return m === null ? null : figure(m);
		},
		options
	);
	return { value, ci95, status: 'ok', n_reviewed };
}

/** Corrected QWK and accuracy of each LJP setup of `decisions`; null when there is none. */
export function correctedLjp(
	decisions: readonly Decision[],
	pairs: readonly LabelPair[],
	options: BootstrapOptions & { scope?: string } = {}
): CorrectedLjp | null {
	const bySetup = tables(decisions);
	if (bySetup.size === 0) return null;
	const out: CorrectedLjp = {};
	for (const [setup, table] of bySetup) {
		const of = (f: (t: Table) => number | null) => (m: number[][]) => {
			const t = correctTable(table, m);
			return t === null ? null : f(t);
		};
		const scope = `${options.scope ?? ''}/ljp-${setup}`;
		out[setup] = {
			qwk: corrected(pairs, of(tableQwk), { ...options, scope: `${scope}/qwk` }),
			accuracy: corrected(pairs, of(tableAccuracy), { ...options, scope: `${scope}/accuracy` })
		};
	}
	return out;
}
