/**
 * Opening the workbench database: created or upgraded to the current schema, stepping aside
 * for a newer tab, with the lock manager the store's run locks come from.
 */
import { wrap } from 'idb';
import { CheckpointError } from '../core/errors';
import { coded } from '../core/said';
import { DB_VERSION, DEFAULT_DB_NAME, upgrade, type Db } from './idb-schema';

export interface IdbStoreOptions {
	/** @default 'lexpilot-workbench' */
	dbName?: string;
	/** @default globalThis.indexedDB (tests pass fake-indexeddb's) */
	idbFactory?: IDBFactory;
	/**
	 * Where run locks come from. When missing (Node, old browsers) an in-process lock stands in,
	 * which guards one page but not a second tab.
	 * @default globalThis.navigator?.locks
	 */
	locks?: LockManager | null;
}

/** An open database, its name and its lock manager. */
export interface OpenDb {
	db: Db;
	dbName: string;
	locks: LockManager | null;
}

/** Opens (creating or upgrading) the workbench database. */
export async function openWorkbenchDb(options: IdbStoreOptions = {}): Promise<OpenDb> {
	const dbName = options.dbName ?? DEFAULT_DB_NAME;
	const factory = options.idbFactory ?? globalThis.indexedDB;
	if (!factory) {
		throw new CheckpointError([coded('no_indexeddb', {})]);
	}
	const request = factory.open(dbName, DB_VERSION);
	request.addEventListener('upgradeneeded', (event) => {
		upgrade(wrap(request.result) as unknown as Db, event.oldVersion);
	});
	const db = (await wrap(request)) as unknown as Db;
	// A newer tab wants to upgrade the schema: step aside rather than block it.
	db.addEventListener('versionchange', () => db.close());
	const locks = options.locks === undefined ? (globalThis.navigator?.locks ?? null) : options.locks;
	return { db, dbName, locks };
}
