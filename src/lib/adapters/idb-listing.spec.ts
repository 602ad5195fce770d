import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestStores, openTestStore } from '../../../tests/support/idb';
import { storedRuns } from '../../../tests/support/stored-runs';
import { importRuns } from './idb-import';
import { listStoredRuns } from './idb-listing';

afterEach(closeTestStores);

describe('listStoredRuns', () => {
	it('lists every stored run by run id then model folder, with its records per stage file', async () => {
		const { bundle, run1, run1b } = await storedRuns();
		const store = await openTestStore();
		expect(await listStoredRuns(store)).toEqual([]);
		// Imported in reverse: the list is sorted, not in written order.
		await importRuns(store, [...bundle.runs].reverse());
		const stored = await listStoredRuns(store);
		// sim-model-a sorts before sim-model-b.
		expect(stored.map((s) => s.run)).toEqual([
			run1,
			run1b,
			{ runId: 'run2', modelDir: run1.modelDir }
		]);
		expect(
			stored.map((s) => [s.run.runId, s.counts.a1, s.counts.DCG_results, s.counts.LJP_gold])
		).toEqual([
			['run1', 8, 4, 4],
			['run1', 8, 4, 0],
			['run2', 8, 4, 4]
		]);
		expect(stored.map((s) => s.manifest)).toEqual(
			stored.map(
				(s) =>
					bundle.runs.find((b) => b.run.runId === s.run.runId && b.run.modelDir === s.run.modelDir)!
						.manifest
			)
		);
	});
});
