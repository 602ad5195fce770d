/**
 * Engine throughput: every stage of a run over simulated cases whose calls each take 20–40 ms,
 * at concurrency 1, 4, 16 and 64. Wall time is compared with the ideal computed from the
 * calls themselves (critical-path.ts), so the figure is a ratio that a slower CPU does not
 * move; other load on the machine still does. Each concurrency is its own bench, so one
 * failing does not hide the others.
 */
import { runStages } from '../../src/lib/core/engine/run-stages';
import { createSimulatedClient } from '../../src/lib/core/simulated';
import { MemoryStore } from '../../src/lib/core/store/memory-store';
import { idealTime, measured, stageChains, type Ideal } from './critical-path';
import { withLatency } from './latency-client';
import { median } from './measure';
import {
	ALL_STAGES,
	BENCH_ENDPOINTS,
	BENCH_MODELS,
	benchDataset,
	simulatedRunFiles
} from './simulated-runs';
import type { BenchModule, BenchRow } from './types';

/** Cases per lane: enough that the last, part-filled wave of a stage is a small share of it. */
const CASES_PER_LANE = 12;
/** Runs per concurrency; rows give the median, names the range (the machine is shared). */
const REPEATS = 3;
const MAX_CASES = 432;
/** Concurrency 16 may take at most this multiple of the ideal. */
const TARGET_RATIO = 1.2;
/** At concurrency 1, time beyond the summed chain latencies, in percent. */
const TARGET_OVERHEAD_PERCENT = 5;

export interface EngineMeasurement extends Ideal {
	cases: number;
	calls: number;
	wallMs: number;
	/** Σ of the case chains weighed by the time each call really took to come back. */
	measuredWorkMs: number;
	/** Mean of (returned − started − intended latency) per call: timer lateness, busy event loop. */
	meanLatenessMs: number;
}

/** One full run at `concurrency` over `min(432, 12 × concurrency)` cases. */
export async function measureEngine(concurrency: number): Promise<EngineMeasurement> {
	// A zero-latency run first, so the JIT has compiled the engine before the timed run.
	await simulatedRunFiles(8);
	const cases = Math.min(MAX_CASES, CASES_PER_LANE * concurrency);
	const dataset = await benchDataset(cases);
	let stage = 'none';
	const { client, calls } = withLatency(createSimulatedClient(), () => stage, { seed: 7 });
	const start = performance.now();
	await runStages({
		dataset,
		stages: ALL_STAGES,
		client,
		store: new MemoryStore(),
		runId: `throughput-c${concurrency}`,
		models: BENCH_MODELS,
		endpoints: BENCH_ENDPOINTS,
		concurrency,
		onProgress: (p) => (stage = p.stage)
	});
	const wallMs = performance.now() - start;
	const ideal = idealTime(stageChains(calls), concurrency);
	// The ideal is a lower bound; a run beating it means the bench, not the engine, is wrong.
	if (wallMs < ideal.idealMs * 0.98) {
		throw new Error(
			`the run took ${wallMs.toFixed(0)} ms, less than its ideal ${ideal.idealMs.toFixed(0)} ms: the bench's ideal is wrong`
		);
	}
	const lateness = calls.reduce((sum, c) => sum + (c.end - c.start - c.latencyMs), 0);
	return {
		cases,
		calls: calls.length,
		wallMs,
		...ideal,
		measuredWorkMs: idealTime(stageChains(calls, measured), 1).workMs,
		meanLatenessMs: lateness / Math.max(1, calls.length)
	};
}

/** Median of a figure over the repeats, with its range in the row name. */
function summary(values: number[]): { value: number; range: string } {
	const f = (n: number) => n.toFixed(2);
	return { value: median(values), range: `${f(Math.min(...values))}–${f(Math.max(...values))}` };
}

function engineBench(concurrency: number): BenchModule {
	return {
		name: `engine throughput c=${concurrency}`,
		async run() {
			const runs: EngineMeasurement[] = [];
			for (let i = 0; i < REPEATS; i++) runs.push(await measureEngine(concurrency));
			const { cases, calls } = runs[0];
			const ratio = summary(runs.map((m) => m.wallMs / m.idealMs));
			const rows: BenchRow[] = [
				{
					name: `engine wall / ideal, concurrency ${concurrency}, ${cases} cases, ${calls} calls (range ${ratio.range})`,
					value: ratio.value,
					unit: '×',
					target: concurrency === 16 ? TARGET_RATIO : null
				}
			];
			if (concurrency === 1) {
				// Weighed by what each call really took, so the simulation's timer lateness (next
				// row) is not billed to the engine: what is left is the engine's own time.
				const overhead = summary(
					runs.map((m) => ((m.wallMs - m.measuredWorkMs) / m.measuredWorkMs) * 100)
				);
				rows.push(
					{
						name: `engine overhead, concurrency 1: (wall − Σ latency) / Σ latency (range ${overhead.range})`,
						value: overhead.value,
						unit: '%',
						target: TARGET_OVERHEAD_PERCENT
					},
					{
						name: 'simulated calls: mean lateness over the intended 20–40 ms',
						value: median(runs.map((m) => m.meanLatenessMs)),
						unit: 'ms',
						target: null
					}
				);
			}
			return rows;
		}
	};
}

export const engineBenches: BenchModule[] = [1, 4, 16, 64].map(engineBench);
