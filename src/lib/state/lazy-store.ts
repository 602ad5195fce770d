/**
 * The IndexedDB store, its readers and the bundle code, loaded on first use. They check every
 * record and manifest with zod's schemas, which would otherwise be in the first load of each
 * page that reads runs (≤ 100 kB of gzip JavaScript a route); the page draws itself
 * first and fetches them together with its first read, which is asynchronous anyway.
 */
import type { IdbStore } from '$lib/adapters/idb-store';

export const idbStoreModule = () => import('$lib/adapters/idb-store');
export const layoutSourceModule = () => import('$lib/adapters/idb-layout-source');
export const zipBundleModule = () => import('$lib/adapters/zip-bundle');
export const idbImportModule = () => import('$lib/adapters/idb-import');
export const resultsModule = () => import('$lib/core/results');

/** The page's one IndexedDB store (`sharedIdbStore`), loading its module first. */
export async function openSharedIdbStore(): Promise<IdbStore> {
	return (await idbStoreModule()).sharedIdbStore();
}
