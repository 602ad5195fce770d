/**
 * Issue 14, item 3 (and the bundle title of item 10): the zip importer reads the central
 * directory entry by entry, so two entries with one name and reserved names such as
 * `__proto__` are refused by name instead of collapsing silently; a bundle's title counts
 * every problem, not only the ones listed.
 */
import { strToU8, Zip, ZipPassThrough, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import {
	BundleError,
	readBundle,
	readZipBundle,
	zipBundle
} from '../../../src/lib/adapters/zip-bundle';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { writeRuns } from '../../fixtures/bundles/runs';
import { makeDataset } from '../../fixtures/engine/cases';

let files: Map<string, string>;

beforeAll(async () => {
	const store = new MemoryStore();
	await writeRuns(store, makeDataset(2), [{ runId: 'run1', stages: ['gen'] }]);
	files = store.toFiles();
});

/** A zip of `entries` in this order, duplicates kept (zipSync takes an object, so cannot). */
function zipOf(entries: Array<[string, string]>): Uint8Array {
	const chunks: Uint8Array[] = [];
	const zip = new Zip((error, data) => {
		if (error) throw error;
		chunks.push(data);
	});
	for (const [name, text] of entries) {
		const entry = new ZipPassThrough(name);
		zip.add(entry);
		entry.push(strToU8(text), true);
	}
	zip.end();
	const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
	let at = 0;
	for (const c of chunks) out.set(c, (at += c.length) - c.length);
	return out;
}

async function refusal(promise: Promise<unknown>): Promise<BundleError> {
	const error = await promise.then(
		() => null,
		(e: unknown) => e
	);
	expect(error).toBeInstanceOf(BundleError);
	return error as BundleError;
}

describe('zip entries are read one by one', () => {
	it('refuses a garbage copy and a real copy of the same file, naming it', async () => {
		const [manifestPath, manifest] = [...files].find(([p]) => p.endsWith('manifest.json'))!;
		const entries = [...files];
		entries.unshift([manifestPath, '{"garbage": true}']);
		const error = await refusal(readZipBundle(zipOf(entries), 'dup.zip'));
		expect(error.problems).toEqual([
			expect.stringMatching(
				new RegExp(
					`^${manifestPath.replace(/[.]/g, '\\.')}: appears twice in the archive \\(entries 1 and \\d+\\)`
				)
			)
		]);
		// The same files without the garbage copy import.
		expect(manifest).toContain('"run_id"');
		expect((await readZipBundle(zipOf([...files]), 'ok.zip')).runs).toHaveLength(1);
	});

	it('refuses an entry named __proto__ (and other reserved names), saying which', async () => {
		const error = await refusal(
			readZipBundle(
				zipOf([...files, ['__proto__', '{}'], ['runs/constructor/x/manifest.json', '{}']]),
				'proto.zip'
			)
		);
		expect(error.problems).toEqual([
			expect.stringContaining('__proto__: "__proto__" is a reserved name'),
			expect.stringContaining('runs/constructor/x/manifest.json: "constructor" is a reserved name')
		]);
	});

	it('refuses reserved names in a folder import too', async () => {
		const error = await refusal(
			readBundle(
				[
					...[...files].map(([path, text]) => ({ path, bytes: strToU8(text) })),
					{ path: 'prototype', bytes: strToU8('x') }
				],
				'folder'
			)
		);
		expect(error.problems).toEqual([
			expect.stringContaining('prototype: "prototype" is a reserved name')
		]);
	});

	it('still round-trips a bundle it wrote', async () => {
		const bundle = await readZipBundle(await zipBundle(files), 'runs.zip');
		expect(bundle.runs).toHaveLength(1);
	});
});

describe("a bundle's title counts every problem", () => {
	it('1,000 stray entries in a zip: "1000 problems", 40 listed and the rest summarised', async () => {
		const stray = Object.fromEntries(
			Array.from({ length: 1000 }, (_, i) => [`stray/${i}.txt`, strToU8('x')])
		);
		const error = await refusal(readZipBundle(zipSync(stray), 'many.zip'));
		expect(error.message).toMatch(/^many\.zip cannot be imported \(1000 problems\):/);
		expect(error.total).toBe(1000);
		expect(error.problems).toHaveLength(41);
		expect(error.problems[40]).toMatch(/960 more/);
	});

	it('100,000 entries of a folder: "100000 problems"', async () => {
		const entries = Array.from({ length: 100_000 }, (_, i) => ({
			path: `stray/${i}.txt`,
			bytes: new Uint8Array(1)
		}));
		const error = await refusal(readBundle(entries, 'big'));
		expect(error.message).toMatch(/^big cannot be imported \(100000 problems\):/);
	});
});
