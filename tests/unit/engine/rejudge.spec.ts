/**
 * `rejudgeRun`: a finished run re-judged into a new run id. Only judge calls are made (one per
 * judged decision), generation records are copies of the source's, the manifest names the
 * source, and the new run resumes and refuses like any run.
 */
import { describe, expect, it } from 'vitest';
import { rejudgeRun, type RejudgeOptions } from '../../../src/lib/core/engine/rejudge/rejudge';
import { CheckpointError, UsageError } from '../../../src/lib/core/errors';
import { stageFilePath } from '../../../src/lib/core/layout';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { makeDataset } from '../../fixtures/engine/cases';
import { contraryJudgment } from '../../engine/contrary-judge-script';
import { records, run, runKey } from './harness';
import { outage, ScriptedClient } from './scripted-client';

const dataset = makeDataset(4);
const contrary = () => new ScriptedClient((r) => contraryJudgment(r.prompt) ?? undefined);

async function finishedSource(): Promise<MemoryStore> {
	const store = new MemoryStore();
	await run(new ScriptedClient(), store, { dataset });
	return store;
}

async function rejudge(
	store: MemoryStore,
	client: ScriptedClient,
	extra: Partial<RejudgeOptions> = {}
) {
	return rejudgeRun({
		dataset,
		client,
		store,
		source: await runKey('r1'),
		runId: 'r1-j2',
		judge: { model: 'judge-2', endpoint: 'http://judge2.test/v1' },
		...extra
	});
}

describe('rejudgeRun', () => {
	it('makes only judge calls, one per judged decision, and keeps the generation records', async () => {
		const store = await finishedSource();
		const client = contrary();
		const result = await rejudge(store, client);
		expect(client.requests.every((r) => r.role === 'judge')).toBe(true);
		// LCA: 2 per case; DCG: 2 questions per case; LJP: one extraction per case and stage.
		expect(client.requests).toHaveLength(4 * (2 + 2 + 3));
		for (const file of ['a1', 'interaction', 'force_ask', 'a1_direct', 'a1_force_judge'] as const) {
			expect(await records(store, file, 'r1-j2')).toEqual(await records(store, file, 'r1'));
		}
		const dcg = await records(store, 'DCG_results', 'r1-j2');
		expect(dcg.every((r) => r.success === false)).toBe(true);
		const ljp = await records(store, 'LJP_gold', 'r1-j2');
		expect(ljp.every((r) => r.predicted.every((v) => v === '驳回'))).toBe(true);
		const [before, after] = [
			await records(store, 'LCA_results'),
			await records(store, 'LCA_results', 'r1-j2')
		];
		expect(after.map((r) => r.label)).toEqual(
			before.map((r) => (r.label === 'clarification' ? 'judgment' : 'clarification'))
		);
		expect(result.manifest.models.judge).toBe('judge-2');
		expect(result.manifest.rejudged_from).toEqual({
			run_id: 'r1',
			model_dir: (await runKey()).modelDir,
			judge: 'judge-model',
			prompts_sha256: (await store.readManifest(await runKey()))!.prompts_sha256,
			stages: ['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction'],
			shared_files: ['a1', 'interaction', 'force_ask', 'a1_direct', 'a1_force_judge']
		});
	});

	it('resumes after a failure with the same files, and a second start makes no call', async () => {
		const store = await finishedSource();
		const failing = new ScriptedClient((r, seen) =>
			seen.length > 9 ? outage(r) : (contraryJudgment(r.prompt) ?? undefined)
		);
		await expect(rejudge(store, failing)).rejects.toThrow();
		await rejudge(store, contrary());
		const reference = await finishedSource();
		await rejudge(reference, contrary());
		const key = await runKey('r1-j2');
		for (const file of [
			'a1',
			'LCA_results',
			'interaction',
			'DCG_results',
			'LJP_interaction'
		] as const) {
			expect(await store.readRecords(key, file)).toEqual(await reference.readRecords(key, file));
		}
		const again = contrary();
		await rejudge(store, again);
		expect(again.requests).toHaveLength(0);
	});

	it('refuses another judge under the same new run id', async () => {
		const store = await finishedSource();
		await rejudge(store, contrary());
		const other = rejudge(store, contrary(), {
			judge: { model: 'judge-3', endpoint: 'http://judge2.test/v1' }
		});
		await expect(other).rejects.toThrow(CheckpointError);
		await expect(other).rejects.toThrow(/models\.judge/);
	});

	it('refuses the source run id, a missing source, and an unfinished one', async () => {
		const store = await finishedSource();
		await expect(rejudge(store, contrary(), { runId: 'r1' })).rejects.toThrow(UsageError);
		await expect(rejudge(store, contrary(), { source: await runKey('nope') })).rejects.toThrow(
			/no run "nope"/
		);
		const half = new MemoryStore();
		await run(new ScriptedClient(), half, { dataset, stages: ['dcg'] });
		const dcgOnly = await rejudge(half, contrary());
		expect(dcgOnly.stages.map((s) => s.stage)).toEqual(['dcg']);
		const partial = new MemoryStore();
		await expect(
			run(new ScriptedClient((r, seen) => (seen.length > 4 ? outage(r) : undefined)), partial, {
				dataset,
				stages: ['ljp-gold'],
				concurrency: 1
			})
		).rejects.toThrow();
		const file = stageFilePath(await runKey(), 'LJP_gold');
		await expect(rejudge(partial, contrary())).rejects.toThrow(new RegExp(`${file} holds 2 of 4`));
	});
});
