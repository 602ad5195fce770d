/** The text form of `results --compare A B`: one paired table overall, one per class, power. */
import { runName } from '../layout';
import { escapeControl } from '../text/escape-control';
import { english } from '../voice';
import { formatInterval, formatNumber, UNDEFINED } from '../report/format';
import type { Difference } from '../metrics/paired';
import type { PowerFigures } from '../metrics/power';
import type { MetricsTree } from '../metrics/types';
import { LJP_SETUP_NAMES, METRICS, stageOf, type MetricStage } from '../protocol/metrics';
import type { ComparisonReport } from './compare';
import { NOT_SCORED, powerFigures } from './format-report';
import { renderTable, type Align } from './text-table';

type Stage = MetricStage;

/** The compared rates (every rate of METRICS) in table order, with their row names. */
export const COMPARED_RATES: { name: string; stage: Stage; key: string }[] = METRICS.map((m) => ({
	name: `${m.stage === 'lca' ? 'LCA' : m.stage === 'dcg' ? 'DCG' : `LJP ${LJP_SETUP_NAMES[m.stage]}`} ${m.symbol}`,
	stage: m.stage,
	key: m.key
}));

/** `+0.1234`, `-0.1234`, or ` 0.0000` for whatever rounds to zero (never "-0.0000"). */
const SIGNED = { signed: true };

/** The paired table's rows (as text, the CLI's formatting): metric, A, B, B − A, CI, p. */
export function comparisonRows(
	diffs: ComparisonReport['metrics'],
	a: MetricsTree | undefined,
	b: MetricsTree | undefined
): string[][] {
	return COMPARED_RATES.map(({ name, stage, key }) => {
		const d = stageOf<Difference>(diffs, stage)?.[key];
		const value = (t: MetricsTree | undefined) => {
			const obj = t && stageOf(t, stage);
			return obj ? formatNumber(obj[key]) : NOT_SCORED;
		};
		if (d === undefined) return [name, value(a), value(b), NOT_SCORED, '', ''];
		return [
			name,
			value(a),
			value(b),
			formatNumber(d.diff, SIGNED),
			formatInterval(d.ci95, SIGNED),
			formatNumber(d.p)
		];
	});
}

/** Column headings of the paired table. */
export const HEADERS = ['Metric', 'A', 'B', 'B − A', '95% CI of B − A', 'p'];
const ALIGN: Align[] = ['left', 'right', 'right', 'right', 'right', 'right'];

/** `label: DCG Success 0.1234, LCA Acc_C …, Acc_U …` (minimal detectable differences). */
const powerLine = (label: string, f: PowerFigures) => `${label}: ${powerFigures(f)}`;

/** The comparison as text: who A and B are, the paired tables, power, notes, a legend. */
export function formatComparison(c: ComparisonReport): string {
	const who = (r: ComparisonReport['a']) => escapeControl(runName(r.run_id, r.model));
	const out = [
		`LexPilot comparison: B − A on ${c.n_cases} paired case${c.n_cases === 1 ? '' : 's'} ` +
			`(case bootstrap, ${c.bootstrap.resamples} resamples, seed ${c.bootstrap.seed})`,
		`A  ${who(c.a)}`,
		`B  ${who(c.b)}`,
		'',
		'All cases',
		renderTable(HEADERS, comparisonRows(c.metrics, c.a.metrics, c.b.metrics), ALIGN),
		''
	];
	for (const [cls, tree] of Object.entries(c.by_class)) {
		const { cases, claims } = tree.counts;
		const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
		out.push(
			`Class ${escapeControl(cls)} (${plural(cases, 'case')}${claims === null ? '' : `, ${plural(claims, 'claim')}`})`,
			renderTable(HEADERS, comparisonRows(tree, c.a.by_class[cls], c.b.by_class[cls]), ALIGN),
			''
		);
	}
	out.push(
		`Power: smallest B − A detectable with ${c.power.power * 100}% power at two-sided ` +
			`α = ${c.power.alpha}, over ${c.power.n_cases} paired cases`,
		powerLine('  from the observed paired differences', c.power.observed),
		powerLine('  worst case (rates 0.5, uncorrelated runs)', c.power.worst_case),
		''
	);
	if (c.notes.length)
		out.push('Notes', ...c.notes.map((n) => `- ${escapeControl(english(n))}`), '');
	out.push(
		[
			'95% CI: percentile interval of B − A over paired case resamples (both runs draw the same cases).',
			'p: two-sided, 2 × (share of resamples whose B − A has the other sign, ties counting half),',
			'   with one added to both counts; 1 when B − A is 0. The smallest possible is 2/(resamples+1).',
			`${UNDEFINED} undefined (a zero denominator in either run); ${NOT_SCORED} stage not scored in a run (see Notes).`
		].join('\n') + '\n'
	);
	return out.join('\n');
}
