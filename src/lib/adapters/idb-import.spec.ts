import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { fillStorageAt, openTestStore, rawDbOf } from '../../../tests/support/idb';
import { allStoredFiles, useStoredRuns } from '../../../tests/support/stored-runs';
import { CheckpointError, RunLockedError } from '../core/errors';
import { MemoryStore } from '../core/store/memory-store';
import { writeRuns } from '../../../tests/fixtures/bundles/runs';
import { findConflicts, ImportConflictError, importRuns } from './idb-import';
import { listStoredRuns } from './idb-listing';
import type { IdbStore } from './idb-store';
import { readZipBundle, zipBundle } from './zip-bundle';

const fx = useStoredRuns();

/** Record rows in the whole database, behind the store's back. */
async function recordRows(store: IdbStore): Promise<number> {
	return (await rawDbOf(store)).count('records');
}

describe('importRuns', () => {
	it('imports a bundle so that export gives back the very same files', async () => {
		const store = await openTestStore();
		await importRuns(store, fx.bundle.runs);
		// Call logs included: the engine wrote one per run.
		expect([...fx.files.keys()].filter((p) => p.endsWith('/calls.jsonl'))).toHaveLength(3);
		expect(await allStoredFiles(store)).toEqual(fx.files);
		const stored = await listStoredRuns(store);
		expect(stored.map((s) => [s.run.runId, s.counts.a1, s.counts.LJP_gold])).toEqual([
			['run1', 8, 4],
			['run1', 8, 0],
			['run2', 8, 4]
		]);
	});

	it('refuses runs stored already, naming them, and changes nothing', async () => {
		const store = await openTestStore();
		await importRuns(store, fx.bundle.runs.slice(0, 1));
		const before = await allStoredFiles(store);
		const error = await importRuns(store, fx.bundle.runs).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(ImportConflictError);
		expect((error as ImportConflictError).conflicts).toEqual([fx.bundle.runs[0].run]);
		expect((error as Error).message).toMatch(
			/run run1 \/ sim-model-a-[0-9a-f]{8} is in this browser already/
		);
		expect(await allStoredFiles(store)).toEqual(before);
		expect(await findConflicts(store, fx.bundle.runs)).toEqual([fx.bundle.runs[0].run]);
	});

	it('replaces a stored run only when asked, whole', async () => {
		const store = await openTestStore();
		const partial = new MemoryStore();
		await writeRuns(partial, fx.dataset, [{ runId: 'run1', stages: ['dcg'] }]);
		const older = await readZipBundle(await zipBundle(partial.toFiles()), 'old.zip');
		await importRuns(store, older.runs);
		await importRuns(store, fx.bundle.runs, { replace: true });
		expect(await allStoredFiles(store)).toEqual(fx.files);
	});

	it('writes nothing when any record fails inside the transaction', async () => {
		const store = await openTestStore();
		// A hand-made run whose second record repeats the first: the unique index refuses it
		// after the first run's records were already added in the same transaction.
		const broken = structuredClone(fx.bundle.runs[2]);
		const dcg = broken.files.DCG_results!;
		dcg.records[1] = dcg.records[0];
		dcg.lines[1] = dcg.lines[0];
		await expect(importRuns(store, [fx.bundle.runs[0], broken])).rejects.toThrow(CheckpointError);
		expect(await listStoredRuns(store)).toEqual([]);
		expect(await recordRows(store)).toBe(0);
	});

	it('says a full storage stopped the import, and writes nothing', async () => {
		const store = await openTestStore();
		// Well into the second run's records.
		const full = fillStorageAt(40);
		await expect(importRuns(store, fx.bundle.runs)).rejects.toThrow(
			/^Browser storage is full, so the bundle was not imported \(nothing was written\)/
		);
		expect(full.mock.calls).toHaveLength(40);
		vi.restoreAllMocks();
		expect(await listStoredRuns(store)).toEqual([]);
		expect(await recordRows(store)).toBe(0);
	});

	it('refuses a run being written in another tab', async () => {
		const store = await openTestStore();
		const release = await store.lock(fx.bundle.runs[1].run);
		await expect(importRuns(store, fx.bundle.runs)).rejects.toThrow(RunLockedError);
		await release();
		expect(await recordRows(store)).toBe(0);
	});
});
