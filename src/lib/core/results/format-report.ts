/**
 * The human-readable form of a results report (`results` without `--json`): aligned tables
 * per run, per run × class and per group, ready to paste into a paper draft.
 */
import { english } from '../voice';
import { DECIMALS, formatInterval, formatNumber, UNDEFINED } from '../report/format';
import type { Aggregate } from '../metrics/aggregate';
import { LJP_SETUPS, type MetricsTree } from '../metrics/types';
import { LJP_SETUP_NAMES, metricsOf, stageOf, type MetricStage } from '../protocol/metrics';
import type { Interval } from '../metrics/bootstrap';
import type { PowerFigures } from '../metrics/power';
import type { GroupReport, ResultsReport, RunReport } from './report';
import type { ScopeStatistics } from './run-statistics';
import { formatCalls } from './format-calls';
import { runName } from '../layout';
import { renderTable, type Align } from './text-table';

type Stage = MetricStage;

interface MetricColumn {
	header: string;
	stage: Stage;
	key: string;
	/** Counts print as integers and without an SD. */
	count?: boolean;
}

/** A stage's rates (METRICS) headed by their symbols, then its count. */
const columns = (stage: Stage, prefix: string, count: string): MetricColumn[] => [
	...metricsOf(stage).map((m) => ({ header: prefix + m.symbol, stage, key: m.key })),
	{ header: `${prefix}n`, stage, key: count, count: true }
];

const TASKS: { title: string; columns: MetricColumn[] }[] = [
	{ title: 'LCA (n = records, 2 per case)', columns: columns('lca', '', 'n') },
	{ title: 'DCG (n = underspecified cases)', columns: columns('dcg', '', 'n') },
	{
		title: 'LJP (n = claims)',
		columns: LJP_SETUPS.flatMap((s) => columns(s, `${LJP_SETUP_NAMES[s]} `, 'n_claims'))
	}
];

/** A stage not scored in a run (missing, incomplete). */
export const NOT_SCORED = 'n/a';

/** A rate, or a count (an integer; a group's mean of counts to one decimal). */
const fmt = (value: number | null, count = false): string =>
	count && value !== null && Number.isInteger(value)
		? String(value)
		: formatNumber(value, count ? 1 : DECIMALS);

/** A run's value, with its 95% interval beside it when intervals were computed. */
function runCell(tree: MetricsTree, col: MetricColumn, ci?: ScopeStatistics['ci95']): string {
	const stage = stageOf(tree, col.stage);
	if (stage === null) return NOT_SCORED;
	const value = fmt(stage[col.key], col.count);
	if (!ci || col.count || stage[col.key] === null) return value;
	const interval = stageOf<Interval>(ci, col.stage)?.[col.key];
	return interval ? `${value} ${formatInterval(interval)}` : `${value} [${UNDEFINED}]`;
}

function groupCell(agg: Aggregate, runs: number, col: MetricColumn): string {
	const mean = stageOf(agg.mean, col.stage);
	if (mean === null) return NOT_SCORED;
	const defined = stageOf(agg.n_defined, col.stage)![col.key]!;
	const fewer = defined < runs ? ` [${defined}]` : '';
	if (col.count || mean[col.key] === null) return fmt(mean[col.key], col.count) + fewer;
	return `${fmt(mean[col.key])} ± ${fmt(stageOf(agg.sd, col.stage)![col.key])}${fewer}`;
}

function section(title: string, body: string[]): string {
	return [title, '='.repeat(title.length), '', ...body].join('\n');
}

type IdColumn<R> = { header: string; cell: (r: R) => string };

/** One row per item and cause class (`value`, the class's): the item's id columns, then the class. */
function byClass<T, V>(
	items: readonly T[],
	ids: IdColumn<T>[],
	classes: (item: T) => Record<string, V>
) {
	const rows = items.flatMap((of) =>
		Object.entries(classes(of)).map(([cls, value]) => ({ of, cls, value }))
	);
	const classIds: IdColumn<(typeof rows)[number]>[] = [
		...ids.map((i) => ({ header: i.header, cell: (r: { of: T }) => i.cell(r.of) })),
		{ header: 'Class', cell: (r) => r.cls }
	];
	return [rows, classIds] as const;
}

function tables<R>(
	rows: readonly R[],
	ids: IdColumn<R>[],
	cell: (r: R, col: MetricColumn) => string
): string[] {
	return TASKS.map(({ title, columns }) => {
		const headers = [...ids.map((i) => i.header), ...columns.map((c) => c.header)];
		const align: Align[] = [...ids.map((): Align => 'left'), ...columns.map((): Align => 'right')];
		const body = rows.map((r) => [...ids.map((i) => i.cell(r)), ...columns.map((c) => cell(r, c))]);
		return `${title}\n${renderTable(headers, body, align)}\n`;
	});
}

/** A run's id with its mark: `(empty)`, or `*` when partial. */
const markedRunId = (r: RunReport) =>
	r.empty ? `${r.run_id} (empty)` : r.partial ? `${r.run_id} *` : r.run_id;
const groupRuns = (g: GroupReport) =>
	g.partial ? `${g.run_ids.join(', ')} *` : g.run_ids.join(', ');

/** The full report as text: runs, classes, groups, then notes and what the marks mean. */
export function formatReport(report: ResultsReport, root?: string): string {
	const { runs, groups } = report;
	const where = root ? ` under ${root}` : '';
	const empty = runs.filter((r) => r.empty).length;
	const out: string[] = [
		`LexPilot results: ${runs.length} run${runs.length === 1 ? '' : 's'}` +
			(empty ? ` (${empty} empty, in no group)` : '') +
			` in ${groups.length} ` +
			`group${groups.length === 1 ? '' : 's'} of comparable runs${where}` +
			(report.partial ? ' (PARTIAL: incomplete stages scored over saved records)' : ''),
		''
	];
	const runIds: IdColumn<RunReport>[] = [
		{ header: 'Run', cell: (r) => markedRunId(r) },
		{ header: 'Model', cell: (r) => r.model }
	];
	out.push(
		section(
			'Per run',
			tables(runs, runIds, (r, c) => runCell(r.metrics, c, r.ci95))
		)
	);

	const [classRows, classIds] = byClass(runs, runIds, (r) => r.by_class);
	out.push(
		section(
			'Per run and cause class',
			tables(classRows, classIds, (r, c) => runCell(r.value, c, r.value.ci95))
		)
	);

	const groupIds: IdColumn<GroupReport>[] = [
		{ header: 'Model', cell: (g) => g.model },
		{ header: 'Runs', cell: (g) => String(g.n) },
		{ header: 'Run ids', cell: (g) => groupRuns(g) }
	];
	out.push(
		section(
			'Comparable runs: mean ± SD',
			tables(groups, groupIds, (g, c) => groupCell(g, g.n, c))
		)
	);
	const [groupClassRows, groupClassIds] = byClass(groups, groupIds, (g) => g.by_class);
	out.push(
		section(
			'Comparable runs by cause class: mean ± SD',
			tables(groupClassRows, groupClassIds, (r, c) => groupCell(r.value, r.of.n, c))
		)
	);

	out.push(
		section('Power', [
			'Smallest paired difference a comparison of two runs on these cases detects with 80% power',
			'at two-sided α = 0.05, worst case (both rates 0.5, uncorrelated runs):',
			...runs.map(
				(r) =>
					`- ${runName(markedRunId(r), r.model)} (${r.power.n_cases} cases): ${powerFigures(r.power.worst_case)}`
			),
			''
		])
	);
	const calls = formatCalls(runs);
	if (calls) out.push(section('Model calls (calls.jsonl)', calls));

	const notes = [
		...runs.flatMap((r) => r.notes.map((n) => `${runName(r.run_id, r.model)}: ${english(n)}`)),
		...groups.flatMap((g) =>
			g.notes.map((n) => `group ${g.model} (${g.run_ids.join(', ')}): ${english(n)}`)
		),
		...report.warnings.map((w) => english(w))
	];
	if (notes.length) out.push(section('Notes', [...notes.map((n) => `- ${n}`), '']));
	out.push(
		[
			`${UNDEFINED}   undefined: a zero denominator (e.g. no case of that kind, or F1 with nothing to count),`,
			'    or QWK when gold and predicted verdicts are one and the same label throughout.',
			`${NOT_SCORED} stage file missing or incomplete for that run (see Notes); --partial scores saved records.`,
			'*   partial: some figures are over the records saved so far, not all selected cases.',
			"[k] the value is defined in only k of the group's runs; its mean and SD are over those k.",
			...(report.bootstrap
				? [
						`[lo, hi] 95% case-bootstrap CI (percentile, ${report.bootstrap.resamples} resamples, seed ${report.bootstrap.seed}): how far`,
						'    the figure could move on another sample of cases like these. [—]: none (fewer than 10 cases,',
						'    or fewer than half the resamples define the value).',
						'± SD    spread over repeated runs on the same cases: how far the figure moves when the model runs again.'
					]
				: []),
			'Groups hold runs with the same dataset, selected cases, code and prompts, models (evaluated,',
			'user, judge), settings and simulated flag; SD is the sample SD (ddof = 1), — for one run.'
		].join('\n') + '\n'
	);
	return out.join('\n');
}

/** `DCG Success 0.1234, LCA Acc_C …, Acc_U …`: minimal detectable differences. */
export function powerFigures(f: PowerFigures): string {
	const v = formatNumber;
	return (
		`DCG Success ${f.dcg ? v(f.dcg.success_rate) : NOT_SCORED}, ` +
		`LCA Acc_C ${f.lca ? v(f.lca.acc_c) : NOT_SCORED}, Acc_U ${f.lca ? v(f.lca.acc_u) : NOT_SCORED}`
	);
}
