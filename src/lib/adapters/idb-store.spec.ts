/** What IdbStore adds to the contract (tests/unit/store-contract.spec.ts): Web Locks, quota. */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CheckpointError, RunLockedError } from '../core/errors';
import { makeA1 } from '../core/store/record-factories';
import { openIdbStore, type IdbStore } from './idb-store';

const run = { runId: 'run1', modelDir: 'gpt-x-1a2b3c4d' };
const opened: IdbStore[] = [];

async function open(options: Parameters<typeof openIdbStore>[0] = {}): Promise<IdbStore> {
	const store = await openIdbStore({ idbFactory: new IDBFactory(), locks: null, ...options });
	opened.push(store);
	return store;
}

afterEach(() => {
	vi.restoreAllMocks();
	vi.unstubAllGlobals();
	for (const store of opened.splice(0)) store.db.close();
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
		const rows = await store.db.getAll('records');
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
			/browser storage: AwN_gen\/run1\/gpt-x-1a2b3c4d\/a1\.jsonl: browser storage is full.*Nothing was lost/
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
