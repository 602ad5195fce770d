/**
 * A full browser storage mid-run: IndexedDB (fake-indexeddb) refuses the Nth
 * record with QuotaExceededError. The run stops with a message naming the case and saying what
 * to do, every record saved before stays, and a rerun once space is free ends in exactly the
 * files of a run that never hit the limit.
 */
import 'fake-indexeddb/auto';
import { comparableFiles } from '../../support/comparable-files';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readRunFiles } from '../../../src/lib/adapters/idb-layout-source';
import type { IdbStore } from '../../../src/lib/adapters/idb-store';
import { runStages } from '../../../src/lib/core/engine/run-stages';
import { CheckpointError } from '../../../src/lib/core/errors';
import { modelDirName, stageFilePath, type RunKey } from '../../../src/lib/core/layout';
import type { StageFile } from '../../../src/lib/core/records';
import { createSimulatedClient } from '../../../src/lib/core/simulated';
import { toRunError } from '../../../src/lib/core/control/run-snapshot';
import { makeDataset } from '../../fixtures/engine/cases';
import { ALL_STAGES, ENDPOINTS, MODELS } from '../engine/harness';
import { closeTestStores, fillStorageAt, openTestStore } from '../../support/idb';

const dataset = makeDataset(4);

afterEach(() => {
	vi.restoreAllMocks();
	closeTestStores();
});

async function open(): Promise<IdbStore> {
	const store = await openTestStore();
	return store;
}

/** Every stage, one case at a time, so the Nth record written is always the same one. */
function run(store: IdbStore) {
	return runStages({
		dataset,
		stages: ALL_STAGES,
		client: createSimulatedClient(),
		store,
		runId: 'r1',
		models: MODELS,
		endpoints: ENDPOINTS,
		concurrency: 1
	});
}

/** The run's files as export writes them; the manifest without its creation time. */
async function exported(store: IdbStore, key: RunKey): Promise<Map<string, string>> {
	// The call log is no record: its times differ between runs, and a run that stopped keeps
	// the lines of the calls it made before it stopped.
	return comparableFiles(await readRunFiles(store, key));
}

// Per case, gen writes a1 (complete, underspecified), LCA (the same two), interaction: 5 records;
// dcg writes force_ask then DCG_results. With 4 cases gen writes records 1–20.
const ROWS: {
	nth: number;
	stage: string;
	case: number;
	file: StageFile;
	/** Records saved before the failure, per file. */
	kept: Partial<Record<StageFile, number>>;
}[] = [
	{
		nth: 8,
		stage: 'gen',
		case: 1,
		file: 'LCA_results',
		kept: { a1: 4, LCA_results: 2, interaction: 1 }
	},
	{
		nth: 24,
		stage: 'dcg',
		case: 1,
		file: 'DCG_results',
		kept: { a1: 8, LCA_results: 8, interaction: 4, force_ask: 2, DCG_results: 1 }
	}
];

describe('IndexedDB full mid-run', () => {
	it.each(
		ROWS.map(
			(row) =>
				[
					`record ${row.nth} (${row.stage}, case #${row.case}, ${row.file}): stops naming the case, keeps what was saved, a rerun completes`,
					row
				] as const
		)
	)('%s', async (_title, row) => {
		const key: RunKey = { runId: 'r1', modelDir: await modelDirName(MODELS.evaluated) };
		const roomy = await open();
		await run(roomy);
		const expected = await exported(roomy, key);

		const store = await open();
		const full = fillStorageAt(row.nth, 'records');
		const error = await run(store).then(
			() => null,
			(e: unknown) => e
		);
		full.mockRestore();
		expect(error).toBeInstanceOf(CheckpointError);
		// The Run page heads it as full storage, not as a run that does not fit.
		expect(toRunError(error).kind).toBe('storage_full');
		const kase = dataset.cases[row.case];
		const path = stageFilePath(key, row.file);
		expect((error as Error).message).toBe(
			`${row.stage} stopped at case #${row.case} (case_number ${kase.case_number}): ` +
				`browser storage: ${path}: browser storage is full, so this record was not saved. ` +
				'Nothing was lost: every earlier record is kept. Free space (export and delete old ' +
				`runs), then resume.\n${row.case} of 4 cases are saved; fix the cause and run the same ` +
				'command again to resume.'
		);

		// Every record saved before the failure is there, exactly as a roomy run wrote it.
		const kept = await exported(store, key);
		for (const [path, text] of kept) {
			if (path.endsWith('manifest.json')) continue;
			const lines = text.split('\n').slice(0, -1);
			const file = path.split('/').pop()!.replace('.jsonl', '') as StageFile;
			expect(lines.length, path).toBe(row.kept[file]);
			const clean = new Set(expected.get(path)!.split('\n'));
			for (const line of lines) expect(clean.has(line), `${path}: ${line}`).toBe(true);
		}
		expect(kept.size).toBe(1 + Object.keys(row.kept).length);

		// Space is free again: the same run resumes and ends where the roomy run ended.
		const resumed = await run(store);
		const report = resumed.stages.find((s) => s.stage === row.stage)!;
		expect([report.resumed, report.generated]).toEqual([row.case, 4 - row.case]);
		expect(await exported(store, key)).toEqual(expected);
	});
});

describe('IndexedDB full mid-transaction, at other writes', () => {
	it('a head refused in its record’s transaction: neither is saved, the page heads it "storage is full", a rerun completes', async () => {
		const key: RunKey = { runId: 'r1', modelDir: await modelDirName(MODELS.evaluated) };
		const roomy = await open();
		await run(roomy);
		const expected = await exported(roomy, key);

		const store = await open();
		// Record 8 is case #1's complete LCA label (see ROWS): its head is the 8th put on heads.
		const full = fillStorageAt(8, 'heads', 'put');
		const error = await run(store).then(
			() => null,
			(e: unknown) => e
		);
		full.mockRestore();
		expect(error).toBeInstanceOf(CheckpointError);
		expect((error as Error).message).toMatch(
			/^gen stopped at case #1 .*LCA_results\.jsonl: browser storage is full/
		);
		expect(toRunError(error)).toMatchObject({ kind: 'storage_full' });
		// The transaction is one: the record went with its head, and nothing downstream was saved.
		const kept = await exported(store, key);
		const lines = (file: StageFile) =>
			(kept.get(stageFilePath(key, file)) ?? '').split('\n').filter(Boolean).length;
		expect([lines('a1'), lines('LCA_results'), lines('interaction')]).toEqual([4, 2, 1]);
		expect(await store.readHeads(key, 'LCA_results')).toHaveLength(2);

		const resumed = await run(store);
		expect(resumed.stages.find((s) => s.stage === 'gen')!.resumed).toBe(1);
		expect(await exported(store, key)).toEqual(expected);
	});

	it('the manifest refused: the start stops saying storage is full, nothing saved; a rerun completes', async () => {
		const key: RunKey = { runId: 'r1', modelDir: await modelDirName(MODELS.evaluated) };
		const roomy = await open();
		await run(roomy);
		const expected = await exported(roomy, key);

		const store = await open();
		const full = fillStorageAt(1, 'manifests');
		const error = await run(store).then(
			() => null,
			(e: unknown) => e
		);
		full.mockRestore();
		expect((error as Error).message).toMatch(/manifest\.json: browser storage is full/);
		expect(toRunError(error).kind).toBe('storage_full');
		expect(await store.listRuns()).toEqual([]);
		await run(store);
		expect(await exported(store, key)).toEqual(expected);
	});

	it('a call-log line refused: the run goes on with a warning, its records those of a roomy run', async () => {
		const key: RunKey = { runId: 'r1', modelDir: await modelDirName(MODELS.evaluated) };
		const roomy = await open();
		await run(roomy);
		const expected = await exported(roomy, key);

		const store = await open();
		const full = fillStorageAt(5, 'calls');
		const result = await run(store);
		full.mockRestore();
		expect(result.warnings.join('\n')).toMatch(/browser storage is full/);
		expect(await exported(store, key)).toEqual(expected);
		// The lines before the refused one are kept, whole.
		expect((await store.readCalls(key)).length).toBe(4);
	});
});
