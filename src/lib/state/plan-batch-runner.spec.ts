/**
 * A plan in batch mode as the Run page's worker runs it: one row per run with its round, files
 * mode's inputs kept per run and one import for every waiting run, and Stop cancelling every
 * run's provider batches out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PlanSpec } from '$lib/core/engine/plan';
import { DEFAULT_PROMPT_PACK } from '$lib/core/prompts';
import { DEFAULT_SETTINGS } from '$lib/core/records';
import { MemoryStore } from '$lib/core/store/memory-store';
import { simulatedScript } from '../../../tests/engine/simulated-script';
import { byTask } from '../../../tests/fake-openai/by-task';
import { startFakeOpenAI, type FakeOpenAI } from '../../../tests/fake-openai/server';
import { makeDataset } from '../../../tests/fixtures/engine/cases';
import { answerRound } from '../../../tests/unit/batch/round-files';
import { PlanBatchRunner, type PlanBatchInput } from './plan-batch-runner';
import type { PlanBatchView } from './plan-batch-view';

const servers: FakeOpenAI[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(delayMs?: number) {
	const server = await startFakeOpenAI({
		handler: byTask(simulatedScript),
		...(delayMs ? { batch: { delayMs } } : {})
	});
	servers.push(server);
	return server;
}

/** 2 models × 2 repetitions at `baseURL`. */
function input(baseURL: string, batch: PlanBatchInput['batch']): PlanBatchInput {
	const role = (model: string) => ({ model, endpoint: baseURL });
	const spec: PlanSpec = {
		runId: 'p',
		repetitions: 2,
		models: [{ evaluated: role('m-a') }, { evaluated: role('m-b') }],
		user: role('u'),
		judge: role('j')
	};
	const client = (model: string) => ({
		evaluated: { model, baseURL, apiKey: '' },
		user: { model: 'u', baseURL, apiKey: '' },
		judge: { model: 'j', baseURL, apiKey: '' }
	});
	return {
		spec,
		dataset: makeDataset(2),
		limit: null,
		stages: ['gen'],
		settings: { ...DEFAULT_SETTINGS },
		concurrency: 4,
		pack: DEFAULT_PROMPT_PACK,
		clients: [client('m-a'), client('m-b')],
		keys: [],
		batch
	};
}

describe('a plan in batch mode on the Run page', () => {
	it('files: every run waits with its own inputs; one import answers them all, to the end', async () => {
		const cluster = await serve();
		const store = new MemoryStore();
		const runner = new PlanBatchRunner();
		const plan = input(cluster.baseURL, 'files');
		let imports = 0;
		for (;;) {
			const views: PlanBatchView[] = [];
			const end = await runner.run(plan, store, new AbortController().signal, (v) => views.push(v));
			expect(end.rows.map((r) => r.run.runId)).toEqual(['p1', 'p2', 'p1', 'p2']);
			expect(views.at(-1)).toEqual(end);
			if (end.status === 'done') break;
			expect(end.status).toBe('waiting');
			expect(end.rows.every((r) => r.status === 'waiting' && r.batch?.inputs.length)).toBe(true);
			const lines = end.rows.flatMap((r) =>
				r.batch!.inputs.flatMap((f) => runner.input(r.run, f.name)!.split('\n').filter(Boolean))
			);
			const got = await runner.importOutputs([
				{ name: 'all.jsonl', text: await answerRound(cluster, lines) }
			]);
			expect(got).toHaveLength(4);
			imports++;
		}
		expect(imports).toBeGreaterThanOrEqual(2);
	});

	it('provider: Stop cancels every run’s batches out and marks their rounds cancelled', async () => {
		const provider = await serve(60_000);
		const store = new MemoryStore();
		const runner = new PlanBatchRunner();
		const abort = new AbortController();
		const end = await runner.run(input(provider.baseURL, 'provider'), store, abort.signal, (v) => {
			const made = (r: (typeof v.rows)[number]) =>
				r.batch?.round.status === 'submitted' &&
				r.batch.round.files.length > 0 &&
				r.batch.round.files.every((f) => f.batch_id);
			if (v.rows.every(made)) abort.abort();
		});
		expect(end.status).toBe('aborted');
		expect(end.rows.every((r) => r.status === 'aborted')).toBe(true);
		expect(end.rows.every((r) => r.batch?.round.status === 'cancelled')).toBe(true);
		const batches = [...provider.batches.batches.values()];
		expect(batches.length).toBeGreaterThanOrEqual(4);
		expect(batches.every((b) => b.status === 'cancelled')).toBe(true);
	});
});
