import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { makeDataset } from '../../../tests/fixtures/engine/cases';
import { writeRuns } from '../../../tests/fixtures/bundles/runs';
import { dropRecord, openTestStore, rawDbOf } from '../../../tests/support/idb';
import { allStoredFiles, useStoredRuns } from '../../../tests/support/stored-runs';
import { callLogPath, manifestPath, stageFilePath } from '../core/layout';
import { computeReport, memorySource } from '../core/results';
import { MemoryStore } from '../core/store/memory-store';
import { importRuns } from './idb-import';
import { listStoredRuns } from './idb-listing';
import { idbLayoutSource, readCaseCalls, readCaseRecords } from './idb-layout-source';
import { readZipBundle, zipBundle } from './zip-bundle';

const fx = useStoredRuns();

describe('idbLayoutSource', () => {
	it('scores runs the engine wrote into IndexedDB exactly as the CLI scores its folder', async () => {
		const store = await openTestStore();
		await writeRuns(store, fx.dataset, fx.specs);
		const fromIdb = await computeReport(idbLayoutSource(store));
		const fromFiles = await computeReport(memorySource(Object.fromEntries(fx.files)));
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
		const store = await openTestStore();
		await writeRuns(store, fx.dataset, fx.specs);
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
		const stored = await allStoredFiles(store);
		expect([...stored.keys()].filter((p) => p.endsWith('/calls.jsonl'))).toHaveLength(
			fx.specs.length
		);
		expect(undated(stored)).toEqual(undated(fx.files));
	});

	it('hands the stage files over as records: no file text is built from rows and parsed again', async () => {
		const store = await openTestStore();
		await writeRuns(store, fx.dataset, fx.specs);
		const source = idbLayoutSource(store);
		const read: string[] = [];
		const report = await computeReport({
			...source,
			read: (path) => (read.push(path), source.read(path))
		});
		expect(report.runs.map((r) => r.run_id)).toHaveLength(fx.specs.length);
		expect(read.filter((path) => path.startsWith('eval_results/'))).toEqual([]);
	});

	it('names a stored record that fails its check by run, file and line', async () => {
		const store = await openTestStore();
		await writeRuns(store, fx.dataset, fx.specs);
		const run = fx.run1;
		const raw = await rawDbOf(store);
		const rows = await raw.getAllFromIndex('records', 'by_file', [
			run.runId,
			run.modelDir,
			'DCG_results'
		]);
		const row = rows[1];
		await raw.put('records', {
			...row,
			json: JSON.stringify({ ...JSON.parse(row.json), case_number: [] })
		});
		const failed = await computeReport(idbLayoutSource(store)).catch((e: Error) => e);
		expect(failed).toBeInstanceOf(Error);
		expect((failed as Error).message).toContain(`${stageFilePath(run, 'DCG_results')}, line 2`);
	});

	it('lists only the chosen runs, and only files that hold records', async () => {
		const store = await openTestStore();
		await writeRuns(store, fx.dataset, fx.specs);
		const b = fx.run1b;
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
		await expect(idbLayoutSource(store, { runs: [b] }).read(manifestPath(fx.run1))).rejects.toThrow(
			/no such file/
		);
	});

	it('reports over stored runs without counting a row: Chromium counts by scanning them all', async () => {
		const store = await openTestStore();
		await importRuns(store, fx.bundle.runs);
		const count = vi.spyOn(IDBObjectStore.prototype, 'count');
		const counted = vi.spyOn(IDBIndex.prototype, 'count');
		try {
			const report = await computeReport(idbLayoutSource(store));
			expect(report.runs.every((r) => r.calls !== null && r.calls.calls > 0)).toBe(true);
			expect(count).not.toHaveBeenCalled();
			expect(counted).not.toHaveBeenCalled();
		} finally {
			count.mockRestore();
			counted.mockRestore();
		}
	});

	it('scores a run that is still being written over the records saved so far', async () => {
		const store = await openTestStore();
		await writeRuns(store, fx.dataset, [{ runId: 'run1', limit: 4, stages: ['gen', 'dcg'] }]);
		// Remove one DCG record, as if the stage were still running.
		await dropRecord(store, fx.run1, 'DCG_results', 3);
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

describe('readCaseRecords', () => {
	it("gives one case's records of every stage file, both histories where there are two", async () => {
		const store = await openTestStore();
		await importRuns(store, fx.bundle.runs);
		const caseNumber = fx.dataset.cases[2].case_number;
		const records = await readCaseRecords(store, fx.run1, caseNumber);
		expect(records.a1.map((r) => r.history_type)).toEqual(['complete', 'underspecified']);
		expect(records.LCA_results).toHaveLength(2);
		for (const file of ['interaction', 'force_ask', 'DCG_results', 'LJP_gold'] as const) {
			expect(records[file].map((r) => r.case_number)).toEqual([caseNumber]);
		}
		expect(records.LJP_gold[0].gold).toEqual(fx.dataset.cases[2].claims.map((c) => c.verdict));
	});

	it('gives empty lists for a case or stage without records', async () => {
		const store = await openTestStore();
		await importRuns(store, fx.bundle.runs);
		const b = fx.run1b;
		const records = await readCaseRecords(store, b, fx.dataset.cases[0].case_number);
		expect(records.LJP_direct).toEqual([]);
		expect((await readCaseRecords(store, b, 'no-such-case')).a1).toEqual([]);
	});

	it('finds integer case numbers by string; they are read, exported and scored as they are', async () => {
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
		const store = await openTestStore();
		await importRuns(store, (await readZipBundle(await zipBundle(intFiles), 'py.zip')).runs);
		expect(await allStoredFiles(store)).toEqual(intFiles);
		const [stored] = await listStoredRuns(store);
		const records = await readCaseRecords(store, stored.run, '1002');
		expect(records.DCG_results.map((r) => r.case_number)).toEqual([1002]);
		expect(records.a1).toHaveLength(2);
		const fromIdb = await computeReport(idbLayoutSource(store));
		const fromFiles = await computeReport(memorySource(Object.fromEntries(intFiles)));
		expect(fromIdb).toEqual(fromFiles);
		expect(fromIdb.runs[0].metrics.dcg?.n).toBe(3);
	});

	it("gives one case's call-log lines through the by_case index", async () => {
		const store = await openTestStore();
		await importRuns(store, fx.bundle.runs);
		const [first] = fx.bundle.runs;
		const caseNumber = String(first.manifest.dataset.selected_case_numbers[0]);
		const caseCalls = await readCaseCalls(store, first.run, caseNumber);
		expect(caseCalls).toEqual(
			first.calls!.entries.filter((e) => String(e.case_number) === caseNumber)
		);
		expect(caseCalls.length).toBeGreaterThan(5);
		expect(await readCaseCalls(store, first.run, 'no-such-case')).toEqual([]);
	});
});
