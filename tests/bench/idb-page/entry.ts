/**
 * Runs in Chromium (bundled by idb.bench.ts): writes a run's records through the real
 * `IdbStore`, then times the resume scan (`readHeads` of every stage file). Exposed as `window.idbBench`.
 */
import { openIdbStore, type WorkbenchDb } from '../../../src/lib/adapters/idb-store';
import { openDB } from 'idb';
import type { RunKey } from '../../../src/lib/core/layout';
import {
	STAGE_FILE_NAMES,
	type AnyRecord,
	type Manifest,
	type StageFile
} from '../../../src/lib/core/records';

/** What idb.bench.ts serves as `run.json`. */
export interface BenchRun {
	manifest: Manifest;
	/** Records per stage file, in file order. */
	files: Partial<Record<StageFile, AnyRecord[]>>;
}

const DB_NAME = 'lexpilot-bench';

async function write(url: string): Promise<{ records: number; ms: number }> {
	const run = (await (await fetch(url)).json()) as BenchRun;
	const store = await openIdbStore({ dbName: DB_NAME });
	const key: RunKey = { runId: run.manifest.run_id, modelDir: run.manifest.model_dir };
	const release = await store.lock(key);
	let records = 0;
	const start = performance.now();
	try {
		await store.createManifest(run.manifest);
		// One append per record, each awaited, as the engine saves a finished case.
		for (const file of STAGE_FILE_NAMES) {
			for (const record of run.files[file] ?? []) {
				await store.appendRecord(key, file, record);
				records++;
			}
		}
	} finally {
		await release();
	}
	const ms = performance.now() - start;
	store.close();
	return { records, ms };
}

/**
 * Reads every stage file of the run the way a resume does (`readHeads`: heads, each checked),
 * `times` times, each timed. After each scan but the first, the same head rows are read again
 * without checking, to tell IndexedDB's share from the store's, and every record is read whole
 * (`readRecords`, as export and the results page read them).
 */
async function scan(
	key: RunKey,
	times: number
): Promise<{ records: number; ms: number[]; rawMs: number[]; fullMs: number[] }> {
	const store = await openIdbStore({ dbName: DB_NAME });
	// A second connection for the unchecked reads: the store keeps its own to itself.
	const raw = await openDB<WorkbenchDb>(DB_NAME);
	const ms: number[] = [];
	const rawMs: number[] = [];
	const fullMs: number[] = [];
	let records = 0;
	for (let i = 0; i < times; i++) {
		let start = performance.now();
		records = 0;
		for (const file of STAGE_FILE_NAMES) records += (await store.readHeads(key, file)).length;
		ms.push(performance.now() - start);
		if (i === 0) continue;
		start = performance.now();
		for (const file of STAGE_FILE_NAMES) {
			await raw.getAll(
				'heads',
				IDBKeyRange.bound(
					[key.runId, key.modelDir, file, -Infinity],
					[key.runId, key.modelDir, file, Infinity]
				)
			);
		}
		rawMs.push(performance.now() - start);
		start = performance.now();
		for (const file of STAGE_FILE_NAMES) await store.readRecords(key, file);
		fullMs.push(performance.now() - start);
	}
	raw.close();
	store.close();
	return { records, ms, rawMs, fullMs };
}

const api = { write, scan };
export type IdbBenchApi = typeof api;
(globalThis as unknown as { idbBench: IdbBenchApi }).idbBench = api;
