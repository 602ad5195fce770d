import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { makeDataset } from '../../../tests/fixtures/engine/cases';
import { writeRuns } from '../../../tests/fixtures/bundles/runs';
import { openIdbStore, type IdbStore } from '$lib/adapters/idb-store';
import { keyOf, ResultsState } from './results.svelte';

const dataset = makeDataset(3);

async function setup(): Promise<{ store: IdbStore; state: ResultsState }> {
	const store = await openIdbStore({ idbFactory: new IDBFactory(), locks: null });
	const state = new ResultsState({ openStore: async () => store });
	return { store, state };
}

describe('ResultsState', () => {
	it('shows every run at first, and averages once comparable runs exist', async () => {
		const { store, state } = await setup();
		await writeRuns(store, dataset, [{ runId: 'run1' }, { runId: 'run2' }]);
		await state.load();
		expect(state.status).toBe('ready');
		expect(state.selected).toEqual(state.runs.map((r) => keyOf(r.run)));
		expect(state.report?.runs.map((r) => r.run_id)).toEqual(['run1', 'run2']);
		expect(state.mode).toBe('groups');
	});

	it('keeps a hidden run hidden on refresh, and shows a run that appeared since', async () => {
		const { store, state } = await setup();
		await writeRuns(store, dataset, [{ runId: 'run1' }, { runId: 'run2' }]);
		await state.load();
		const [first] = state.selected;
		state.toggle(first, false);
		await state.load();
		expect(state.report?.runs.map((r) => r.run_id)).toEqual(['run2']);
		await writeRuns(store, dataset, [{ runId: 'run3' }]);
		await state.load();
		expect(state.selected).not.toContain(first);
		expect(state.report?.runs.map((r) => r.run_id)).toEqual(['run2', 'run3']);
	});

	it('hides and shows all runs of a model at once', async () => {
		const { store, state } = await setup();
		await writeRuns(store, dataset, [
			{ runId: 'run1' },
			{ runId: 'run1', model: 'sim-model-b' },
			{ runId: 'run2', model: 'sim-model-b' }
		]);
		await state.load();
		state.setModel('sim-model-b', false);
		await state.load();
		expect(state.report?.runs.map((r) => r.model)).toEqual(['sim-model-a']);
		state.setModel('sim-model-b', true);
		await state.load();
		expect(state.report?.runs).toHaveLength(3);
	});

	it('scores a run still being written as partial, and says it is in progress', async () => {
		const { store, state } = await setup();
		await writeRuns(store, dataset, [{ runId: 'run1', stages: ['gen', 'dcg'] }]);
		const [run] = await store.listRuns();
		const rows = await store.db.getAllFromIndex('records', 'by_file', [
			run.runId,
			run.modelDir,
			'DCG_results'
		]);
		await store.db.delete('records', [run.runId, run.modelDir, 'DCG_results', rows[2].seq]);
		await state.load();
		expect(state.inProgress).toBe(true);
		expect(state.report?.runs[0].metrics.dcg?.n).toBe(2);
		expect(state.report?.runs[0].partial).toBe(true);
	});

	it('reports a malformed stored record with its file and line', async () => {
		const { store, state } = await setup();
		await writeRuns(store, dataset, [{ runId: 'run1', stages: ['dcg'] }]);
		const row = (await store.db.getAll('records')).find((r) => r.file === 'DCG_results')!;
		await store.db.put('records', { ...row, json: '{"case_number": 1' });
		await state.load();
		expect(state.status).toBe('error');
		expect(state.error).toMatch(
			/browser storage\/eval_results\/run1\/sim-model-a-[0-9a-f]{8}\/DCG_results\.jsonl, line 1: not valid JSON/
		);
	});

	it('shows nothing, without error, when every run is hidden', async () => {
		const { store, state } = await setup();
		await writeRuns(store, dataset, [{ runId: 'run1', stages: ['dcg'] }]);
		await state.load();
		state.selectNone();
		await state.load();
		expect(state.report).toBeNull();
		expect(state.status).toBe('ready');
	});
});
