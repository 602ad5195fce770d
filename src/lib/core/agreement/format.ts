/** The agreement section `results` prints after its tables (README.md says what each figure means). */
import { runLabel } from '../layout';
import { formatInterval, formatNumber } from '../report/format';
import { renderTable } from '../results/text-table';
import type { Corrected, ReviewedShare } from './corrected';
import { LJP_CORRECTED } from './corrected-ljp';
import { DCG_CORRECTED, LCA_CORRECTED, type CorrectedMetrics } from './corrected-metrics';
import type { Agreement } from './kappa';
import type { RaterComparison, ScopeAgreement } from './report';
import type { RunReviews } from './run-reviews';

const STAGE_NAME = { lca: 'LCA', dcg: 'DCG', ljp: 'LJP' } as const;

/** What the corrections assume (README.md, "Corrected estimates"), printed under their table. */
export const CORRECTION_ASSUMPTIONS =
	"assumes: the reviewer is right; LCA's judge errs alike on complete and underspecified histories (one Se and Sp pooled over both); DCG's two rounds are judged independently given the truth; LJP's verdict errors are the same for every gold verdict, class and setup.";

function matrix(a: ScopeAgreement): string {
	return a.confusion.map((row) => row.join(' ')).join(' / ');
}

/** Each label's specific agreement: `clarification 0.857, judgment 0.667`. */
export function perLabelText(a: Agreement): string {
	return a.labels.map((l, i) => `${l} ${formatNumber(a.per_label[i], 3)}`).join(', ');
}

/** A share with its interval: `0.7500 [0.4677, 0.9111] of 12`; blank where it does not apply. */
function shareText(s: ReviewedShare | undefined): string {
	return s ? `${formatNumber(s.value)} ${formatInterval(s.ci95)} of ${s.n}` : '';
}

function comparison(c: RaterComparison): string {
	const rows: string[][] = [];
	// The judge's error rates exist only for the judge against a reviewer on LCA and DCG.
	const rated = c.stages.some((s) => s.overall.judge_error);
	for (const s of c.stages) {
		for (const [cls, a] of [['all', s.overall] as const, ...Object.entries(s.by_class)]) {
			rows.push([
				STAGE_NAME[s.stage],
				cls,
				String(a.n),
				String(a.agreed),
				formatNumber(a.rate),
				formatNumber(a.kappa),
				formatInterval(a.ci95),
				formatNumber(a.ac1),
				a.qwk === undefined ? '' : formatNumber(a.qwk),
				perLabelText(a),
				...(rated
					? [shareText(a.judge_error?.sensitivity), shareText(a.judge_error?.specificity)]
					: []),
				matrix(a)
			]);
		}
	}
	const table = renderTable(
		[
			'stage',
			'class',
			'n',
			'agreed',
			'rate',
			'kappa',
			'95% CI',
			'AC1',
			'QWK',
			'agreement per label',
			...(rated ? ['sensitivity [95% CI]', 'specificity [95% CI]'] : []),
			`confusion (${c.first} rows × ${c.second} columns)`
		],
		rows,
		[
			'left',
			'left',
			'right',
			'right',
			'right',
			'right',
			'left',
			'right',
			'right',
			'left',
			...(rated ? (['left', 'left'] as const) : []),
			'left'
		]
	);
	const dis = c.stages.flatMap((s) =>
		s.overall.disagreements.map(({ decision: d, first, second }) => {
			const where =
				d.history_type ?? (d.round !== null ? `round ${d.round}` : `claim ${d.claim! + 1}`);
			return `  ${d.stage} case ${d.case_number} ${where}: ${c.first} ${first}, ${c.second} ${second}`;
		})
	);
	return [
		`${c.first} × ${c.second}`,
		table,
		...(rated
			? [
					`sensitivity: of the decisions ${c.second} labelled positive (clarification, 是), the share the judge did too; specificity: the same for negative; Wilson 95% intervals.`
				]
			: []),
		...(dis.length ? ['disagreements:', ...dis] : [])
	].join('\n');
}

function correctedCell(c: Corrected): string[] {
	if (c.status === 'too_small') return ['too small to say', '', String(c.n_reviewed)];
	if (c.status === 'at_chance') return ['judge at chance: none', '', String(c.n_reviewed)];
	return [formatNumber(c.value), formatInterval(c.ci95), String(c.n_reviewed)];
}

function correctedRows(cls: string, m: CorrectedMetrics): string[][] {
	const rows: string[][] = [];
	if (m.lca)
		for (const k of LCA_CORRECTED) rows.push([`LCA ${k}`, cls, ...correctedCell(m.lca[k])]);
	if (m.dcg)
		for (const k of DCG_CORRECTED) rows.push([`DCG ${k}`, cls, ...correctedCell(m.dcg[k])]);
	for (const [setup, figures] of Object.entries(m.ljp ?? {}))
		for (const k of LJP_CORRECTED)
			rows.push([`LJP ${setup} ${k}`, cls, ...correctedCell(figures[k])]);
	return rows;
}

/** The agreement and corrected estimates of each reviewed run, as text (strings already escaped). */
export function formatReviews(runs: readonly RunReviews[]): string {
	return runs
		.map((r) => {
			const parts = [
				`Judge review: ${runLabel({ runId: r.run_id, modelDir: r.model_dir })} (${r.n_reviews} reviews by ${r.report.reviewers.join(', ')})`,
				...r.report.mismatched.map(
					({ reviewer, reviews }) =>
						`left out: ${reviews} ${reviews === 1 ? 'review' : 'reviews'} by ${reviewer} stating a judge label that is not this run's (a review of another judging of the decision, e.g. a sample copied from the run this one re-judges)`
				),
				...r.report.judge.map(comparison),
				...r.report.between.map(comparison)
			];
			for (const c of r.report.corrected) {
				const rows = [
					...correctedRows('all', c.overall),
					...Object.entries(c.by_class).flatMap(([cls, m]) => correctedRows(cls, m))
				];
				if (rows.length === 0) continue;
				parts.push(
					`corrected by ${c.reviewer}'s reviews (Rogan–Gladen; LJP by the matrix method; 95% CI over the reviewed decisions; too small below 10 reviewed or 3 of either label, of each verdict for LJP):`,
					renderTable(['metric', 'class', 'corrected', '95% CI', 'reviewed'], rows, [
						'left',
						'left',
						'right',
						'left',
						'right'
					]),
					CORRECTION_ASSUMPTIONS
				);
			}
			return parts.join('\n\n');
		})
		.join('\n\n');
}
