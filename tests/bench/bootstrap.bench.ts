/**
 * Bootstrap statistics over five full 432-case simulated runs, in-process in
 * Node: the case-level 95% intervals of every rate (overall and per class, 2,000 resamples),
 * a paired comparison of two runs, and the whole report with intervals as `results --json`
 * computes it. A diagnostic: the goal (< 2 s without freezing the page) is for the
 * browser, where the same plain-data functions are meant to run in a Web Worker.
 */
import { bootstrapRun, DEFAULT_RESAMPLES } from '../../src/lib/core/metrics/bootstrap';
import type { CaseTable } from '../../src/lib/core/metrics/case-table';
import { pairedBootstrap } from '../../src/lib/core/metrics/paired';
import { computeReport, memorySource } from '../../src/lib/core/results';
import { median, timeRuns } from './measure';
import { repeatedRuns } from './simulated-runs';
import type { BenchModule } from './types';

const RUNS = 5;
const CASES = 432;

export const bootstrapBench: BenchModule = {
	name: 'bootstrap statistics',
	async run() {
		const source = memorySource(Object.fromEntries(await repeatedRuns(CASES, RUNS)));
		const tables: CaseTable[] = [];
		await computeReport(source, { onRun: (_run, _manifest, table) => tables.push(table) });
		if (tables.length !== RUNS || tables.some((t) => t.case_numbers.length !== CASES)) {
			throw new Error(`expected ${RUNS} runs of ${CASES} cases, got ${tables.length}`);
		}
		const classes = tables[0].classes.length;
		const check = bootstrapRun(tables[0]);
		if (check.ci95.lca?.macro_f1 === null || check.ci95.dcg?.success_rate === null) {
			throw new Error('a simulated run got no interval for LCA Macro-F1 or DCG success');
		}
		// CPU time beside wall time: on the shared machine the wall time mostly measures the load.
		const cpu: number[] = [];
		const all = await timeRuns(
			() => {
				const start = process.cpuUsage();
				tables.map((t) => bootstrapRun(t));
				const used = process.cpuUsage(start);
				cpu.push((used.user + used.system) / 1000);
			},
			{ warmup: 1, iterations: 5 }
		);
		const pair = await timeRuns(() => pairedBootstrap(tables[0], tables[1]), {
			warmup: 1,
			iterations: 5
		});
		const report = await timeRuns(() => computeReport(source, { bootstrap: {} }), {
			warmup: 1,
			iterations: 3
		});
		const what = `${RUNS} runs × ${CASES} cases × ${DEFAULT_RESAMPLES} resamples, overall + ${classes} classes`;
		return [
			{
				name: `bootstrap CIs (bootstrapRun), ${what}, Node (median of 5)`,
				value: median(all),
				unit: 'ms',
				target: null
			},
			{
				name: `  same, CPU time of this process (median of 6, warm-up included)`,
				value: median(cpu),
				unit: 'ms',
				target: null
			},
			{
				name: `paired comparison (pairedBootstrap), 2 runs × ${CASES} cases, Node (median of 5)`,
				value: median(pair),
				unit: 'ms',
				target: null
			},
			{
				name: `results report with CIs (computeReport + bootstrap), ${RUNS} runs, Node (median of 3)`,
				value: median(report),
				unit: 'ms',
				target: null
			}
		];
	}
};
