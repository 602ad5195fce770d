/** What MemoryStore adds to the contract (tests/unit/store-contract.spec.ts): its layout view. */
import { describe, expect, it } from 'vitest';
import { parseJsonl, toJsonLine } from '../jsonl';
import { manifestPath, stageFilePath } from '../layout';
import { A1Record } from '../records';
import { MemoryStore } from './memory-store';
import { makeA1, makeManifest } from '../../../../tests/support/record-factories';

const run = { runId: 'run1', modelDir: 'gpt-x-4e02b150' };

describe('MemoryStore files view', () => {
	it('holds the canonical layout: paths of PROTOCOL.md §5, one JSON line per record', async () => {
		const store = new MemoryStore();
		await store.createManifest(makeManifest(run));
		const records = [makeA1('2', 'underspecified'), makeA1('1', 'complete')];
		for (const r of records) await store.appendRecord(run, 'a1', r);
		const files = store.toFiles();
		expect([...files.keys()].sort()).toEqual([
			'AwN_gen/run1/gpt-x-4e02b150/a1.jsonl',
			'runs/run1/gpt-x-4e02b150/manifest.json'
		]);
		expect(files.get(stageFilePath(run, 'a1'))).toBe(records.map(toJsonLine).join(''));
		expect(JSON.parse(files.get(manifestPath(run))!)).toEqual(makeManifest(run));
	});

	it('reads back a store rebuilt from its files (export, then import)', async () => {
		const store = new MemoryStore();
		await store.createManifest(makeManifest(run));
		await store.appendRecord(run, 'a1', makeA1('1'));
		const copy = MemoryStore.fromFiles(store.toFiles());
		expect(await copy.listRuns()).toEqual([run]);
		expect(await copy.readRecords(run, 'a1')).toEqual([makeA1('1')]);
		await expect(copy.appendRecord(run, 'a1', makeA1('1'))).rejects.toThrow(/saved already/);
		await copy.appendRecord(run, 'a1', makeA1('2'));
		const text = copy.toFiles().get(stageFilePath(run, 'a1'))!;
		expect(parseJsonl(text, A1Record, 'a1.jsonl').map((r) => r.case_number)).toEqual(['1', '2']);
	});
});
