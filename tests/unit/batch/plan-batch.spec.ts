/**
 * A plan in batch mode: every run advances its own rounds at once (a session of batch runs), and one
 * import of output files answers the waiting rounds of every run, each line routed by its
 * custom_id; the records are those of the interactive runs.
 */
import { describe, expect, it } from 'vitest';
import { filesSender } from '../../../src/lib/core/batch/files-sender';
import { importPlanBatchOutputs, outputText } from '../../../src/lib/core/batch/import';
import { runAll } from '../../../src/lib/core/engine/run-all';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { makeDataset } from '../../fixtures/engine/cases';
import { MODELS } from '../engine/harness';
import { comparableRecords } from './batch-compare';
import { clientAt, endpoints, fakeServers } from './fake-servers';
import { answerRound, memoryFiles } from './round-files';
import { batchSession } from './batch-session';

const dataset = makeDataset(3);
const RUN_IDS = ['run1', 'run2'];
const serve = fakeServers();

describe('a plan in batch mode, files mode', () => {
	it('runs every run at once and imports one output file for all of them', async () => {
		const live = await serve();
		const expected = new MemoryStore();
		for (const runId of RUN_IDS) {
			const client = clientAt(live.baseURL);
			await runAll({ dataset, runId, models: MODELS, client, store: expected, endpoints });
		}

		const cluster = await serve();
		const store = new MemoryStore();
		const options = RUN_IDS.map((runId) => ({ dataset, runId, models: MODELS, store, endpoints }));
		let imports = 0;
		for (;;) {
			const folders = options.map(() => memoryFiles());
			const outcomes = await batchSession(
				options.map((o, i) => ({ options: o, sender: filesSender(folders[i].open) }))
			);
			expect(outcomes.map((o) => o.runId)).toEqual(RUN_IDS);
			for (const o of outcomes) if (o.status === 'failed') throw o.error;
			if (outcomes.every((o) => o.status === 'done')) break;
			// The cluster answers every run's files as one output file.
			const lines = folders.flatMap((f) => [...f.files.values()].flat());
			const text = await answerRound(cluster, lines);
			const got = await importPlanBatchOutputs(options, [outputText('all.output.jsonl', text)]);
			expect(got.map((g) => g.run.runId)).toEqual(RUN_IDS);
			expect(got.every((g) => g.missing === 0 && g.answers > 0)).toBe(true);
			imports++;
		}
		expect(imports).toBeGreaterThan(2);
		expect(comparableRecords(store)).toEqual(comparableRecords(expected));
	});

	it('refuses a line of a run outside the plan, saving nothing', async () => {
		const cluster = await serve();
		const store = new MemoryStore();
		const options = RUN_IDS.map((runId) => ({ dataset, runId, models: MODELS, store, endpoints }));
		const folders = options.map(() => memoryFiles());
		await batchSession(
			options.map((o, i) => ({ options: o, sender: filesSender(folders[i].open) }))
		);
		const lines = folders.flatMap((f) => [...f.files.values()].flat());
		const text = await answerRound(cluster, lines);
		const before = store.toFiles();
		// Only run1 is named: run2's lines belong to another run.
		await expect(
			importPlanBatchOutputs(options.slice(0, 1), [outputText('all.output.jsonl', text)])
		).rejects.toThrow(/all\.output\.jsonl, line \d+: .*another run/);
		expect(store.toFiles()).toEqual(before);
	});
});
