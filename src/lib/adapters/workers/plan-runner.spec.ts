/**
 * A plan as the Run page's worker runs it, through one session: in batch mode, one row per run
 * with its saved rounds, files mode's inputs kept per run and one import for every waiting run,
 * and Stop cancelling every run's provider batches out; interactive, the spending cap kept with
 * the plan (paused at the cap, opened again still paused with the spend continuing, a higher cap
 * runs it to the end).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PlanSpec } from '$lib/core/engine/plan';
import { saidOf } from '$lib/core/errors';
import { DEFAULT_PROMPT_PACK } from '$lib/core/prompts';
import { DEFAULT_SETTINGS } from '$lib/core/records';
import { MemoryStore } from '$lib/core/store/memory-store';
import { simulatedScript } from '../../../../tests/engine/simulated-script';
import { byTask } from '../../../../tests/fake-openai/by-task';
import { startFakeOpenAI, type FakeOpenAI } from '../../../../tests/fake-openai/server';
import { makeDataset } from '../../../../tests/fixtures/engine/cases';
import { answerRound } from '../../../../tests/unit/batch/round-files';
import type { SessionSnapshot } from '$lib/core/session';
import { PlanRunner, type PlanRequest } from './plan-runner';

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
function input(baseURL: string, batch?: PlanRequest['batch']): PlanRequest {
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
		planId: 'b'.repeat(64),
		simulated: false,
		spec,
		dataset: makeDataset(2),
		limit: null,
		stages: ['gen'],
		settings: { ...DEFAULT_SETTINGS },
		concurrency: 4,
		pack: DEFAULT_PROMPT_PACK,
		clients: [client('m-a'), client('m-b')],
		keys: [],
		...(batch ? { batch } : {})
	};
}

describe('a plan in batch mode on the Run page', () => {
	it('files: an upload with no plan run here is refused in a coded text the page says in its language', async () => {
		const refused = await new PlanRunner().importOutputs([]).catch((e: unknown) => e);
		expect(saidOf(refused)?.map((t) => t.code)).toEqual(['batch_no_plan_here']);
		expect((refused as Error).message).toBe('no plan in batch mode has run in this page');
	});

	it('files: every run waits with its own inputs; one import answers them all, to the end', async () => {
		const cluster = await serve();
		const store = new MemoryStore();
		const runner = new PlanRunner();
		const plan = input(cluster.baseURL, 'files');
		let imports = 0;
		for (;;) {
			const end = await runner.run(plan, store, () => {});
			const snapshot = end.snapshot!;
			expect(snapshot.runs.map((r) => r.runId)).toEqual(['p1', 'p2', 'p1', 'p2']);
			if (snapshot.status === 'done') break;
			expect(snapshot.status).toBe('waiting');
			expect(snapshot.runs.every((r) => r.status === 'waiting' && r.batch)).toBe(true);
			const inputs = end.inputs!;
			expect(inputs.every((files) => files && files.length > 0)).toBe(true);
			const lines = inputs.flatMap((files, i) =>
				files!.flatMap((f) => runner.input(i, f.name)!.split('\n').filter(Boolean))
			);
			const got = await runner.importOutputs([
				{ name: 'all.jsonl', file: new Blob([await answerRound(cluster, lines)]) }
			]);
			expect(got).toHaveLength(4);
			imports++;
		}
		expect(imports).toBeGreaterThanOrEqual(2);
	});

	it('provider: Stop cancels every run’s batches out and marks their rounds cancelled', async () => {
		const provider = await serve(60_000);
		const store = new MemoryStore();
		const runner = new PlanRunner();
		const end = await runner.run(input(provider.baseURL, 'provider'), store, (v) => {
			const made = (r: SessionSnapshot['runs'][number]) => {
				const round = r.batch?.rounds.at(-1);
				return (
					round?.status === 'submitted' &&
					round.files.length > 0 &&
					round.files.every((f) => f.batch_id)
				);
			};
			// Once: a stop's own snapshot (`stopping`) comes back through here.
			if (v.status === 'running' && v.runs.every(made)) runner.stop();
		});
		const snapshot = end.snapshot!;
		expect(snapshot.status).toBe('stopped');
		expect(snapshot.runs.every((r) => r.status === 'stopped')).toBe(true);
		expect(snapshot.runs.every((r) => r.batch?.rounds.at(-1)?.status === 'cancelled')).toBe(true);
		const batches = [...provider.batches.batches.values()];
		expect(batches.length).toBeGreaterThanOrEqual(4);
		expect(batches.every((b) => b.status === 'cancelled')).toBe(true);
	});

	it('interactive: paused at the cap; started again, still paused at that cap with the spend continuing; a higher cap runs it to the end', async () => {
		// Calls that take a while, so the cap passes with most cases still to do.
		const answer = byTask(simulatedScript);
		const server = await startFakeOpenAI({
			handler: async (request) => ({ ...(await answer(request)), delayMs: 20 })
		});
		servers.push(server);
		const store = new MemoryStore();
		const plan = {
			...input(server.baseURL),
			dataset: makeDataset(12),
			spend: {
				prices: {
					models: { 'm-a': { input: 1000, output: 1000 }, 'm-b': { input: 1000, output: 1000 } }
				},
				cap: 0.001
			}
		};
		const capped = (s: SessionSnapshot) => s.status === 'paused' && s.spend?.capped === true;
		const runner = new PlanRunner();
		// Stopped once the cap has paused it: what a closed tab leaves.
		const first = await runner.run(plan, store, (s) => {
			if (capped(s)) runner.stop();
		});
		expect(first.snapshot!.status).toBe('stopped');
		const spent = first.snapshot!.spend!.spent;
		expect(spent).toBeGreaterThan(0.001);
		expect(await store.readPlanSpend(plan.planId)).toMatchObject({ cap: 0.001, capped: true });

		// Opened again without a cap of its own: the saved cap holds it, the spend goes on from it.
		const keep = { prices: plan.spend.prices };
		let seen: SessionSnapshot | null = null;
		const again = runner.run({ ...plan, spend: keep }, store, (s) => {
			if (!seen && capped(s)) {
				seen = s;
				runner.setCap(1000);
			}
		});
		const end = await again;
		expect(seen!.spend).toMatchObject({ cap: 0.001, capped: true });
		expect(seen!.spend!.spent).toBeCloseTo(spent, 12);
		expect(seen!.calls.done).toBe(0);
		expect(end.snapshot!.status).toBe('done');
		expect(end.snapshot!.spend!.spent).toBeGreaterThan(spent);
		expect(await store.readPlanSpend(plan.planId)).toMatchObject({ cap: 1000, capped: false });
	}, 30_000);
});
