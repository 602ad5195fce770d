/**
 * Results recompute: `computeReport` (PROTOCOL.md §7–8: per run, per class, per group) over five
 * full 432-case runs held in memory, as the Results page does when it opens.
 */
import { computeReport, memorySource } from '../../src/lib/core/results';
import { median, timeRuns } from './measure';
import { repeatedRuns } from './simulated-runs';
import type { BenchModule } from './types';

const RUNS = 5;
const CASES = 432;

export const resultsBench: BenchModule = {
	name: 'results recompute',
	async run() {
		const source = memorySource(Object.fromEntries(await repeatedRuns(CASES, RUNS)));
		const report = await computeReport(source);
		const group = report.groups[0];
		if (report.runs.length !== RUNS || report.groups.length !== 1 || group.n !== RUNS) {
			throw new Error(
				`expected ${RUNS} comparable runs in one group, got ${report.runs.length} runs in ${report.groups.length} groups`
			);
		}
		if (report.runs.some((r) => r.metrics.lca === null || r.metrics.dcg === null)) {
			throw new Error('a simulated run was scored as incomplete');
		}
		const times = await timeRuns(() => computeReport(source), { warmup: 2, iterations: 7 });
		return [
			{
				name: `results recompute (computeReport), ${RUNS} runs × ${CASES} cases`,
				value: median(times),
				unit: 'ms',
				target: null
			}
		];
	}
};
