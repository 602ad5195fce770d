/** How much browser storage the workbench uses and may use, for the UI's storage notice. */

export interface StorageInfo {
	/** Bytes used by this origin, when the browser says. */
	usage: number | null;
	/** Bytes this origin may use, when the browser says. */
	quota: number | null;
	/** True when the browser will not evict this origin's data under storage pressure. */
	persisted: boolean | null;
}

export interface EstimateStorageOptions {
	/**
	 * Also ask the browser to keep the data (`navigator.storage.persist()`). Firefox may show a
	 * permission prompt, so ask once, when the user starts a run, not on every page load.
	 * @default false
	 */
	requestPersist?: boolean;
	/** @default globalThis.navigator?.storage */
	storage?: StorageManager | null;
}

/** Usage, quota and persistence of this origin's storage; null when the browser offers none. */
export async function estimateStorage(
	options: EstimateStorageOptions = {}
): Promise<StorageInfo | null> {
	const storage = options.storage === undefined ? globalThis.navigator?.storage : options.storage;
	if (!storage || typeof storage.estimate !== 'function') return null;
	const estimate = await storage.estimate().catch(() => null);
	if (estimate === null) return null;
	let persisted: boolean | null = null;
	try {
		if (options.requestPersist && typeof storage.persist === 'function') {
			persisted = await storage.persist();
		} else if (typeof storage.persisted === 'function') {
			persisted = await storage.persisted();
		}
	} catch {
		// Persistence is a nicety; an estimate without it is still useful.
	}
	return { usage: estimate.usage ?? null, quota: estimate.quota ?? null, persisted };
}
