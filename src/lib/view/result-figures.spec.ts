import { beforeAll, describe, expect, it } from 'vitest';
import { makeDataset } from '../../../tests/fixtures/engine/cases';
import { reportOfRuns } from '../../../tests/fixtures/bundles/report';
import type { ResultsReport } from '$lib/core/results';
import { reportRunKey } from '$lib/core/names';
import type { FigureContext } from './figures';
import {
	choiceOptions,
	checkedChoice,
	DEFAULT_FIGURE_CHOICE,
	reportNotes,
	resultFigures
} from './result-figures';
import { resultsHtml } from './results-html';

let report: ResultsReport;

beforeAll(async () => {
	report = await reportOfRuns(makeDataset(4), [
		{ runId: 'run1' },
		{ runId: 'run2' },
		{ runId: 'run1', model: 'sim-model-b', stages: ['gen'] }
	]);
});

const ctx = (mode: 'runs' | 'groups'): FigureContext => ({ report, mode, simulated: () => false });

describe('the Results figures', () => {
	it('are the seven figures of the page, each over every shown series', () => {
		const figures = resultFigures(ctx('runs'), DEFAULT_FIGURE_CHOICE);
		expect(Object.values(figures).map((f) => f.id)).toEqual([
			'lca-overall',
			'lca-class',
			'dcg-overall',
			'dcg-class',
			'ljp-qwk',
			'ljp-accuracy',
			'ljp-class'
		]);
		for (const figure of Object.values(figures)) {
			expect(figure.series.map((s) => s.id)).toEqual(report.runs.map(reportRunKey));
		}
		expect(figures.lca.description).toMatch(/per run/);
		expect(resultFigures(ctx('groups'), DEFAULT_FIGURE_CHOICE).lca.description).toMatch(
			/mean ± SD over comparable runs/
		);
		expect(figures.ljpQwk.categories).toEqual(['Direct', 'Gold', 'Interaction']);
		expect(figures.ljpQwk.scale).toBe('kappa');
	});

	it('show in each class figure the metric, rate or setup picked', () => {
		const figures = resultFigures(ctx('runs'), {
			lcaClass: 'f1_u',
			dcgClass: 'round1_rate',
			ljpSetup: 'gold',
			ljpMeasure: 'accuracy'
		});
		expect(figures.lcaClass.title).toBe('LCA F1_U by cause class');
		expect(figures.dcgClass.title).toBe('DCG round 1 rate by cause class');
		expect(figures.ljpClass.title).toBe('LJP Gold Accuracy by cause class');
		expect(figures.ljpClass.scale).toBe('rate');
		const [run] = report.runs;
		const cls = figures.lcaClass.categories[0];
		expect(figures.lcaClass.cells[0][0].value).toBe(run.by_class[cls].lca!.f1_u);
		expect(figures.ljpClass.cells[0][0].value).toBe(run.by_class[cls].ljp.gold!.accuracy);
	});

	it('take only known choices from a link', () => {
		expect(checkedChoice({ lcaClass: 'acc_c', dcgClass: 'nope', ljpSetup: 'gold' })).toEqual({
			...DEFAULT_FIGURE_CHOICE,
			lcaClass: 'acc_c',
			ljpSetup: 'gold'
		});
		for (const [key, options] of Object.entries(choiceOptions())) {
			expect(options.map((o) => o.value)).toContain(
				DEFAULT_FIGURE_CHOICE[key as keyof typeof DEFAULT_FIGURE_CHOICE]
			);
		}
	});

	it('name each note by its run or group', () => {
		const notes = reportNotes(report);
		expect(notes.length).toBeGreaterThan(0);
		expect(notes.some((n) => n.startsWith('sim-model-b · run1: '))).toBe(true);
	});

	it('go into the HTML report with every run, figure and confusion matrix shown', () => {
		const figures = resultFigures(ctx('runs'), DEFAULT_FIGURE_CHOICE);
		const html = resultsHtml({
			report,
			figures,
			simulated: (key) => key.includes('sim-model-b'),
			notes: ['a note <b>escaped</b>'],
			generatedAt: '2025-05-01T00:00:00.000Z'
		});
		expect(html).toMatch(/2025, \d+:\d\d:\d\d/);
		expect(html.match(/<figure/g)).toHaveLength(7);
		expect(html).toContain('sim-model-b · run1');
		const detail = (run: string) =>
			new RegExp(`<strong>${run}</strong> <span class="muted small">([^<]*)</span>`).exec(
				html
			)?.[1];
		expect(detail('sim-model-b · run1')).toBe('4 cases · simulated');
		expect(detail('sim-model-a · run2')).toMatch(/^4 cases, \d+ claims$/);
		expect(html).toContain('a note &lt;b&gt;escaped&lt;/b&gt;');
		// Two full runs, three setups each; the gen-only run has no LJP matrix.
		expect(html.match(/Direct|Gold|Interaction/g)!.length).toBeGreaterThanOrEqual(6);
	});
});
