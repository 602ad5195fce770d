/**
 * A plan's import in files mode when the runs' outputs come back at different times (each model
 * on its own node): an import with the lines of some runs alone answers those runs and leaves the
 * others waiting, untouched; a run the files answer in part is refused as before (unless
 * `allowMissing`), saving nothing.
 */
import { describe, expect, it } from 'vitest';
import { filesSender } from '../../../src/lib/core/batch/files-sender';
import { importPlanBatchOutputs, outputText } from '../../../src/lib/core/batch/import';
import { modelDirName } from '../../../src/lib/core/layout';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { makeDataset } from '../../fixtures/engine/cases';
import { MODELS } from '../engine/harness';
import { endpoints, fakeServers } from './fake-servers';
import { answerRound, memoryFiles } from './round-files';
import { batchSession } from './batch-session';

const dataset = makeDataset(3);
const serve = fakeServers();

/** A plan of two runs with round 1 written, and each run's answered output text. */
async function planWaiting() {
	const cluster = await serve();
	const store = new MemoryStore();
	const options = ['run1', 'run2'].map((runId) => ({
		dataset,
		runId,
		models: MODELS,
		store,
		endpoints
	}));
	const folders = options.map(() => memoryFiles());
	await batchSession(options.map((o, i) => ({ options: o, sender: filesSender(folders[i].open) })));
	const outputs = await Promise.all(
		folders.map((f) => answerRound(cluster, [...f.files.values()].flat()))
	);
	const key = async (runId: string) => ({ runId, modelDir: await modelDirName(MODELS.evaluated) });
	const state = async (runId: string) => store.readBatchState(await key(runId));
	return { store, options, outputs, state };
}

describe("a plan's import of some runs' outputs", () => {
	it('answers the runs it has lines of; the others stay waiting, untouched', async () => {
		const { options, outputs, state } = await planWaiting();
		const before = await state('run2');
		const got = await importPlanBatchOutputs(options, [
			outputText('run1.output.jsonl', outputs[0])
		]);
		expect(got.map((g) => [g.run.runId, g.missing])).toEqual([['run1', 0]]);
		expect((await state('run1'))?.rounds.at(-1)?.status).toBe('answered');
		expect(await state('run2')).toEqual(before);
		const later = await importPlanBatchOutputs(options, [
			outputText('run2.output.jsonl', outputs[1])
		]);
		expect(later.map((g) => [g.run.runId, g.answers > 0])).toEqual([['run2', true]]);
	});

	it('refuses a run the files answer in part, saving nothing', async () => {
		const { store, options, outputs } = await planWaiting();
		const half = outputs[0].split('\n').filter(Boolean);
		const text = `${half.slice(0, 3).join('\n')}\n${outputs[1]}`;
		const before = store.toFiles();
		await expect(
			importPlanBatchOutputs(options, [outputText('part.output.jsonl', text)])
		).rejects.toThrow(/unanswered|answer/);
		expect(store.toFiles()).toEqual(before);
	});
});
