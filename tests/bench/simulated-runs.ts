/**
 * Bench inputs made by the real code: the synthetic dataset as the loader reads it, and the
 * canonical-layout files of simulated runs written by the engine, so the store, bundle and
 * results benches read exactly what a run writes. Each is made once per process.
 */
import { loadDataset, type Dataset } from '../../src/lib/core/dataset/load';
import { runStages } from '../../src/lib/core/engine/run-stages';
import type { StageName } from '../../src/lib/core/engine';
import {
	callLogPath,
	manifestPath,
	parseLayoutPath,
	stageFilePath
} from '../../src/lib/core/layout';
import type { Role } from '../../src/lib/core/records';
import { createSimulatedClient } from '../../src/lib/core/simulated';
import { MemoryStore } from '../../src/lib/core/store/memory-store';
import { syntheticDataset } from './synthetic-dataset';

/** Every stage that writes new records, in the order a full run takes them. */
export const ALL_STAGES: readonly StageName[] = [
	'gen',
	'dcg',
	'ljp-direct',
	'ljp-gold',
	'ljp-interaction'
];

export const BENCH_MODELS: Record<Role, string> = {
	evaluated: 'simulated-eval',
	user: 'simulated-user',
	judge: 'simulated-judge'
};

export const BENCH_ENDPOINTS: Record<Role, string> = {
	evaluated: 'simulated',
	user: 'simulated',
	judge: 'simulated'
};

const datasets = new Map<number, Promise<Dataset>>();

/** The synthetic dataset with `cases` cases, loaded and validated. */
export function benchDataset(cases: number): Promise<Dataset> {
	let made = datasets.get(cases);
	if (!made) {
		made = (async () => {
			const bytes = new TextEncoder().encode(JSON.stringify(syntheticDataset(cases)));
			const loaded = await loadDataset(bytes, { fileName: `synthetic-${cases}.json` });
			if (!loaded.ok) {
				throw new Error(`the synthetic dataset did not load: ${loaded.problems[0]?.message}`);
			}
			return loaded.dataset;
		})();
		datasets.set(cases, made);
	}
	return made;
}

const runs = new Map<number, Promise<Map<string, string>>>();

/** Layout path → text of one full simulated run (every stage) over `cases` cases, run id `bench-1`. */
export function simulatedRunFiles(cases: number): Promise<Map<string, string>> {
	let made = runs.get(cases);
	if (!made) {
		made = (async () => {
			const store = new MemoryStore();
			await runStages({
				dataset: await benchDataset(cases),
				stages: ALL_STAGES,
				client: createSimulatedClient(),
				store,
				runId: 'bench-1',
				models: BENCH_MODELS,
				endpoints: BENCH_ENDPOINTS,
				concurrency: 16
			});
			return store.toFiles();
		})();
		runs.set(cases, made);
	}
	return made;
}

/**
 * The same run's files under another run id (manifest `run_id` included): a repeated run of
 * the same model, as a researcher averaging over runs would have.
 */
export function renameRun(files: Map<string, string>, runId: string): Map<string, string> {
	const renamed = new Map<string, string>();
	for (const [path, text] of files) {
		const named = parseLayoutPath(path);
		if (!named) throw new Error(`${path} is not a path of the canonical layout`);
		const run = { ...named.run, runId };
		if (named.kind === 'manifest') {
			const manifest = { ...JSON.parse(text), run_id: runId };
			renamed.set(manifestPath(run), `${JSON.stringify(manifest, null, 2)}\n`);
		} else if (named.kind === 'calls') {
			renamed.set(callLogPath(run), text);
		} else {
			renamed.set(stageFilePath(run, named.file), text);
		}
	}
	return renamed;
}

/** `count` full runs of `cases` cases (run ids bench-1 … bench-<count>), as one layout. */
export async function repeatedRuns(cases: number, count: number): Promise<Map<string, string>> {
	const first = await simulatedRunFiles(cases);
	const all = new Map(first);
	for (let i = 2; i <= count; i++) {
		for (const entry of renameRun(first, `bench-${i}`)) all.set(...entry);
	}
	return all;
}

/** Number of stage records and of call-log lines in a layout (manifests excluded). */
export function countRecords(files: Map<string, string>): { records: number; calls: number } {
	let records = 0;
	let calls = 0;
	for (const [path, text] of files) {
		const kind = parseLayoutPath(path)?.kind;
		const lines = text.split('\n').length - 1;
		if (kind === 'calls') calls += lines;
		else if (kind !== 'manifest') records += lines;
	}
	return { records, calls };
}
