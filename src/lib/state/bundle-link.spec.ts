import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { makeDataset } from '../../../tests/fixtures/engine/cases';
import { writeRuns } from '../../../tests/fixtures/bundles/runs';
import { closeTestStores, openTestStore } from '../../../tests/support/idb';
import { readRunsFiles } from '$lib/adapters/idb-layout-source';
import { zipBundle } from '$lib/adapters/zip-bundle';
import type { IdbStore } from '$lib/adapters/idb-store';
import { BundleLinkState } from './bundle-link.svelte';
import { ResultsState } from './results.svelte';

afterEach(closeTestStores);

/** A zip of two runs, served by a fake fetch that records each method. */
async function setup() {
	const source = await openTestStore();
	await writeRuns(source, makeDataset(3), [{ runId: 'run1' }, { runId: 'run2' }]);
	const zip = await zipBundle(await readRunsFiles(source, await source.listRuns()));
	const methods: string[] = [];
	const fetchImpl = (async (_url: string, init: RequestInit) => {
		methods.push(init.method ?? 'GET');
		return new Response(
			init.method === 'HEAD' ? null : new Blob([zip as Uint8Array<ArrayBuffer>]),
			{
				headers: { 'content-length': String(zip.length) }
			}
		);
	}) as unknown as typeof fetch;
	const target = await openTestStore();
	let opened = 0;
	const openStore = async (): Promise<IdbStore> => {
		opened++;
		return target;
	};
	const results = new ResultsState({ openStore });
	const link = new BundleLinkState({ results, fetchImpl, openStore });
	return { zip, methods, target, results, link, opened: () => opened };
}

describe('a bundle opened from a link', () => {
	it('asks after a HEAD, shows the runs without opening storage, and imports them on request', async () => {
		const { zip, methods, target, results, link, opened } = await setup();
		await link.begin('https://example.org/dl/runs.zip');
		expect(link.phase).toBe('confirm');
		expect(link.size).toBe(zip.length);
		expect(link.link?.host).toBe('example.org');
		expect(methods).toEqual(['HEAD']);

		await link.open();
		expect(link.phase).toBe('open');
		expect(methods).toEqual(['HEAD', 'GET']);
		expect(results.report?.runs.map((r) => r.run_id)).toEqual(['run1', 'run2']);
		expect(opened()).toBe(0);
		expect(await target.listRuns()).toEqual([]);

		await link.import();
		expect(link.phase).toBe('imported');
		expect(link.imported).toEqual({ count: 2, name: 'runs.zip' });
		expect((await target.listRuns()).map((r) => r.runId)).toEqual(['run1', 'run2']);
		expect(results.bundle).toBeNull();
		expect(results.report?.runs.map((r) => r.run_id)).toEqual(['run1', 'run2']);
	});

	it('asks before replacing stored runs, and replaces them only when told', async () => {
		const { target, link } = await setup();
		await writeRuns(target, makeDataset(2), [{ runId: 'run1' }]);
		await link.begin('https://example.org/runs.zip');
		await link.open();
		await link.import();
		expect(link.phase).toBe('conflict');
		expect(link.conflicts.map((r) => r.runId)).toEqual(['run1']);
		expect((await target.listRuns()).map((r) => r.runId)).toEqual(['run1']);
		await link.import(true);
		expect(link.phase).toBe('imported');
		expect((await target.listRuns()).map((r) => r.runId)).toEqual(['run1', 'run2']);
	});

	it('refuses a link that is not http(s) without fetching, and shows the stored runs', async () => {
		const { methods, link, results } = await setup();
		await link.begin('file:///etc/passwd');
		expect(link.phase).toBe('failed');
		expect(link.problem).toEqual({ kind: 'link', refusal: 'not-http' });
		expect(methods).toEqual([]);
		await expect.poll(() => results.status).toBe('ready');
	});

	it('fetches nothing more when the user declines', async () => {
		const { methods, link, results } = await setup();
		await link.begin('https://example.org/runs.zip');
		link.cancel();
		expect(link.phase).toBe('idle');
		await link.open();
		expect(methods).toEqual(['HEAD']);
		await expect.poll(() => results.status).toBe('ready');
	});

	it('asks the host the user was shown for the bytes, following no redirect, reading no more than agreed', async () => {
		const { zip, results } = await setup();
		const calls: { url: string; init: RequestInit }[] = [];
		const fetchImpl = (async (url: string, init: RequestInit) => {
			calls.push({ url, init });
			if (init.method === 'HEAD') {
				const head = new Response(null, { headers: { 'content-length': '100' } });
				Object.defineProperty(head, 'url', { value: 'https://cdn.example.net/runs.zip' });
				return head;
			}
			return new Response(new Blob([zip as Uint8Array<ArrayBuffer>]));
		}) as unknown as typeof fetch;
		const link = new BundleLinkState({ results, fetchImpl });
		await link.begin('https://example.org/runs.zip');
		expect(link.phase).toBe('confirm');
		expect(link.redirectedTo).toBe('cdn.example.net');
		await link.open();
		expect(calls.map((c) => [c.init.method, c.url, c.init.redirect])).toEqual([
			['HEAD', 'https://example.org/runs.zip', 'follow'],
			['GET', 'https://cdn.example.net/runs.zip', 'manual']
		]);
		// The HEAD said 100 bytes: the zip, larger, is cut there and not opened.
		expect(link.phase).toBe('failed');
		expect(link.problem).toEqual({ kind: 'fetch', failure: { kind: 'over-agreed', agreed: 100 } });
		await expect.poll(() => results.status).toBe('ready');
	});
});
