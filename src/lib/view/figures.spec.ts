import { beforeAll, describe, expect, it } from 'vitest';
import { datasetWithUnmappedCause, reportOfRuns } from '../../../tests/fixtures/bundles/report';
import type { ResultsReport, RunReport } from '$lib/core/results';
import type { MetricsTree } from '$lib/core/metrics/types';
import { classFigure, metricsFigure, type FigureContext } from './figures';
import { groupCell, runCell } from './figure-cells';
import { LCA_METRICS, ljpMetric } from './figure-metrics';

let report: ResultsReport;
const text = { id: 'f', title: 'T', description: 'D' };

beforeAll(async () => {
	report = await reportOfRuns(datasetWithUnmappedCause(6), [
		{ runId: 'run1' },
		{ runId: 'run2' },
		{ runId: 'run3' },
		{ runId: 'run1', model: 'sim-model-b', stages: ['gen'] }
	]);
});

const ctx = (mode: 'runs' | 'groups'): FigureContext => ({
	report,
	mode,
	simulated: (key) => key.includes('sim-model-b')
});

/** Model m's group of run1 and run2 with the given means, SDs and counts (no class unless given). */
function groupOfTwo(figures: {
	mean: unknown;
	sd: unknown;
	n_defined: unknown;
	by_class?: unknown;
}) {
	const group = {
		model: 'm',
		run_ids: ['run1', 'run2'],
		n: 2,
		by_class: {},
		partial: false,
		notes: []
	};
	return { ...group, ...figures } as never;
}

describe('figures from the report', () => {
	it('shows each run with the numbers computeReport gives, one column per LCA metric', () => {
		const fig = metricsFigure(ctx('runs'), text, LCA_METRICS);
		expect(fig.categories).toEqual(['Macro-F1', 'F1_U', 'F1_C', 'Acc_C', 'Acc_U']);
		expect(fig.series.map((s) => s.label)).toEqual([
			'sim-model-a · run1',
			'sim-model-b · run1 (simulated)',
			'sim-model-a · run2',
			'sim-model-a · run3'
		]);
		report.runs.forEach((run, s) => {
			const lca = run.metrics.lca!;
			expect(fig.cells[s].map((c) => c.value)).toEqual([
				lca.macro_f1,
				lca.f1_u,
				lca.f1_c,
				lca.acc_c,
				lca.acc_u
			]);
		});
		expect(fig.withSd).toBe(false);
	});

	it('marks simulated series only beside real ones, and keeps table headings short', () => {
		const all = metricsFigure({ ...ctx('runs'), simulated: () => true }, text, LCA_METRICS);
		expect(all.series.map((s) => [s.label, s.short])).toEqual([
			['sim-model-a · run1', 'sim-model-a · run1'],
			['sim-model-b · run1', 'sim-model-b · run1'],
			['sim-model-a · run2', 'run2'],
			['sim-model-a · run3', 'run3']
		]);
		const groups = metricsFigure(ctx('groups'), text, LCA_METRICS);
		expect(groups.series.map((s) => s.short)).toEqual(['sim-model-a (3)', 'sim-model-b (1)']);
	});

	it('shows groups of comparable runs as mean ± sample SD', () => {
		const fig = metricsFigure(ctx('groups'), text, [ljpMetric('direct', 'accuracy')]);
		expect(fig.series.map((s) => s.label)).toEqual([
			'sim-model-a (3 runs)',
			'sim-model-b (1 run) (simulated)'
		]);
		const [a] = report.groups;
		const values = report.runs
			.filter((r) => r.model === 'sim-model-a')
			.map((r) => r.metrics.ljp.direct!.accuracy!);
		const mean = values.reduce((x, y) => x + y, 0) / 3;
		const sd = Math.sqrt(values.reduce((x, v) => x + (v - mean) ** 2, 0) / 2);
		expect(fig.cells[0][0].value).toBeCloseTo(mean, 12);
		expect(fig.cells[0][0].sd).toBeCloseTo(sd, 12);
		expect(fig.cells[0][0].value).toBe(a.mean.ljp.direct!.accuracy);
		// The gen-only model never ran LJP.
		expect(fig.cells[1][0]).toEqual({
			value: null,
			sd: null,
			notes: ['undefined in every run of the group (LJP_direct not run yet in run1)'],
			counts: report.runs.find((r) => r.model === 'sim-model-b')!.counts
		});
	});

	it('puts classes on the x axis, 未分类 last, with the class figures of computeReport', () => {
		const macro = LCA_METRICS[0];
		const fig = classFigure(ctx('runs'), text, macro);
		expect(fig.categories).toEqual(['合同纠纷', '未分类']);
		expect(fig.rows).toBe('categories');
		expect(fig.cells[0].map((c) => c.value)).toEqual([
			report.runs[0].by_class['合同纠纷'].lca!.macro_f1,
			report.runs[0].by_class['未分类'].lca!.macro_f1
		]);
	});
});

const noStatistics = {
	ci95: null,
	counts: { cases: 2, claims: 3 },
	ljp_confusion: { direct: null, gold: null, interaction: null }
};

/** A run report by hand, for the reasons a value can be missing. */
function runReport(overrides: Partial<RunReport> = {}): RunReport {
	const tree: MetricsTree = {
		lca: { macro_f1: null, f1_u: 0.5, f1_c: null, acc_c: null, acc_u: 1, n: 2 },
		dcg: { success_rate: 0.5, round1_rate: 0.5, round2_rate: 0, n: 2 },
		ljp: {
			direct: { qwk: null, accuracy: 1, n_claims: 3 },
			gold: null,
			interaction: null
		}
	};
	const complete = { status: 'complete', have: 2, expected: 2, unit: 'cases' } as const;
	return {
		run_id: 'run1',
		model: 'm',
		model_dir: 'm-00000000',
		metrics: tree,
		by_class: { 合同纠纷: { ...tree, ...noStatistics } },
		...noStatistics,
		power: { n_cases: 2, alpha: 0.05, power: 0.8, worst_case: { dcg: null, lca: null } },
		partial: false,
		empty: false,
		completeness: {
			LCA_results: { status: 'complete', have: 4, expected: 4, unit: 'records' },
			DCG_results: { status: 'incomplete', have: 2, expected: 5, unit: 'cases' },
			LJP_direct: complete,
			LJP_gold: { status: 'missing', have: 0, expected: 5, unit: 'cases' },
			LJP_interaction: { status: 'incomplete', have: 3, expected: 5, unit: 'cases' }
		},
		notes: [],
		calls: null,
		...overrides
	};
}

describe('why a value is missing', () => {
	it.each([
		{
			name: 'QWK with zero expected disagreement',
			metric: ljpMetric('direct', 'qwk'),
			cls: null,
			value: null,
			notes: [expect.stringMatching(/^QWK undefined: the expected disagreement is zero/)]
		},
		{
			name: 'a stage with no file',
			metric: ljpMetric('gold', 'accuracy'),
			cls: null,
			value: null,
			notes: ['LJP_gold not run yet in run1']
		},
		{
			name: 'an incomplete stage when partial scoring is off',
			metric: ljpMetric('interaction', 'qwk'),
			cls: null,
			value: null,
			notes: ['LJP_interaction: 3 of 5 cases in run1, not scored']
		},
		{
			name: 'an incomplete stage scored partially',
			metric: { stage: 'dcg', key: 'success_rate', label: 'Success' } as const,
			cls: null,
			value: 0.5,
			notes: ['partial 2/5: run1 has 2 of 5 cases of DCG_results so far; the figure is over those']
		},
		{
			name: 'Acc_C with no complete-history record',
			metric: LCA_METRICS[3],
			cls: '合同纠纷',
			value: null,
			notes: ['Acc_C undefined: no complete-history record (TN + FP = 0)']
		},
		{
			name: 'a class the run has no case of',
			metric: LCA_METRICS[1],
			cls: '侵权纠纷',
			value: null,
			notes: ['no case of this class in the run']
		}
	])('$name', ({ metric, cls, value, notes }) => {
		expect(runCell(runReport(), metric, cls)).toMatchObject({ value, notes });
	});

	it('says when a group mean is over fewer runs than the group has', () => {
		const a = runReport();
		const b = runReport({ run_id: 'run2' });
		const group = groupOfTwo({
			mean: { ...a.metrics, lca: { ...a.metrics.lca!, f1_u: 0.5 } },
			sd: { ...a.metrics, lca: { ...a.metrics.lca!, f1_u: null } },
			n_defined: {
				lca: { macro_f1: 0, f1_u: 1, f1_c: 0, acc_c: 0, acc_u: 2, n: 2 },
				dcg: null,
				ljp: { direct: null, gold: null, interaction: null }
			}
		});
		expect(groupCell(group, [a, b], LCA_METRICS[1], null).notes).toEqual([
			"defined in 1 of the group's 2 runs; mean and SD are over those 1"
		]);
		expect(groupCell(group, [a, b], LCA_METRICS[0], null).notes).toEqual([
			'undefined in every run of the group (Macro-F1 undefined: F1_U or F1_C has a zero denominator)'
		]);
	});

	it('gives a group the cases and claims its runs rest on, as a run has them', () => {
		const a = runReport();
		const b = runReport({ run_id: 'run2' });
		const group = groupOfTwo({
			mean: a.metrics,
			sd: a.metrics,
			n_defined: {
				lca: { macro_f1: 0, f1_u: 2, f1_c: 0, acc_c: 0, acc_u: 2, n: 2 },
				dcg: null,
				ljp: { direct: null, gold: null, interaction: null }
			},
			by_class: { 合同纠纷: { mean: a.metrics, sd: a.metrics, n_defined: {} } }
		});
		for (const cls of [null, '合同纠纷']) {
			expect(groupCell(group, [a, b], LCA_METRICS[1], cls).counts).toEqual({
				cases: 2,
				claims: 3
			});
		}
		// Undefined in the group: the counts are still what it rests on.
		expect(groupCell(group, [a, b], LCA_METRICS[0], null).counts).toEqual({
			cases: 2,
			claims: 3
		});
	});
});
