/**
 * What IdbStore adds to the contract (tests/unit/store-contract.spec.ts): Web Locks, quota, and
 * heads kept beside the records (schema version 2).
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CheckpointError, RunLockedError } from '../core/errors';
import { recordHead } from '../core/store/heads';
import { makeA1, makeInteraction, makeManifest } from '../../../tests/support/record-factories';
import { wrap } from 'idb';
import { importRuns } from './idb-import';
import { upgrade, type Db } from './idb-schema';
import { openIdbStore } from './idb-store';
import { closeTestStores, openTestStore, rawDb, rawDbOf } from '../../../tests/support/idb';
import type { BundleRun } from './zip-bundle';

const run = { runId: 'run1', modelDir: 'gpt-x-4e02b150' };
const open = openTestStore;

afterEach(() => {
	vi.restoreAllMocks();
	vi.unstubAllGlobals();
	closeTestStores();
});

/** Web Locks with `ifAvailable`, as two tabs of one origin share them. */
function fakeLockManager() {
	const held = new Set<string>();
	const manager = {
		async request(
			name: string,
			_options: LockOptions,
			callback: (lock: Lock | null) => Promise<unknown>
		): Promise<unknown> {
			if (held.has(name)) return callback(null);
			held.add(name);
			try {
				return await callback({ name, mode: 'exclusive' } as Lock);
			} finally {
				held.delete(name);
			}
		},
		async query(): Promise<LockManagerSnapshot> {
			return { held: [...held].map((name) => ({ name, mode: 'exclusive' })), pending: [] };
		}
	};
	return { held, locks: manager as unknown as LockManager };
}

describe('IdbStore with Web Locks', () => {
	it('refuses a second tab while the first holds the run, and frees the lock on release', async () => {
		const { held, locks } = fakeLockManager();
		const idbFactory = new IDBFactory();
		const tab1 = await open({ idbFactory, locks });
		const tab2 = await open({ idbFactory, locks });
		const release = await tab1.lock(run);
		expect(held.size).toBe(1);
		await expect(tab2.lock(run)).rejects.toThrow(RunLockedError);
		await expect(tab2.lock(run)).rejects.toThrow(/another tab or window of the workbench/);
		await release();
		await vi.waitFor(() => expect(held.size).toBe(0));
		const again = await tab2.lock(run);
		await again();
	});

	it('says which runs are held, in any tab, and only of its own database', async () => {
		const { held, locks } = fakeLockManager();
		const idbFactory = new IDBFactory();
		const tab1 = await open({ idbFactory, locks });
		const tab2 = await open({ idbFactory, locks });
		const other = await open({ dbName: 'another-workbench', locks });
		const second = { runId: 'run2', modelDir: 'gpt-y-00000000' };
		expect(await tab2.heldRuns()).toEqual([]);
		const releases = [await tab1.lock(second), await tab1.lock(run), await other.lock(run)];
		held.add('some-other-app-lock');
		expect(await tab2.heldRuns()).toEqual([run, second]);
		expect(await other.heldRuns()).toEqual([run]);
		for (const release of releases) await release();
		await vi.waitFor(async () => expect(await tab2.heldRuns()).toEqual([]));
	});

	it('without Web Locks, says which runs this page holds', async () => {
		const store = await open({ locks: null });
		const release = await store.lock(run);
		expect(await store.heldRuns()).toEqual([run]);
		await release();
		expect(await store.heldRuns()).toEqual([]);
	});

	it('says no run is held when the lock manager cannot be asked', async () => {
		const locks = {
			query: () => Promise.reject(new DOMException('insecure origin', 'SecurityError'))
		} as unknown as LockManager;
		expect(await (await open({ locks })).heldRuns()).toEqual([]);
	});

	it('passes on a failure of the lock manager itself', async () => {
		const locks = {
			request: () => Promise.reject(new DOMException('insecure origin', 'SecurityError'))
		} as unknown as LockManager;
		const store = await open({ locks });
		await expect(store.lock(run)).rejects.toThrow('insecure origin');
	});
});

describe('IdbStore storage', () => {
	it('keeps each record as its JSON line, so export writes exactly what was saved', async () => {
		const store = await open();
		const record = makeA1('1', 'complete', { extra: '附加字段' });
		await store.appendRecord(run, 'a1', record);
		const rows = await (await rawDbOf(store)).getAll('records');
		expect(rows.map((r) => r.json)).toEqual([JSON.stringify(record)]);
	});

	it('reports a full disk as such, and keeps every earlier record', async () => {
		const store = await open();
		await store.appendRecord(run, 'a1', makeA1('1'));
		await store.appendRecord(run, 'a1', makeA1('2'));
		vi.spyOn(IDBObjectStore.prototype, 'add').mockImplementationOnce(() => {
			throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
		});
		const error = await store.appendRecord(run, 'a1', makeA1('3')).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(CheckpointError);
		expect((error as Error).message).toMatch(
			/browser storage: AwN_gen\/run1\/gpt-x-4e02b150\/a1\.jsonl: browser storage is full.*Nothing was lost/
		);
		expect(await store.readRecords(run, 'a1')).toEqual([makeA1('1'), makeA1('2')]);
		// Once space is free, the run resumes where it stopped.
		await store.appendRecord(run, 'a1', makeA1('3'));
		expect((await store.readRecords(run, 'a1')).map((r) => r.case_number)).toEqual(['1', '2', '3']);
	});

	it('says what to do when the browser offers no IndexedDB', async () => {
		vi.stubGlobal('indexedDB', undefined);
		await expect(openIdbStore({ locks: null })).rejects.toThrow(
			/offers no IndexedDB.*command-line tool/
		);
	});
});

/** Counts reads of whole record rows (getAll on the records store or its indexes). */
function countRecordReads() {
	const reads = { records: 0 };
	const spy = <T extends { prototype: { getAll: (...args: never[]) => unknown } }>(
		target: T,
		storeName: (self: never) => string
	) => {
		const original = target.prototype.getAll;
		vi.spyOn(target.prototype, 'getAll').mockImplementation(function (
			this: never,
			...args: never[]
		) {
			if (storeName(this) === 'records') reads.records++;
			return original.apply(this, args);
		} as never);
	};
	spy(IDBIndex, (self: IDBIndex) => self.objectStore.name);
	spy(IDBObjectStore, (self: IDBObjectStore) => self.name);
	return reads;
}

/** A run of three records as a bundle import hands it to `importRuns`. */
/**
 * Creates `dbName` at an old `version`: `build` makes that version's stores, `fill` writes its
 * rows in the transaction it returns; closed once they are saved.
 */
function oldDatabase(
	idbFactory: IDBFactory,
	dbName: string,
	version: number,
	build: (db: IDBDatabase) => void,
	fill: (db: IDBDatabase) => IDBTransaction
): Promise<void> {
	return new Promise<void>((resolve, reject) => {
		const request = idbFactory.open(dbName, version);
		request.onupgradeneeded = () => build(request.result);
		request.onsuccess = () => {
			const tx = fill(request.result);
			tx.oncomplete = () => {
				request.result.close();
				resolve();
			};
			tx.onerror = () => reject(tx.error);
		};
		request.onerror = () => reject(request.error);
	});
}

function bundleRun(responses: string[]): BundleRun {
	const records = responses.map((response, i) => makeA1(String(i + 1), 'complete', { response }));
	return {
		run,
		manifest: makeManifest(run),
		files: { a1: { lines: records.map((r) => JSON.stringify(r)), records } }
	};
}

describe('IdbStore heads (schema version 2)', () => {
	it('a resume reads the heads, not the record rows', async () => {
		const store = await open();
		await store.createManifest(makeManifest(run));
		const records = [makeA1('1'), makeA1('1', 'underspecified')];
		for (const r of records) await store.appendRecord(run, 'a1', r);
		const reads = countRecordReads();
		expect(await store.readHeads(run, 'a1')).toEqual(
			await Promise.all(records.map((r) => recordHead('a1', r)))
		);
		expect(reads.records).toBe(0);
	});

	it('builds the heads of an imported run on the first read, and again when the import is replaced', async () => {
		const store = await open();
		await importRuns(store, [bundleRun(['甲', '乙', '丙'])]);
		expect((await store.readHeads(run, 'a1')).map((h) => h.record.response)).toEqual([
			'甲',
			'乙',
			'丙'
		]);
		// Saved: the next resume reads heads only.
		const reads = countRecordReads();
		await store.readHeads(run, 'a1');
		expect(reads.records).toBe(0);
		vi.restoreAllMocks();

		// Same number of records, other content: the old heads must not be taken for the new ones.
		await importRuns(store, [bundleRun(['丁', '戊', '己'])], { replace: true });
		const heads = await store.readHeads(run, 'a1');
		expect(heads.map((h) => h.record.response)).toEqual(['丁', '戊', '己']);
		const imported = await store.readRecords(run, 'a1');
		expect(heads).toEqual(await Promise.all(imported.map((r) => recordHead('a1', r))));
	});

	it('upgrades a version-1 database; its runs resume from heads built on the first read', async () => {
		const idbFactory = new IDBFactory();
		const dbName = 'lexpilot-v1';
		const records = [makeA1('1'), makeInteraction('1')];
		// The version-1 schema and rows, as the workbench wrote them before heads existed.
		await oldDatabase(
			idbFactory,
			dbName,
			1,
			(db) => {
				db.createObjectStore('manifests', { keyPath: ['runId', 'modelDir'] });
				const rows = db.createObjectStore('records', {
					keyPath: ['runId', 'modelDir', 'file', 'seq']
				});
				rows.createIndex('by_file', ['runId', 'modelDir', 'file']);
				rows.createIndex(
					'by_identity',
					['runId', 'modelDir', 'file', 'case_number', 'history_type'],
					{ unique: true }
				);
			},
			(db) => {
				const tx = db.transaction(['manifests', 'records'], 'readwrite');
				tx.objectStore('manifests').put({ ...run, manifest: makeManifest(run) });
				records.forEach((record, i) => {
					const file = i === 0 ? 'a1' : 'interaction';
					tx.objectStore('records').add({
						...run,
						file,
						seq: 0,
						case_number: record.case_number,
						history_type: file === 'a1' ? 'complete' : '',
						json: JSON.stringify(record)
					});
				});
				return tx;
			}
		);

		const store = await open({ idbFactory, dbName });
		const raw = await rawDb(idbFactory, dbName);
		expect(raw.version).toBe(6);
		// Version 3 adds the call log's store; the run simply has no log. Version 4 adds reviews, 5 batch rounds, 6 plans.
		expect(raw.objectStoreNames.contains('calls')).toBe(true);
		expect(raw.objectStoreNames.contains('reviews')).toBe(true);
		expect(await store.readCalls(run)).toEqual([]);
		expect(await store.readManifest(run)).toEqual(makeManifest(run));
		const reads = countRecordReads();
		expect(await store.readHeads(run, 'a1')).toEqual([await recordHead('a1', records[0])]);
		expect(await store.readHeads(run, 'interaction')).toEqual([
			await recordHead('interaction', records[1])
		]);
		// Built from the record rows the first time, then saved.
		expect(reads.records).toBe(2);
		reads.records = 0;
		await store.readHeads(run, 'a1');
		await store.readHeads(run, 'interaction');
		expect(reads.records).toBe(0);
	});

	it('upgrades a version-5 database to 6: every store and row kept, plans kept by plan id', async () => {
		const idbFactory = new IDBFactory();
		const dbName = 'lexpilot-v5';
		const v5 = [
			'manifests',
			'records',
			'heads',
			'calls',
			'reviews',
			'batch_states',
			'batch_answers'
		] as const;
		// The version-5 schema (every step up to 5, as released) with one row in each store.
		await oldDatabase(
			idbFactory,
			dbName,
			5,
			(db) => {
				upgrade(wrap(db) as unknown as Db, 0);
				db.deleteObjectStore('plans');
			},
			(db) => {
				expect([...db.objectStoreNames].sort()).toEqual([...v5].sort());
				const tx = db.transaction([...v5], 'readwrite');
				const key = { ...run, file: 'a1', seq: 0, reviewer: 'r', decision: 'd' };
				tx.objectStore('manifests').put({ ...run, manifest: makeManifest(run) });
				tx.objectStore('records').put({
					...key,
					case_number: '1',
					history_type: 'complete',
					json: '{}'
				});
				tx.objectStore('heads').put({ ...key, head: 'h' });
				tx.objectStore('calls').put({ ...key, case_key: 'c', json: '{}' });
				tx.objectStore('reviews').put({ ...key, json: '{}' });
				tx.objectStore('batch_states').put({ ...run, json: '{}' });
				tx.objectStore('batch_answers').put({ ...key, json: '{}' });
				return tx;
			}
		);

		const store = await open({ idbFactory, dbName });
		const raw = await rawDb(idbFactory, dbName);
		expect(raw.version).toBe(6);
		for (const name of v5) expect(await raw.count(name), name).toBe(1);
		expect(await store.readManifest(run)).toEqual(makeManifest(run));
		const planId = 'a'.repeat(64);
		expect(await store.readPlanSpend(planId)).toBeNull();
		const spend = {
			cap: 0.5,
			spent: 0.61,
			currency: 'USD',
			capped: true,
			updated_at: '2026-01-01T00:00:00.000Z'
		};
		await store.writePlanSpend(planId, spend);
		expect(await store.readPlanSpend(planId)).toEqual(spend);
		// A plan's money is not a run's: deleting the run keeps it.
		await store.deleteRun(run);
		expect(await store.readPlanSpend(planId)).toEqual(spend);
		// A row that is not one this workbench wrote reads as none.
		await raw.put('plans', { planId, json: '{"cap":-1}' });
		expect(await store.readPlanSpend(planId)).toBeNull();
	});

	it('reports a damaged head with its file and line', async () => {
		const store = await open();
		await store.createManifest(makeManifest(run));
		await store.appendRecord(run, 'a1', makeA1('1'));
		await store.appendRecord(run, 'a1', makeA1('2'));
		const raw = await rawDbOf(store);
		const [, second] = await raw.getAll('heads');
		await raw.put('heads', { ...second, head: { ...second.head, record_sha256: 'x' } });
		await expect(store.readHeads(run, 'a1')).rejects.toThrow(
			/browser storage: AwN_gen\/run1\/gpt-x-4e02b150\/a1\.jsonl, line 2: .*record_sha256/
		);
	});
});
