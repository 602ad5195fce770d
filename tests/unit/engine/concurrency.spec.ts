/** The case pool: bounded concurrency, dataset order on disk, progress snapshots. */
import { describe, expect, it } from 'vitest';
import type { StageProgress } from '../../../src/lib/core/engine/types';
import type { AnyRecord } from '../../../src/lib/core/records';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { makeDataset } from '../../fixtures/engine/cases';
import { records, run } from './harness';
import { outage, ScriptedClient } from './scripted-client';

const dataset = makeDataset(6);
const numbers = dataset.cases.map((c) => c.case_number);

describe('concurrency', () => {
	it.each([1, 2, 4])('works on at most %i case(s) at once', async (concurrency) => {
		const client = new ScriptedClient();
		client.delay = () => 3;
		await run(client, new MemoryStore(), { dataset, stages: ['ljp-gold'], concurrency });
		expect(client.maxInFlight).toBe(concurrency);
	});

	it('saves in completion order but leaves each file in dataset order', async () => {
		const appended: string[] = [];
		const store = new MemoryStore();
		const append = store.appendRecord.bind(store);
		store.appendRecord = async (key, file, record: AnyRecord) => {
			if (file === 'DCG_results') appended.push(String(record.case_number));
			return append(key, file, record);
		};
		const client = new ScriptedClient();
		// Earlier cases answer more slowly, so later cases finish first.
		client.delay = (req) => (6 - numbers.indexOf(req.caseNumber)) * 4;
		await run(client, store, { dataset, stages: ['dcg'], concurrency: 6 });
		expect(appended).not.toEqual(numbers);
		expect((await records(store, 'DCG_results')).map((r) => r.case_number)).toEqual(numbers);
		expect((await records(store, 'force_ask')).map((r) => r.case_number)).toEqual(numbers);
	});
});

describe('progress', () => {
	it('reports done/total, calls and tokens by role, then done', async () => {
		const seen: StageProgress[] = [];
		await run(new ScriptedClient(), new MemoryStore(), {
			dataset,
			stages: ['ljp-direct'],
			onProgress: (p) => seen.push(p)
		});
		const last = seen.at(-1)!;
		expect(last).toMatchObject({
			stage: 'ljp-direct',
			status: 'done',
			total: 6,
			done: 6,
			inFlight: 0
		});
		expect(last.calls).toEqual({ evaluated: 6, user: 0, judge: 6 });
		expect(last.tokens.evaluated).toEqual({ prompt: 60, completion: 30 });
		const dones = seen.map((p) => p.done);
		expect(dones).toEqual([...dones].sort((a, b) => a - b));
		expect(Math.max(...seen.map((p) => p.inFlight))).toBeLessThanOrEqual(4);
	});

	it('counts resumed cases as done without calls', async () => {
		const store = new MemoryStore();
		await run(new ScriptedClient(), store, { dataset, stages: ['ljp-direct'] });
		const seen: StageProgress[] = [];
		await run(new ScriptedClient(), store, {
			dataset,
			stages: ['ljp-direct'],
			onProgress: (p) => seen.push(p)
		});
		expect(seen.at(-1)).toMatchObject({
			status: 'done',
			done: 6,
			resumed: 6,
			calls: { evaluated: 0, user: 0, judge: 0 }
		});
	});

	it('reports the failure and the error', async () => {
		const seen: StageProgress[] = [];
		const client = new ScriptedClient((req) =>
			req.caseNumber === numbers[0] ? outage(req) : undefined
		);
		await run(client, new MemoryStore(), {
			dataset,
			stages: ['ljp-direct'],
			concurrency: 1,
			onProgress: (p) => seen.push(p)
		}).catch(() => {});
		expect(seen.at(-1)).toMatchObject({ status: 'failed', failures: 1, done: 0 });
		expect(seen.at(-1)!.error).toContain(`case_number ${numbers[0]}`);
	});
});
