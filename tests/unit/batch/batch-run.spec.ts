/**
 * Batch mode writes what the interactive run writes: the same records and manifest (apart from
 * `mode`), the same call log apart from timing and sessions, when both get the same answers
 * from the deterministic fake provider.
 */
import { describe, expect, it } from 'vitest';
import { providerSender } from '../../../src/lib/core/batch/provider';
import { runBatch } from '../../../src/lib/core/batch/rounds';
import { modelDirName } from '../../../src/lib/core/layout';
import { runAll } from '../../../src/lib/core/engine/run-all';
import { createOpenAIClient } from '../../../src/lib/core/model/openai-client';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { simulatedScript } from '../../engine/simulated-script';
import { byTask } from '../../fake-openai/by-task';
import { makeDataset } from '../../fixtures/engine/cases';
import { MODELS } from '../engine/harness';
import {
	callsLessTiming,
	comparableRecords,
	expectEachSentOnce,
	sendTo,
	serveBatch as serve
} from './batch-compare';

const dataset = makeDataset(5);
const endpointsOf = (baseURL: string) => ({ evaluated: baseURL, user: baseURL, judge: baseURL });

describe('batch mode against the deterministic fake provider', () => {
	it('writes the records, manifest and call log of the interactive run', async () => {
		const handler = byTask(simulatedScript);
		const live = await serve(handler);
		const interactive = new MemoryStore();
		const common = { dataset, runId: 'r1', models: MODELS };
		const client = createOpenAIClient(
			Object.fromEntries(
				Object.entries(MODELS).map(([role, model]) => [
					role,
					{ baseURL: live.baseURL, apiKey: '', model }
				])
			) as never
		);
		await runAll({ ...common, client, store: interactive, endpoints: endpointsOf(live.baseURL) });

		const provider = await serve(handler);
		const batch = new MemoryStore();
		const sizes: number[] = [];
		const out = await runBatch(
			{ ...common, store: batch, endpoints: endpointsOf(live.baseURL) },
			sendTo(provider, sizes)
		);
		if (!out.done) throw new Error('not done');
		const { rounds } = out;
		expect(out.longestChain).toBe(rounds);

		expect(comparableRecords(batch)).toEqual(comparableRecords(interactive));
		const manifest = [...batch.toFiles()].find(([p]) => p.endsWith('manifest.json'))![1];
		expect(JSON.parse(manifest).mode).toBe('batch');
		expect(callsLessTiming(batch)).toEqual(callsLessTiming(interactive));
		expect(callsLessTiming(batch).length).toBeGreaterThan(dataset.cases.length * 5);
		// Every request was asked once: as many as the interactive run made.
		expect(sizes.reduce((a, b) => a + b, 0)).toBe(live.chatRequests.length);
		expect(rounds).toBe(sizes.length);
		expect(rounds).toBeGreaterThan(2);
	});

	it('provider mode: every round through /v1/files and /v1/batches, each request sent once', async () => {
		const handler = byTask(simulatedScript);
		const live = await serve(handler);
		const interactive = new MemoryStore();
		const common = { dataset, runId: 'r1', models: MODELS };
		const ep = (model: string) => ({ baseURL: live.baseURL, apiKey: 'sk-batch-0123456789', model });
		const roles = {
			evaluated: ep(MODELS.evaluated),
			user: ep(MODELS.user),
			judge: ep(MODELS.judge)
		};
		await runAll({
			...common,
			client: createOpenAIClient(roles),
			store: interactive,
			endpoints: endpointsOf(live.baseURL)
		});

		const provider = await serve(handler);
		const batch = new MemoryStore();
		const run = { runId: 'r1', modelDir: await modelDirName(MODELS.evaluated) };
		const proles = {
			evaluated: { ...roles.evaluated, baseURL: provider.baseURL },
			user: { ...roles.user, baseURL: provider.baseURL },
			judge: { ...roles.judge, baseURL: provider.baseURL }
		};
		const out = await runBatch(
			{ ...common, store: batch, endpoints: endpointsOf(live.baseURL) },
			providerSender({ run, endpoints: proles, pollMs: 5, maxPollMs: 20 })
		);
		const rounds = out.rounds;
		expect(comparableRecords(batch)).toEqual(comparableRecords(interactive));
		expect(callsLessTiming(batch)).toEqual(callsLessTiming(interactive));
		expectEachSentOnce(provider, live.chatRequests.length);
		expect(provider.chatRequests).toHaveLength(0);
		// One batch per model and endpoint in each round.
		expect(provider.batches.batches.size).toBeGreaterThan(rounds);
		expect(provider.batches.batches.size).toBeLessThanOrEqual(3 * rounds);
	});
});
