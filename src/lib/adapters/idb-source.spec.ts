import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeDataset } from '../../../tests/fixtures/engine/cases';
import { writeRuns, type RunSpec } from '../../../tests/fixtures/bundles/runs';
import { CheckpointError, RunLockedError } from '../core/errors';
import {
	callLogPath,
	manifestPath,
	modelDirName,
	stageFilePath,
	type RunKey
} from '../core/layout';
import { computeReport, memorySource } from '../core/results';
import { MemoryStore } from '../core/store/memory-store';
import {
	findConflicts,
	idbLayoutSource,
	ImportConflictError,
	importRuns,
	readCaseCalls,
	listStoredRuns,
	readCaseRecords,
	readRunFiles
} from './idb-source';
import { openIdbStore, type IdbStore } from './idb-store';
import { readZipBundle, zipBundle, type Bundle } from './zip-bundle';

const dataset = makeDataset(4);
const SPECS: RunSpec[] = [
	{ runId: 'run1' },
	{ runId: 'run2' },
	{ runId: 'run1', model: 'sim-model-b', stages: ['gen', 'dcg'] }
];

let files: Map<string, string>;
let bundle: Bundle;
let run1: RunKey;
const opened: IdbStore[] = [];

async function open(): Promise<IdbStore> {
	const store = await openIdbStore({ idbFactory: new IDBFactory(), locks: null });
	opened.push(store);
	return store;
}

beforeAll(async () => {
	const memory = new MemoryStore();
	await writeRuns(memory, dataset, SPECS);
	files = memory.toFiles();
	bundle = await readZipBundle(await zipBundle(files), 'runs.zip');
	run1 = { runId: 'run1', modelDir: await modelDirName('sim-model-a') };
});

afterEach(() => {
	for (const store of opened.splice(0)) store.db.close();
});

async function allFiles(store: IdbStore): Promise<Map<string, string>> {
	const out = new Map<string, string>();
	for (const { run } of await listStoredRuns(store)) {
		for (const [path, text] of await readRunFiles(store, run)) out.set(path, text);
	}
	return out;
}

describe('idbLayoutSource', () => {
	it('scores runs the engine wrote into IndexedDB exactly as the CLI scores its folder', async () => {
		const store = await open();
		await writeRuns(store, dataset, SPECS);
		const fromIdb = await computeReport(idbLayoutSource(store));
		const fromFiles = await computeReport(memorySource(Object.fromEntries(files)));
		// Two runs of the engine make the same calls; only their times differ.
		const untimed = (report: typeof fromIdb) => ({
			...report,
			runs: report.runs.map((r) => ({
				...r,
				calls: r.calls && { calls: r.calls.calls, retries: r.calls.retries, tokens: r.calls.tokens }
			}))
		});
		expect(fromIdb.runs.every((r) => r.calls !== null && r.calls.calls > 0)).toBe(true);
		expect(untimed(fromIdb)).toEqual(untimed(fromFiles));
		expect(fromIdb.groups.map((g) => [g.model, g.n])).toEqual([
			['sim-model-a', 2],
			['sim-model-b', 1]
		]);
	});

	it('shows the same files as the engine writes to disk, byte for byte', async () => {
		const store = await open();
		await writeRuns(store, dataset, SPECS);
		// Two separate runs of the engine differ only in the manifests' created_at, and in the
		// call logs' sessions, times and latencies (what was asked and answered is the same).
		const untimed = (path: string, text: string) =>
			path.endsWith('/calls.jsonl')
				? text
						.split('\n')
						.filter(Boolean)
						.map((line) => {
							const { prompt, response, stage, task, case_number, round, history_type } =
								JSON.parse(line);
							return JSON.stringify({
								prompt,
								response,
								stage,
								task,
								case_number,
								round,
								history_type
							});
						})
						.sort()
						.join('\n')
				: text.replace(/"(created_at|at)": "[^"]*"/g, '');
		const undated = (m: Map<string, string>) => new Map([...m].map(([p, t]) => [p, untimed(p, t)]));
		const stored = await allFiles(store);
		expect([...stored.keys()].filter((p) => p.endsWith('/calls.jsonl'))).toHaveLength(SPECS.length);
		expect(undated(stored)).toEqual(undated(files));
	});

	it('lists only the chosen runs, and only files that hold records', async () => {
		const store = await open();
		await writeRuns(store, dataset, SPECS);
		const b = { runId: 'run1', modelDir: await modelDirName('sim-model-b') };
		const paths = await idbLayoutSource(store, { runs: [b] }).list();
		expect(paths).toEqual([
			manifestPath(b),
			stageFilePath(b, 'a1'),
			stageFilePath(b, 'interaction'),
			stageFilePath(b, 'force_ask'),
			stageFilePath(b, 'LCA_results'),
			stageFilePath(b, 'DCG_results'),
			callLogPath(b)
		]);
		await expect(idbLayoutSource(store, { runs: [b] }).read(manifestPath(run1))).rejects.toThrow(
			/no such file/
		);
	});

	it('scores a run that is still being written over the records saved so far', async () => {
		const store = await open();
		await writeRuns(store, dataset, [{ runId: 'run1', limit: 4, stages: ['gen', 'dcg'] }]);
		// Remove one DCG record, as if the stage were still running.
		const rows = await store.db.getAllFromIndex('records', 'by_file', [
			run1.runId,
			run1.modelDir,
			'DCG_results'
		]);
		await store.db.delete('records', [run1.runId, run1.modelDir, 'DCG_results', rows[3].seq]);
		const report = await computeReport(idbLayoutSource(store), { partial: true });
		expect(report.runs[0].completeness.DCG_results).toMatchObject({
			status: 'incomplete',
			have: 3,
			expected: 4
		});
		expect(report.runs[0].metrics.dcg?.n).toBe(3);
		expect(report.runs[0].partial).toBe(true);
	});
});

describe('importRuns', () => {
	it('imports a bundle so that export gives back the very same files', async () => {
		const store = await open();
		await importRuns(store, bundle.runs);
		// Call logs included: the engine wrote one per run.
		expect([...files.keys()].filter((p) => p.endsWith('/calls.jsonl'))).toHaveLength(3);
		expect(await allFiles(store)).toEqual(files);
		// Inspect reads one case's lines through the by_case index.
		const [first] = bundle.runs;
		const caseNumber = first.manifest.dataset.selected_case_numbers[0];
		const caseCalls = await readCaseCalls(store, first.run, String(caseNumber));
		expect(caseCalls).toEqual(
			first.calls!.entries.filter((e) => String(e.case_number) === String(caseNumber))
		);
		expect(caseCalls.length).toBeGreaterThan(5);
		const stored = await listStoredRuns(store);
		expect(stored.map((s) => [s.run.runId, s.counts.a1, s.counts.LJP_gold])).toEqual([
			['run1', 8, 4],
			['run1', 8, 0],
			['run2', 8, 4]
		]);
	});

	it('imports integer case numbers as they are: same bytes out, same report, found by string', async () => {
		const ints = makeDataset(3, (kase) => ({
			...kase,
			case_number: String(1001 + kase.index),
			case_number_value: 1001 + kase.index
		}));
		const written = new MemoryStore();
		await writeRuns(written, ints, [{ runId: 'run1' }]);
		const intFiles = written.toFiles();
		const a1 = [...intFiles].find(([path]) => path.endsWith('a1.jsonl'))![1];
		expect(JSON.parse(a1.split('\n')[0]).case_number).toBe(1001);
		const store = await open();
		await importRuns(store, (await readZipBundle(await zipBundle(intFiles), 'py.zip')).runs);
		expect(await allFiles(store)).toEqual(intFiles);
		const [stored] = await listStoredRuns(store);
		const records = await readCaseRecords(store, stored.run, '1002');
		expect(records.DCG_results.map((r) => r.case_number)).toEqual([1002]);
		expect(records.a1).toHaveLength(2);
		const fromIdb = await computeReport(idbLayoutSource(store));
		const fromFiles = await computeReport(memorySource(Object.fromEntries(intFiles)));
		expect(fromIdb).toEqual(fromFiles);
		expect(fromIdb.runs[0].metrics.dcg?.n).toBe(3);
	});

	it('refuses runs stored already, naming them, and changes nothing', async () => {
		const store = await open();
		await importRuns(store, bundle.runs.slice(0, 1));
		const before = await allFiles(store);
		const error = await importRuns(store, bundle.runs).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(ImportConflictError);
		expect((error as ImportConflictError).conflicts).toEqual([bundle.runs[0].run]);
		expect((error as Error).message).toMatch(
			/run run1 \/ sim-model-a-[0-9a-f]{8} is in this browser already/
		);
		expect(await allFiles(store)).toEqual(before);
		expect(await findConflicts(store, bundle.runs)).toEqual([bundle.runs[0].run]);
	});

	it('replaces a stored run only when asked, whole', async () => {
		const store = await open();
		const partial = new MemoryStore();
		await writeRuns(partial, dataset, [{ runId: 'run1', stages: ['dcg'] }]);
		const older = await readZipBundle(await zipBundle(partial.toFiles()), 'old.zip');
		await importRuns(store, older.runs);
		await importRuns(store, bundle.runs, { replace: true });
		expect(await allFiles(store)).toEqual(files);
	});

	it('writes nothing when any record fails inside the transaction', async () => {
		const store = await open();
		// A hand-made run whose second record repeats the first: the unique index refuses it
		// after the first run's records were already added in the same transaction.
		const broken = structuredClone(bundle.runs[2]);
		const dcg = broken.files.DCG_results!;
		dcg.records[1] = dcg.records[0];
		dcg.lines[1] = dcg.lines[0];
		await expect(importRuns(store, [bundle.runs[0], broken])).rejects.toThrow(CheckpointError);
		expect(await listStoredRuns(store)).toEqual([]);
		expect(await store.db.count('records')).toBe(0);
	});

	it('refuses a run being written in another tab', async () => {
		const store = await open();
		const release = await store.lock(bundle.runs[1].run);
		await expect(importRuns(store, bundle.runs)).rejects.toThrow(RunLockedError);
		await release();
		expect(await store.db.count('records')).toBe(0);
	});
});

describe('readCaseRecords', () => {
	it("gives one case's records of every stage file, both histories where there are two", async () => {
		const store = await open();
		await importRuns(store, bundle.runs);
		const caseNumber = dataset.cases[2].case_number;
		const records = await readCaseRecords(store, run1, caseNumber);
		expect(records.a1.map((r) => r.history_type)).toEqual(['complete', 'underspecified']);
		expect(records.LCA_results).toHaveLength(2);
		for (const file of ['interaction', 'force_ask', 'DCG_results', 'LJP_gold'] as const) {
			expect(records[file].map((r) => r.case_number)).toEqual([caseNumber]);
		}
		expect(records.LJP_gold[0].gold).toEqual(dataset.cases[2].claims.map((c) => c.verdict));
	});

	it('gives empty lists for a case or stage without records', async () => {
		const store = await open();
		await importRuns(store, bundle.runs);
		const b = { runId: 'run1', modelDir: await modelDirName('sim-model-b') };
		const records = await readCaseRecords(store, b, dataset.cases[0].case_number);
		expect(records.LJP_direct).toEqual([]);
		expect((await readCaseRecords(store, b, 'no-such-case')).a1).toEqual([]);
	});
});
