import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openTestStore, rawDbOf } from '../../../tests/support/idb';
import { useStoredRuns } from '../../../tests/support/stored-runs';
import { writeRuns } from '../../../tests/fixtures/bundles/runs';
import { callLogPath } from '../core/layout';
import { computeReport, memorySource } from '../core/results';
import { importRuns } from './idb-import';
import { idbLayoutSource } from './idb-layout-source';
import type { IdbStore } from './idb-store';

const fx = useStoredRuns();

/** Each run's `calls` in a report over the store, by run id and model folder. */
async function reportedCalls(store: IdbStore) {
	const report = await computeReport(idbLayoutSource(store));
	return report.runs.map((r) => ({
		run: `${r.run_id}/${r.model_dir}`,
		calls: r.calls,
		notes: r.notes
	}));
}

/** Replaces the JSON of the first call-log line of run1 behind the store's back (same count). */
async function damageFirstCall(store: IdbStore, json: string): Promise<void> {
	const raw = await rawDbOf(store);
	const key: [string, string, number] = [fx.run1.runId, fx.run1.modelDir, 0];
	const row = await raw.get('calls', key);
	await raw.put('calls', { ...row!, json });
}

describe('call-log totals kept with the run', () => {
	it('an import keeps the totals of each log: a report gives the figures of the files', async () => {
		const store = await openTestStore();
		await importRuns(store, fx.bundle.runs);
		const raw = await rawDbOf(store);
		const row = await raw.get('manifests', [fx.run1.runId, fx.run1.modelDir]);
		expect(row?.callTotals?.lines).toBe(await store.countCalls(fx.run1));
		const fromFiles = await computeReport(memorySource(Object.fromEntries(fx.files)));
		expect((await reportedCalls(store)).map((r) => r.calls)).toEqual(
			fromFiles.runs.map((r) => r.calls)
		);
		// The kept totals are what is read: the log itself is not (a damaged line goes unseen).
		await damageFirstCall(store, '{');
		expect((await reportedCalls(store)).map((r) => r.calls)).toEqual(
			fromFiles.runs.map((r) => r.calls)
		);
	});

	it('a log written call by call is read once, its totals kept until a line is added', async () => {
		const store = await openTestStore();
		await writeRuns(store, fx.dataset, [{ runId: 'run1' }]);
		const first = await reportedCalls(store);
		expect(first[0].calls?.calls).toBe(await store.countCalls(fx.run1));
		await damageFirstCall(store, '{');
		expect(await reportedCalls(store)).toEqual(first);
		// A line more: the totals no longer cover the log, which is read again (damage and all).
		const lines = await store.callLines(fx.run1);
		await store.appendCall(fx.run1, lines[1]);
		const again = await reportedCalls(store);
		expect(again[0].calls).toBeNull();
		expect(JSON.stringify(again[0].notes)).toContain(callLogPath(fx.run1));
	});

	it('totals of an unreadable log are not kept: it is read (and reported) each time', async () => {
		const store = await openTestStore();
		await writeRuns(store, fx.dataset, [{ runId: 'run1' }]);
		const good = (await store.callLines(fx.run1))[0];
		await damageFirstCall(store, '{');
		expect((await reportedCalls(store))[0].calls).toBeNull();
		await damageFirstCall(store, good);
		expect((await reportedCalls(store))[0].calls?.calls).toBe(await store.countCalls(fx.run1));
	});
});
