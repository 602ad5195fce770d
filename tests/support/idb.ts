/**
 * IndexedDB for unit tests (fake-indexeddb): stores on a database of their own, closed after each
 * test, and a second, raw connection to the same database for tests that damage or count rows
 * behind the store's back, as another tab or an old version of the workbench would.
 */
import { IDBFactory } from 'fake-indexeddb';
import { wrap, type IDBPDatabase } from 'idb';
import { vi } from 'vitest';
import {
	DEFAULT_DB_NAME,
	openIdbStore,
	type IdbStore,
	type IdbStoreOptions,
	type WorkbenchDb
} from '../../src/lib/adapters/idb-store';
import type { RunKey } from '../../src/lib/core/layout';
import type { StageFile } from '../../src/lib/core/records';

const where = new WeakMap<IdbStore, { factory: IDBFactory; dbName: string }>();
const open: { close(): void }[] = [];

/** A store on a fresh fake IndexedDB (or `options.idbFactory`), without Web Locks unless given. */
export async function openTestStore(options: IdbStoreOptions = {}): Promise<IdbStore> {
	const factory = options.idbFactory ?? new IDBFactory();
	const dbName = options.dbName ?? DEFAULT_DB_NAME;
	const store = await openIdbStore({ locks: null, ...options, idbFactory: factory, dbName });
	where.set(store, { factory, dbName });
	open.push(store);
	return store;
}

/** A raw `idb` connection to a database, closed by `closeTestStores` like the stores. */
export async function rawDb(
	factory: IDBFactory,
	dbName: string = DEFAULT_DB_NAME
): Promise<IDBPDatabase<WorkbenchDb>> {
	const db = (await wrap(factory.open(dbName))) as unknown as IDBPDatabase<WorkbenchDb>;
	open.push(db);
	return db;
}

/** A raw connection to the database of a store opened by `openTestStore`. */
export async function rawDbOf(store: IdbStore): Promise<IDBPDatabase<WorkbenchDb>> {
	const at = where.get(store);
	if (!at) throw new Error('rawDbOf: open the store with openTestStore');
	return rawDb(at.factory, at.dbName);
}

/** Closes every store and raw connection opened since the last call (an `afterEach`). */
export function closeTestStores(): void {
	for (const connection of open.splice(0)) connection.close();
}

/**
 * Deletes the record at position `index` of a stage file behind the store's back, as if the
 * stage were still running (its heads stay; the store finds them out of step).
 */
export async function dropRecord(
	store: IdbStore,
	run: RunKey,
	file: StageFile,
	index: number
): Promise<void> {
	const raw = await rawDbOf(store);
	const rows = await raw.getAllFromIndex('records', 'by_file', [run.runId, run.modelDir, file]);
	await raw.delete('records', [run.runId, run.modelDir, file, rows[index].seq]);
}

/**
 * Makes the `nth` `method` call from now on (on object store `store`, or on any) fail as a full
 * disk does; the other calls go through. Returns the spy (`mockRestore` frees the space again).
 */
export function fillStorageAt(nth: number, store?: string, method: 'add' | 'put' = 'add') {
	const original = IDBObjectStore.prototype[method];
	let calls = 0;
	return vi.spyOn(IDBObjectStore.prototype, method).mockImplementation(function (
		this: IDBObjectStore,
		...args: Parameters<typeof original>
	) {
		if ((store === undefined || this.name === store) && ++calls === nth) {
			throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
		}
		return original.apply(this, args);
	});
}
