/**
 * Three simulated runs (two comparable ones of one model, one partial run of another), written
 * once by the engine into memory, with their files and their bundle: what the IndexedDB adapter
 * tests store, read back and compare.
 */
import { afterEach, beforeAll } from 'vitest';
import { readRunsFiles } from '../../src/lib/adapters/idb-layout-source';
import { listStoredRuns } from '../../src/lib/adapters/idb-listing';
import type { IdbStore } from '../../src/lib/adapters/idb-store';
import { readZipBundle, zipBundle, type Bundle } from '../../src/lib/adapters/zip-bundle';
import type { RunDataset } from '../../src/lib/core/engine/types';
import { modelDirName, type RunKey } from '../../src/lib/core/layout';
import { MemoryStore } from '../../src/lib/core/store/memory-store';
import { makeDataset } from '../fixtures/engine/cases';
import { writeRuns, type RunSpec } from '../fixtures/bundles/runs';
import { closeTestStores } from './idb';

export const STORED_DATASET = makeDataset(4);

export const STORED_SPECS: RunSpec[] = [
	{ runId: 'run1' },
	{ runId: 'run2' },
	{ runId: 'run1', model: 'sim-model-b', stages: ['gen', 'dcg'] }
];

export interface StoredRunsFixture {
	dataset: RunDataset;
	specs: RunSpec[];
	/** Every file of the three runs, path → text, as the engine writes them. */
	files: Map<string, string>;
	bundle: Bundle;
	/** run1 of sim-model-a. */
	run1: RunKey;
	/** run1 of sim-model-b (gen and dcg only). */
	run1b: RunKey;
}

let fixture: Promise<StoredRunsFixture> | null = null;

/** The runs, written at the first call. */
export function storedRuns(): Promise<StoredRunsFixture> {
	fixture ??= (async () => {
		const memory = new MemoryStore();
		await writeRuns(memory, STORED_DATASET, STORED_SPECS);
		const files = memory.toFiles();
		return {
			dataset: STORED_DATASET,
			specs: STORED_SPECS,
			files,
			bundle: await readZipBundle(await zipBundle(files), 'runs.zip'),
			run1: { runId: 'run1', modelDir: await modelDirName('sim-model-a') },
			run1b: { runId: 'run1', modelDir: await modelDirName('sim-model-b') }
		};
	})();
	return fixture;
}

/**
 * The runs for a spec file's tests: filled in before its first test, every store its tests
 * opened closed after each.
 */
export function useStoredRuns(): StoredRunsFixture {
	const fx = {} as StoredRunsFixture;
	beforeAll(async () => {
		Object.assign(fx, await storedRuns());
	});
	afterEach(closeTestStores);
	return fx;
}

/** Every file of every run stored in `store`, path → text, as export would write them. */
export async function allStoredFiles(store: IdbStore): Promise<Map<string, string>> {
	return readRunsFiles(
		store,
		(await listStoredRuns(store)).map((s) => s.run)
	);
}
