/**
 * PROTOCOL.md §5/§6 `case_number` rule, held by every store (memory, IndexedDB, files): a case number
 * keeps its JSON type in every record and the manifest; readers compare it as a string, so `1001`
 * and `"1001"` are one case, and a run saved with string case numbers (as this tool wrote them
 * before) still resumes from a dataset that holds integers.
 */
import { describe, expect } from 'vitest';
import { CheckpointError } from '../../src/lib/core/errors';
import { STAGE_FILE_NAMES, type AnyRecord } from '../../src/lib/core/records';
import { makeA1, makeDcg, makeManifest } from '../support/record-factories';
import { recordIdentity } from '../../src/lib/core/store/identity';
import type { CheckpointStore } from '../../src/lib/core/store/types';
import { makeDataset } from '../fixtures/engine/cases';
import { run, runKey } from './engine/harness';
import { ScriptedClient } from './engine/scripted-client';
import { testAllStorage } from './store-contract';

const key = { runId: 'run1', modelDir: 'gpt-x-4e02b150' };

/** Three cases whose case numbers are the integers 1001..1003, or (old form) their strings. */
function dataset(form: 'integer' | 'string') {
	return makeDataset(3, (kase) => {
		const n = 1001 + kase.index;
		return {
			...kase,
			case_number: String(n),
			case_number_value: form === 'integer' ? n : String(n)
		};
	});
}

async function everyRecord(store: CheckpointStore): Promise<[string, AnyRecord[]][]> {
	const at = await runKey();
	return Promise.all(
		STAGE_FILE_NAMES.map(async (file) => [file, await store.readRecords(at, file)] as const)
	).then((all) => all.filter(([, records]) => records.length > 0) as [string, AnyRecord[]][]);
}

describe('case_number keeps its JSON type in every store', () => {
	testAllStorage('an integer case_number reads back an integer, record and manifest', async (h) => {
		const manifest = makeManifest(key);
		manifest.dataset.selected_case_numbers = [1001, '1002', 1003];
		await h.store.createManifest(manifest);
		await h.store.appendRecord(key, 'a1', makeA1(1001, 'complete'));
		await h.store.appendRecord(key, 'DCG_results', makeDcg('1002'));
		for (const store of [h.store, await h.reopen()]) {
			expect((await store.readManifest(key))!.dataset.selected_case_numbers).toEqual([
				1001,
				'1002',
				1003
			]);
			expect((await store.readRecords(key, 'a1'))[0].case_number).toBe(1001);
			expect((await store.readRecords(key, 'DCG_results'))[0].case_number).toBe('1002');
			expect((await store.readHeads!(key, 'a1'))[0].record.case_number).toBe(1001);
		}
	});

	testAllStorage('1001 and "1001" are one case: the second is refused', async (h) => {
		await h.store.appendRecord(key, 'DCG_results', makeDcg(1001));
		await expect(h.store.appendRecord(key, 'DCG_results', makeDcg('1001'))).rejects.toThrow(
			CheckpointError
		);
		await expect(h.store.appendRecord(key, 'DCG_results', makeDcg('1001'))).rejects.toThrow(
			/case_number 1001 is saved already/
		);
		// Identities compare as strings, so dataset order built from either form orders them.
		await h.store.appendRecord(key, 'DCG_results', makeDcg('1000'));
		const order = ['1000', 1001].map((c) => recordIdentity('DCG_results', { case_number: c }));
		await h.store.finalizeStageFile!(key, 'DCG_results', order);
		expect((await h.store.readRecords(key, 'DCG_results')).map((r) => r.case_number)).toEqual([
			'1000',
			1001
		]);
	});

	testAllStorage('a run over integer case numbers writes integers everywhere', async (h) => {
		await run(new ScriptedClient(), h.store, { dataset: dataset('integer') });
		const manifest = await h.store.readManifest(await runKey());
		expect(manifest!.dataset.selected_case_numbers).toEqual([1001, 1002, 1003]);
		const files = await everyRecord(await h.reopen());
		expect(files.map(([file]) => file).sort()).toEqual([...STAGE_FILE_NAMES].sort());
		for (const [file, records] of files) {
			for (const record of records) expect(typeof record.case_number, file).toBe('number');
		}
	});

	testAllStorage(
		'a run saved with string case numbers resumes from integers without a call',
		async (h) => {
			await run(new ScriptedClient(), h.store, { dataset: dataset('string') });
			const before = await everyRecord(h.store);
			const again = new ScriptedClient();
			const result = await run(again, await h.reopen(), { dataset: dataset('integer') });
			expect(again.requests).toHaveLength(0);
			expect(result.stages.every((s) => s.generated === 0)).toBe(true);
			// Nothing rewritten: the saved run keeps its string case numbers.
			expect(await everyRecord(h.store)).toEqual(before);
			expect(result.manifest.dataset.selected_case_numbers).toEqual(['1001', '1002', '1003']);
		}
	);
});
