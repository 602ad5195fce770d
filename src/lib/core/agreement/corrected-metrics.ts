/**
 * The judged metrics of PROTOCOL.md §7 corrected by a reviewed sample (README.md, "Corrected
 * estimates"): LCA's acc_u, acc_c and macro-F1 from the clarification rates of each history
 * corrected by the LCA judge's Se/Sp; DCG's round rates corrected the same way, and its success
 * rate (either round 是) from the two rounds' joint rates with both rounds' errors undone; LJP's
 * QWK and accuracy per setup by the matrix method (`corrected-ljp.ts`).
 */
import { lcaFromConfusion } from '../metrics/lca';
import { correctedEstimate, roganGladen, type Corrected, type ErrorRates } from './corrected';
import { correctedLjp, type CorrectedLjp } from './corrected-ljp';
import type { Decision } from './decisions';
import type { BootstrapOptions, LabelPair } from './kappa';

export const LCA_CORRECTED = ['macro_f1', 'acc_u', 'acc_c'] as const;
export const DCG_CORRECTED = ['success_rate', 'round1_rate', 'round2_rate'] as const;

export interface CorrectedMetrics {
	lca: Record<(typeof LCA_CORRECTED)[number], Corrected> | null;
	dcg: Record<(typeof DCG_CORRECTED)[number], Corrected> | null;
	ljp: CorrectedLjp | null;
}

type Options = BootstrapOptions & { scope?: string };

function lcaEstimates(decisions: readonly Decision[]) {
	const n = { u: 0, c: 0 };
	const asked = { u: 0, c: 0 };
	for (const d of decisions) {
		if (d.id.stage !== 'lca') continue;
		const h = d.id.history_type === 'underspecified' ? 'u' : 'c';
		n[h]++;
		if (d.label === 'clarification') asked[h]++;
	}
	if (n.u + n.c === 0) return null;
	const confusion = (r: ErrorRates) => {
		const pu = n.u === 0 ? 0 : roganGladen(asked.u / n.u, r);
		const pc = n.c === 0 ? 0 : roganGladen(asked.c / n.c, r);
		if (pu === null || pc === null) return null;
		return { tp: n.u * pu, fn: n.u * (1 - pu), fp: n.c * pc, tn: n.c * (1 - pc) };
	};
	const metric = (name: (typeof LCA_CORRECTED)[number]) => (r: ErrorRates) => {
		const c = confusion(r);
		return c === null ? null : lcaFromConfusion(c)[name];
	};
	return metric;
}

/** The true joint rate of (否, 否) from the observed joint rates, each round's errors undone. */
function bothNo(
	joint: number[][],
	{ sensitivity: se, specificity: sp }: ErrorRates
): number | null {
	const youden = se + sp - 1;
	if (youden <= 0) return null;
	// Row 否 of the inverse of M = [[Sp, 1 − Se], [1 − Sp, Se]] (rows judge 否/是, columns truth).
	const inv = [se / youden, -(1 - se) / youden];
	let p = 0;
	for (let a = 0; a < 2; a++) for (let b = 0; b < 2; b++) p += inv[a] * inv[b] * joint[a][b];
	return Math.min(1, Math.max(0, p));
}

function dcgEstimates(decisions: readonly Decision[]) {
	const byCase = new Map<string, string[]>();
	for (const d of decisions) {
		if (d.id.stage !== 'dcg') continue;
		const key = String(d.id.case_number);
		const labels = byCase.get(key) ?? ['否', '否'];
		labels[d.id.round! - 1] = d.label;
		byCase.set(key, labels);
	}
	const n = byCase.size;
	if (n === 0) return null;
	const joint = [
		[0, 0],
		[0, 0]
	];
	for (const [r1, r2] of byCase.values()) joint[r1 === '是' ? 1 : 0][r2 === '是' ? 1 : 0] += 1 / n;
	const round = (i: 0 | 1) => (i === 0 ? joint[1][0] + joint[1][1] : joint[0][1] + joint[1][1]);
	return {
		success_rate: (r: ErrorRates) => {
			const p = bothNo(joint, r);
			return p === null ? null : 1 - p;
		},
		round1_rate: (r: ErrorRates) => roganGladen(round(0), r),
		round2_rate: (r: ErrorRates) => roganGladen(round(1), r)
	};
}

/**
 * Corrected LCA and DCG metrics of `decisions` (a run, or one class of it) by the reviewed
 * `pairs` of each stage (`[judge, reviewer]` labels of one reviewer); null for a stage the
 * decisions lack.
 */
export function correctedMetrics(
	decisions: readonly Decision[],
	pairs: { lca: readonly LabelPair[]; dcg: readonly LabelPair[]; ljp?: readonly LabelPair[] },
	options: Options = {}
): CorrectedMetrics {
	const lca = lcaEstimates(decisions);
	const dcg = dcgEstimates(decisions);
	const scope = options.scope ?? '';
	return {
		lca:
			lca &&
			(Object.fromEntries(
				LCA_CORRECTED.map((m) => [
					m,
					correctedEstimate(pairs.lca, 'clarification', lca(m), {
						...options,
						scope: `${scope}/lca/${m}`
					})
				])
			) as CorrectedMetrics['lca']),
		dcg:
			dcg &&
			(Object.fromEntries(
				DCG_CORRECTED.map((m) => [
					m,
					correctedEstimate(pairs.dcg, '是', dcg[m], { ...options, scope: `${scope}/dcg/${m}` })
				])
			) as CorrectedMetrics['dcg']),
		ljp: correctedLjp(decisions, pairs.ljp ?? [], { ...options, scope })
	};
}
