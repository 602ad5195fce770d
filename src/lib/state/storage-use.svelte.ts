/**
 * How much browser storage the workbench uses, one figure for the whole app: the Run and Bundles
 * pages both show this object, and whichever page asked the browser last has updated it for
 * both, so they never show two numbers for one thing.
 */
import {
	estimateStorage,
	type EstimateStorageOptions,
	type StorageInfo
} from '$lib/adapters/storage-info';
import { formatBytes } from '$lib/core/text';

export class StorageUse {
	/** What the browser said last; null when it does not say (or has not been asked). */
	info = $state.raw<StorageInfo | null>(null);
	/** Bytes used, as every page writes them (`2.3 MB`; `?` when the browser does not say). */
	used = $derived(shown(this.info?.usage));
	/** Bytes the browser allows this site. */
	quota = $derived(shown(this.info?.quota));

	readonly #estimate: (options?: EstimateStorageOptions) => Promise<StorageInfo | null>;

	constructor(estimate = estimateStorage) {
		this.#estimate = estimate;
	}

	/** Asks the browser again (after a run, an import, a delete). */
	async refresh(options: EstimateStorageOptions = {}): Promise<StorageInfo | null> {
		this.info = await this.#estimate(options);
		return this.info;
	}
}

function shown(bytes: number | null | undefined): string {
	return bytes === null || bytes === undefined ? '?' : formatBytes(bytes);
}

export const storageUse = new StorageUse();
