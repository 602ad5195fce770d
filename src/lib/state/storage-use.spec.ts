import { describe, expect, it } from 'vitest';
import type { StorageInfo } from '$lib/adapters/storage-info';
import { StorageUse } from './storage-use.svelte';

describe('StorageUse', () => {
	it('is one figure: what the browser said last, whichever page asked, in one format', async () => {
		const answers: Array<StorageInfo | null> = [
			{ usage: 2_400_000, quota: 10 * 1024 ** 3, persisted: false },
			{ usage: 7_900_000, quota: 10 * 1024 ** 3, persisted: true }
		];
		const asked: boolean[] = [];
		const storage = new StorageUse(async (options) => {
			asked.push(options?.requestPersist ?? false);
			return answers.shift() ?? null;
		});
		// The Run page asks (with persistence, once a run starts)...
		await storage.refresh({ requestPersist: true });
		expect([storage.used, storage.quota]).toEqual(['2.3 MB', '10 GB']);
		// ...then the Bundles page: both read the new figure from here on.
		await storage.refresh();
		expect([storage.used, storage.quota, storage.info?.persisted]).toEqual([
			'7.5 MB',
			'10 GB',
			true
		]);
		expect(asked).toEqual([true, false]);
	});

	it('writes ? for what the browser does not say', async () => {
		const storage = new StorageUse(async () => ({ usage: null, quota: 5000, persisted: null }));
		await storage.refresh();
		expect([storage.used, storage.quota]).toEqual(['?', '4.9 KB']);
	});
});
