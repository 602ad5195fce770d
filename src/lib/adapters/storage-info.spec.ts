import { describe, expect, it, vi } from 'vitest';
import { estimateStorage } from './storage-info';

function fakeStorage(overrides: Partial<Record<keyof StorageManager, unknown>> = {}) {
	return {
		estimate: vi.fn(async () => ({ usage: 1_500_000, quota: 60_000_000 })),
		persisted: vi.fn(async () => false),
		persist: vi.fn(async () => true),
		...overrides
	} as unknown as StorageManager &
		Record<'estimate' | 'persisted' | 'persist', ReturnType<typeof vi.fn>>;
}

describe('estimateStorage', () => {
	it('reports usage, quota and persistence without asking for persistence', async () => {
		const storage = fakeStorage();
		expect(await estimateStorage({ storage })).toEqual({
			usage: 1_500_000,
			quota: 60_000_000,
			persisted: false
		});
		expect(storage.persist).not.toHaveBeenCalled();
	});

	it('asks the browser to keep the data only when told to', async () => {
		const storage = fakeStorage();
		expect((await estimateStorage({ storage, requestPersist: true }))?.persisted).toBe(true);
		expect(storage.persist).toHaveBeenCalledOnce();
	});

	it.each([
		['no storage manager', null],
		[
			'a storage manager without estimate',
			{ persisted: async () => true } as unknown as StorageManager
		],
		[
			'an estimate that fails',
			fakeStorage({ estimate: async () => Promise.reject(new Error('denied')) })
		]
	])('returns null with %s', async (_, storage) => {
		expect(await estimateStorage({ storage })).toBeNull();
	});

	it('still reports the estimate when persistence cannot be queried', async () => {
		const storage = fakeStorage({ persisted: undefined, estimate: async () => ({ usage: 10 }) });
		expect(await estimateStorage({ storage })).toEqual({ usage: 10, quota: null, persisted: null });
	});
});
