import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Manifest } from '$lib/core/records';
import type { ResultsReport } from '$lib/core/results';
import { drawnReport, groupDifferences } from './shown-report';

const run = (run_id: string, model: string) =>
	({ run_id, model, model_dir: `${model}-dir` }) as ResultsReport['runs'][number];
const group = (model: string, run_ids: string[]) =>
	({ model, run_ids, n: run_ids.length }) as ResultsReport['groups'][number];

function report(): ResultsReport {
	return {
		runs: [run('real1', 'gpt-x'), run('sim1', 'simulated'), run('real2', 'gpt-x')],
		groups: [group('gpt-x', ['real1', 'real2']), group('simulated', ['sim1'])],
		partial: false,
		warnings: [],
		bootstrap: null
	};
}

const isSim = (key: string) => key.startsWith('sim');

describe('drawnReport', () => {
	it('leaves simulated runs and their groups out beside real ones, unless asked', () => {
		const hidden = drawnReport(report(), isSim, false);
		expect(hidden.mixed).toBe(true);
		expect(hidden.hidden).toBe(1);
		expect(hidden.report.runs.map((r) => r.run_id)).toEqual(['real1', 'real2']);
		expect(hidden.report.groups.map((g) => g.model)).toEqual(['gpt-x']);
		const shown = drawnReport(report(), isSim, true);
		expect(shown.hidden).toBe(0);
		expect(shown.report.runs).toHaveLength(3);
	});

	it('hides nothing when every run is simulated', () => {
		const all = drawnReport(report(), () => true, false);
		expect(all).toMatchObject({ hidden: 0, mixed: false });
		expect(all.report.runs).toHaveLength(3);
	});
});

describe('groupDifferences', () => {
	it('names the manifest fields that split one model into groups', () => {
		const r = report();
		r.groups = [group('gpt-x', ['real1']), group('gpt-x', ['real2'])];
		const manifest = (temperature: number, judge: string) =>
			({
				dataset: { sha256: 'a', selected_case_numbers: ['1'] },
				code_sha256: 'c',
				prompts_sha256: 'p',
				models: { evaluated: 'gpt-x', user: 'u', judge },
				settings: { ...DEFAULT_SETTINGS, temperature },
				simulated: false
			}) as unknown as Manifest;
		const manifests: Record<string, Manifest> = {
			'real1/gpt-x-dir': manifest(0.11, 'j1'),
			'real2/gpt-x-dir': manifest(0.22, 'j2')
		};
		expect(groupDifferences(r, (k) => manifests[k])).toEqual([
			'gpt-x: runs real1 and real2 are not comparable (they differ in judge model and ' +
				'temperature), so they are not averaged together'
		]);
		// The same in Chinese: a reader never sees a manifest path.
		expect(groupDifferences(r, (k) => manifests[k], 'zh-CN')).toEqual([
			'gpt-x：运行 real1 与 real2 不可比（二者在 评审模型和温度 上不同），因此不合并求均值'
		]);
		expect(groupDifferences(report(), (k) => manifests[k])).toEqual([]);
	});
});
