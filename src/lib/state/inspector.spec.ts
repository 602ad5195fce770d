import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeDataset } from '../../../tests/fixtures/engine/cases';
import { writeRuns } from '../../../tests/fixtures/bundles/runs';
import { openIdbStore, type IdbStore } from '$lib/adapters/idb-store';
import { modelDirName } from '$lib/core/layout';
import { STAGE_FILE_NAMES, type RecordsByFile } from '$lib/core/records';
import { MemoryStore } from '$lib/core/store/memory-store';
import { buildCaseRows, EMPTY_QUERY } from '$lib/view/case-table';
import { InspectorState } from './inspector.svelte';

const dataset = makeDataset(6);
const other = { ...makeDataset(6), sha256: 'f'.repeat(64) };
const first = dataset.cases[0].case_number;
let store: IdbStore;
let state: InspectorState;
let a: string;
let b: string;
let otherData: string;
let short: string;

beforeAll(async () => {
	store = await openIdbStore({ idbFactory: new IDBFactory(), locks: null });
	await writeRuns(store, dataset, [
		// Seeds whose judge labels differ (fnv1a's low bits; 'alpha' and 'beta' happen not to).
		{ runId: 'alpha', seed: 'run1' },
		{ runId: 'beta', model: 'sim-model-b', seed: 'run2' },
		{ runId: 'short', limit: 2 }
	]);
	await writeRuns(store, other, [{ runId: 'elsewhere', stages: ['gen'] }]);
	const dirA = await modelDirName('sim-model-a');
	a = `alpha/${dirA}`;
	b = `beta/${await modelDirName('sim-model-b')}`;
	short = `short/${dirA}`;
	otherData = `elsewhere/${dirA}`;
});

beforeEach(() => {
	state = new InspectorState(async () => store);
});

/** Resolves once the case table of the run shown is read. */
async function tableRead(s: InspectorState) {
	await expect.poll(() => s.table.status).toBe('ready');
}

describe('InspectorState', () => {
	it('shows the first run and its first case when the link names neither', async () => {
		await state.open({ run: null, case: null, vs: null }, null);
		expect(state.runKey).toBe(a);
		expect(state.caseNumber).toBe(first);
		expect(state.a?.view.caseNumber).toBe(first);
		expect(state.issues).toEqual([]);
		await tableRead(state);
		expect(state.listed.map((r) => r.caseNumber)).toEqual(dataset.cases.map((c) => c.case_number));
	});

	it('builds the table from every record of the run, as from the files the engine wrote', async () => {
		const memory = new MemoryStore();
		await writeRuns(memory, dataset, [{ runId: 'alpha', seed: 'run1' }]);
		const [run] = await memory.listRuns();
		const records = Object.fromEntries(
			await Promise.all(STAGE_FILE_NAMES.map(async (f) => [f, await memory.readRecords(run, f)]))
		) as RecordsByFile;
		const manifest = (await memory.readManifest(run))!;
		await state.open({ run: a, case: null, vs: null }, null);
		await tableRead(state);
		expect(state.rows).toEqual(
			buildCaseRows(manifest.dataset.selected_case_numbers, records, manifest.categories)
		);
	});

	it('says plainly when the linked run is not stored, and shows nothing in its place', async () => {
		await state.open({ run: 'gone/sim-model-a-00000000', case: first, vs: null }, null);
		expect(state.issues).toEqual([{ kind: 'run', key: 'gone/sim-model-a-00000000' }]);
		expect(state.runKey).toBeNull();
		expect(state.a).toBeNull();
		expect(state.cases).toEqual([]);
		expect(state.runs).toHaveLength(4);
	});

	it('says plainly when the linked case is not in the run, and lists the run’s cases', async () => {
		await state.open({ run: a, case: 'no-such-case', vs: null }, null);
		expect(state.issues).toEqual([{ kind: 'case', run: a, caseNumber: 'no-such-case', cases: 6 }]);
		expect(state.runKey).toBe(a);
		expect(state.caseNumber).toBeNull();
		expect(state.a).toBeNull();
		await tableRead(state);
		expect(state.listed).toHaveLength(6);
	});

	it('without a case in the link, opens the first case the filters list', async () => {
		const all = new InspectorState(async () => store);
		await all.open({ run: a, case: null, vs: null }, null);
		await tableRead(all);
		const target = all.rows!.find((r) => r.flags.lca_complete === false)!;
		state.setQuery({ ...EMPTY_QUERY, search: target.caseNumber });
		await state.open({ run: a, case: null, vs: null }, null);
		expect(state.caseNumber).toBe(target.caseNumber);
		state.setQuery({ ...EMPTY_QUERY, search: 'nothing has this text' });
		await state.open({ run: a, case: null, vs: null }, null, true);
		expect(state.caseNumber).toBeNull();
		expect(state.listed).toEqual([]);
	});

	it('compares with another run of the same dataset, case by case', async () => {
		await state.open({ run: a, case: first, vs: b }, null);
		expect(state.issues).toEqual([]);
		expect(state.vsKey).toBe(b);
		expect(state.b?.view.caseNumber).toBe(first);
		expect(state.a?.view.caseNumber).toBe(first);
		await expect.poll(() => state.vsRows?.size).toBe(6);
		state.setQuery({ ...EMPTY_QUERY, disagree: true });
		// The two runs' judges differ on some cases (seeded).
		expect(state.listed.length).toBeGreaterThan(0);
		for (const row of state.listed) {
			const theirs = state.vsRows!.get(row.caseNumber)!;
			expect(row.flags).not.toEqual(theirs.flags);
		}
	});

	it.each([
		['a run that is not stored', () => 'gone/x', (key: string) => ({ kind: 'vs', key })],
		['the run itself', () => a, (key: string) => ({ kind: 'vs-same', key })],
		['a run of another dataset', () => otherData, (key: string) => ({ kind: 'vs-dataset', key })]
	])('refuses to compare with %s, saying why', async (_, vs, issue) => {
		await state.open({ run: a, case: first, vs: vs() }, null);
		expect(state.issues).toEqual([issue(vs())]);
		expect(state.vsKey).toBeNull();
		expect(state.b).toBeNull();
		expect(state.a?.view.caseNumber).toBe(first);
	});

	it('says when the compared run does not hold the case', async () => {
		const last = dataset.cases[5].case_number;
		await state.open({ run: a, case: last, vs: short }, null);
		expect(state.issues).toEqual([{ kind: 'vs-case', key: short, caseNumber: last }]);
		expect(state.vsKey).toBe(short);
		expect(state.b).toBeNull();
	});

	it('reads nothing again for the same target, unless asked for fresh', async () => {
		await state.open({ run: a, case: first, vs: null }, null);
		const side = state.a;
		await state.open({ run: a, case: first, vs: null }, null);
		expect(state.a).toBe(side);
		await state.open({ run: a, case: first, vs: null }, null, true);
		expect(state.a).not.toBe(side);
		expect(state.a).toEqual(side);
	});
});
