/**
 * `testAllStorage`: one test body run against every `CheckpointStore` implementation (memory,
 * IndexedDB through fake-indexeddb, the file system in a temporary folder), as evalite runs its
 * storage tests over each adapter, and against every wrapper of a store the code base hands the
 * engine (`WRAPPERS`), each over every implementation: a wrapper keeps the whole contract.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { it } from 'vitest';
import { FsStore } from '../../src/lib/adapters/fs-store';
import { openIdbStore, type IdbStore } from '../../src/lib/adapters/idb-store';
import { rawDb } from '../support/idb';
import { stageFilePath, type RunKey } from '../../src/lib/core/layout';
import type { StageFile } from '../../src/lib/core/records';
import { withHeldLock } from '../../src/lib/core/store/held-lock';
import { MemoryStore } from '../../src/lib/core/store/memory-store';
import type { CheckpointStore } from '../../src/lib/core/store/types';

export type StorageKind = 'memory' | 'indexeddb' | 'filesystem';

export interface StorageHarness {
	kind: StorageKind;
	/** The store under test (replaced for memory after `writeRaw`). */
	readonly store: CheckpointStore;
	/** A second handle on the same storage: another tab, another process. */
	reopen(): Promise<CheckpointStore>;
	/**
	 * Puts a stage file's content as stored, bypassing every check: JSONL text for the text
	 * stores; for IndexedDB each line becomes one stored row.
	 */
	writeRaw(run: RunKey, file: StageFile, text: string): Promise<void>;
	cleanup(): Promise<void>;
}

async function memoryHarness(): Promise<StorageHarness> {
	let store = new MemoryStore();
	return {
		kind: 'memory',
		get store() {
			return store;
		},
		reopen: async () => store,
		async writeRaw(run, file, text) {
			store = MemoryStore.fromFiles([...store.toFiles(), [stageFilePath(run, file), text]]);
		},
		cleanup: async () => undefined
	};
}

let dbCount = 0;

async function idbHarness(): Promise<StorageHarness> {
	const idbFactory = new IDBFactory();
	const dbName = `lexpilot-test-${++dbCount}`;
	// locks: null exercises the in-process fallback; idb-store.spec.ts covers Web Locks.
	const open = () => openIdbStore({ dbName, idbFactory, locks: null });
	const store: IdbStore = await open();
	const handles: IdbStore[] = [store];
	return {
		kind: 'indexeddb',
		store,
		async reopen() {
			const other = await open();
			handles.push(other);
			return other;
		},
		async writeRaw(run, file, text) {
			const lines = text.split('\n').filter((line, i, all) => i < all.length - 1 || line !== '');
			// A second connection, as another writer would have: rows behind the store's back.
			const db = await rawDb(idbFactory, dbName);
			const tx = db.transaction('records', 'readwrite');
			for (const [seq, json] of lines.entries()) {
				await tx.store.put({
					runId: run.runId,
					modelDir: run.modelDir,
					file,
					seq,
					case_number: `raw-${seq}`,
					history_type: '',
					json
				});
			}
			await tx.done;
			db.close();
		},
		async cleanup() {
			for (const handle of handles) handle.close();
		}
	};
}

async function fsHarness(): Promise<StorageHarness> {
	const root = await mkdtemp(join(tmpdir(), 'lexpilot-store-'));
	const store = new FsStore(root);
	return {
		kind: 'filesystem',
		store,
		reopen: async () => new FsStore(root),
		async writeRaw(run, file, text) {
			const path = store.pathOf(stageFilePath(run, file));
			await mkdir(dirname(path), { recursive: true });
			await writeFile(path, text);
		},
		cleanup: () => rm(root, { recursive: true, force: true })
	};
}

const HARNESSES: Record<StorageKind, () => Promise<StorageHarness>> = {
	memory: memoryHarness,
	indexeddb: idbHarness,
	filesystem: fsHarness
};

/**
 * Every store wrapper in the code base, made over a store. The held-lock view (the Run page's
 * store while its engine runs) holds a run no test uses, so it answers every test as the store.
 */
export const WRAPPERS: Record<string, (store: CheckpointStore) => CheckpointStore> = {
	'held-lock view': (store) => withHeldLock(store, { runId: 'held', modelDir: 'held-0000' })
};

/** `harness` with its store and every reopened one seen through `wrap`. */
function wrapped(
	harness: StorageHarness,
	wrap: (store: CheckpointStore) => CheckpointStore
): StorageHarness {
	let inner: CheckpointStore | null = null;
	let view: CheckpointStore | null = null;
	return {
		kind: harness.kind,
		// The memory harness replaces its store after `writeRaw`: wrap whichever is current.
		get store() {
			if (harness.store !== inner) [inner, view] = [harness.store, wrap(harness.store)];
			return view!;
		},
		reopen: async () => wrap(await harness.reopen()),
		writeRaw: (run, file, text) => harness.writeRaw(run, file, text),
		cleanup: () => harness.cleanup()
	};
}

/**
 * Declares `name` once per storage kind (or only for `kinds`), each with a fresh, empty storage
 * that is cleaned up afterwards.
 */
export function testAllStorage(
	name: string,
	body: (h: StorageHarness) => Promise<void>,
	kinds: readonly StorageKind[] = ['memory', 'indexeddb', 'filesystem']
): void {
	const views: [string, (h: StorageHarness) => StorageHarness][] = [
		['', (h) => h],
		...Object.entries(WRAPPERS).map(
			([label, wrap]): [string, (h: StorageHarness) => StorageHarness] => [
				` through the ${label}`,
				(h) => wrapped(h, wrap)
			]
		)
	];
	for (const kind of kinds) {
		for (const [label, view] of views) {
			it(`${kind}${label}: ${name}`, async () => {
				const harness = await HARNESSES[kind]();
				try {
					await body(view(harness));
				} finally {
					await harness.cleanup();
				}
			});
		}
	}
}
