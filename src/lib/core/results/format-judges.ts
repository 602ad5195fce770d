/** The text form of `results --judges A,B`: per model, each stage's agreement; then τ per rate. */
import { perLabelText } from '../agreement/format';
import type { Interval } from '../metrics/bootstrap';
import { formatInterval, formatNumber } from '../report/format';
import { COMPARED_RATES } from './format-compare';
import { decisionKind, DECISION_STAGES } from '../protocol';
import type { JudgesReport } from './judges';
import { renderTable } from './text-table';

const interval = (ci: Interval) => (ci === null ? '[—]' : formatInterval(ci));

/** Strings in `report` are escaped by the caller (`escapeStrings`), as for the other reports. */
export function formatJudges(report: JudgesReport): string {
	const out = [`Judge agreement: run ${report.a} (A) against run ${report.b} (B)`, ''];
	if (report.models.length === 0)
		out.push(`No model has both run ${report.a} and run ${report.b}.`);
	for (const m of report.models) {
		out.push(`Model ${m.model}: judge A ${m.judges[0]}, judge B ${m.judges[1]}`);
		const rows = DECISION_STAGES.flatMap((stage) => {
			const s = m.stages[stage];
			return s
				? [
						[
							stage,
							String(s.n),
							formatNumber(s.rate),
							`${formatNumber(s.kappa)} ${interval(s.ci95)}`,
							// Quadratic-weighted κ for the ordinal LJP verdicts only.
							s.qwk === undefined ? '' : formatNumber(s.qwk),
							formatNumber(s.ac1),
							perLabelText(s),
							String(s.unpaired)
						]
					]
				: [];
		});
		out.push(
			renderTable(
				['Stage', 'n', 'Agreement', 'κ [95% CI]', 'QWK', 'AC1', 'Per label', 'Unpaired'],
				rows,
				['left', 'right', 'right', 'right', 'right', 'right', 'left', 'right']
			)
		);
		for (const stage of DECISION_STAGES) {
			const s = m.stages[stage];
			if (!s) continue;
			const labels = decisionKind(stage).labels;
			out.push(`${stage} confusion (rows: judge A, columns: judge B)`);
			out.push(
				renderTable(
					['A \\ B', ...labels],
					s.confusion.map((row: number[], i: number) => [labels[i], ...row.map(String)]),
					['left', ...labels.map(() => 'right' as const)]
				),
				''
			);
		}
	}
	if (report.unmatched.length)
		out.push(`Model folders with one of the runs only: ${report.unmatched.join(', ')}`, '');
	if (!report.same_cases) out.push('The models select different cases: no rank stability.');
	else if (report.models.length < 2)
		out.push('Rank stability needs two models or more with both runs.');
	else {
		out.push('Rank stability of the models across judges (Kendall τ-b, 95% case-bootstrap CI)');
		const name = (rate: readonly [string, string]) =>
			COMPARED_RATES.find((r) => r.stage === rate[0] && r.key === rate[1])?.name ?? rate.join(' ');
		const rows = report.ranks.map((r) => [
			name(r.rate),
			String(r.scores.length),
			`${formatNumber(r.tau)} ${interval(r.ci95)}`,
			r.swaps.map(([x, y]) => `${x} ↔ ${y}`).join(', ') || 'none'
		]);
		out.push(
			renderTable(['Metric', 'Models', 'τ [95% CI]', 'Swapped'], rows, [
				'left',
				'right',
				'right',
				'left'
			])
		);
	}
	return `${out.join('\n').trimEnd()}\n`;
}
