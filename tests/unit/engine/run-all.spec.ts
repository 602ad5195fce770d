/**
 * `runAll`: one scheduler for every stage. It must write exactly what the stage commands write,
 * count concurrency in calls per endpoint, let ljp-interaction follow gen case by case, stop
 * cleanly at the first failure, and resume any mix of finished and unfinished stages.
 */
import { describe, expect, it } from 'vitest';
import { runAll, type RunAllOptions } from '../../../src/lib/core/engine/run-all';
import type { RunSnapshot } from '../../../src/lib/core/engine/types';
import { CheckpointError, ModelCallError, UsageError } from '../../../src/lib/core/errors';
import { LimiterPool } from '../../../src/lib/core/model/limiter';
import type { ChatRequest, ChatResult, ModelClient } from '../../../src/lib/core/model/types';
import { createSimulatedClient } from '../../../src/lib/core/simulated';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { makeDataset } from '../../fixtures/engine/cases';
import { ALL_STAGES, ENDPOINTS, MODELS, run, runKey } from './harness';
import { outage, ScriptedClient } from './scripted-client';

const dataset = makeDataset(6);

function runEverything(
	client: ModelClient,
	store: MemoryStore,
	options: Partial<RunAllOptions> = {}
) {
	return runAll({
		dataset,
		client,
		store,
		runId: 'r1',
		models: MODELS,
		endpoints: ENDPOINTS,
		...options
	});
}

/**
 * The stage files and the manifest less its creation time. `operational_history` (how patient
 * each start was, recorded and never compared) is left out unless `withOperational`; its times
 * always are.
 */
function comparable(store: MemoryStore, withOperational = false): Map<string, string> {
	const files = new Map<string, string>();
	for (const [path, text] of store.toFiles()) {
		// The call log holds times and session ids: what it holds is checked on its own.
		if (path.endsWith('calls.jsonl')) continue;
		if (!path.endsWith('manifest.json')) {
			files.set(path, text);
			continue;
		}
		const manifest = text.replace(/"created_at": "[^"]+"/, '');
		files.set(
			path,
			withOperational
				? manifest.replace(/"at": "[^"]+"/g, '')
				: manifest.replace(/"operational_history": \[[^\]]*\]/, '')
		);
	}
	return files;
}

/** The concurrency of each start of the run, oldest first, as its manifest records them. */
async function startsConcurrency(store: MemoryStore): Promise<number[]> {
	const manifest = await store.readManifest(await runKey());
	return (manifest?.operational_history ?? []).map((e) => e.concurrency);
}

/** Answers after `ms(request)` milliseconds, counting calls in flight. */
function slowSimulated(ms: (req: ChatRequest) => number) {
	const inner = createSimulatedClient();
	let inFlight = 0;
	const state = { maxInFlight: 0, calls: [] as ChatRequest[] };
	const client: ModelClient = {
		simulated: true,
		async complete(req): Promise<ChatResult> {
			inFlight++;
			state.maxInFlight = Math.max(state.maxInFlight, inFlight);
			state.calls.push(req);
			try {
				await new Promise((r) => setTimeout(r, ms(req)));
				return await inner.complete(req);
			} finally {
				inFlight--;
			}
		}
	};
	return { client, state };
}

describe('runAll writes what the stage commands write', () => {
	it('the same files and manifest as gen, dcg and ljp in turn, byte for byte', async () => {
		const byStages = new MemoryStore();
		for (const stages of [['gen'], ['dcg'], ['ljp-direct', 'ljp-gold', 'ljp-interaction']]) {
			await run(createSimulatedClient(), byStages, {
				dataset,
				stages: stages as typeof ALL_STAGES,
				concurrency: 8
			});
		}
		const together = new MemoryStore();
		// Later cases answer first, so records are appended far from dataset order.
		const { client } = slowSimulated((req) => 2 + (req.caseNumber.charCodeAt(9) % 3) * 3);
		const result = await runEverything(client, together, { concurrency: 8 });
		// The same flags write the same manifest, operational history and all.
		expect(comparable(together, true)).toEqual(comparable(byStages, true));
		expect(result.stages.map((s) => [s.stage, s.generated, s.resumed])).toEqual(
			ALL_STAGES.map((s) => [s, 6, 0])
		);
	});

	it('a second call resumes everything and calls no model', async () => {
		const store = new MemoryStore();
		await runEverything(new ScriptedClient(), store);
		const client = new ScriptedClient();
		const again = await runEverything(client, store);
		expect(client.requests).toHaveLength(0);
		expect(again.created).toBe(false);
		expect(again.stages.every((s) => s.resumed === 6 && s.generated === 0)).toBe(true);
	});

	it('resumes a mix: gen done for all, dcg for some, nothing else', async () => {
		const reference = new MemoryStore();
		await runEverything(new ScriptedClient(), reference);
		// dcg fails after two cases, one at a time.
		const partial = new MemoryStore();
		await run(new ScriptedClient(), partial, { dataset, stages: ['gen'] });
		let dcgCalls = 0;
		const failing = new ScriptedClient((req) => {
			if (req.task === 'force_ask' && ++dcgCalls > 4) outage(req);
			return undefined;
		});
		await expect(
			run(failing, partial, { dataset, stages: ['dcg'], concurrency: 1 })
		).rejects.toThrow(ModelCallError);
		const client = new ScriptedClient();
		const result = await runEverything(client, partial);
		expect(client.of('lexawn')).toHaveLength(0);
		expect(result.stages.find((s) => s.stage === 'dcg')!.resumed).toBe(2);
		expect(comparable(partial)).toEqual(comparable(reference));
		// Each start with other operational values is recorded, as a stage command records it.
		expect(await startsConcurrency(partial)).toEqual([4, 1, 4]);
	});
});

describe('runAll schedules calls, not cases', () => {
	it('keeps exactly `concurrency` calls in flight per endpoint when there is work', async () => {
		const { client, state } = slowSimulated(() => 3);
		await runEverything(client, new MemoryStore(), {
			concurrency: 3,
			endpoints: { evaluated: 'x', user: 'x', judge: 'x' }
		});
		expect(state.maxInFlight).toBe(3);
	});

	it('gives each endpoint its own limit', async () => {
		const { client, state } = slowSimulated(() => 3);
		await runEverything(client, new MemoryStore(), { concurrency: 2 });
		// Three endpoints (ENDPOINTS), two calls each.
		expect(state.maxInFlight).toBeGreaterThan(2);
		expect(state.maxInFlight).toBeLessThanOrEqual(6);
	});

	it('uses the limiters of a client that brings its own', async () => {
		const limiters = new LimiterPool({ max: 5 });
		const { client: inner, state } = slowSimulated(() => 2);
		const client: ModelClient = {
			simulated: true,
			limiters,
			complete: (req) =>
				limiters.get(ENDPOINTS[req.role]).run(() => inner.complete(req), { priority: req.priority })
		};
		await runEverything(client, new MemoryStore(), { concurrency: 1 });
		expect(state.maxInFlight).toBeGreaterThan(1);
	});

	it('starts ljp-interaction for a case once its interaction is saved, before gen is done', async () => {
		const order: string[] = [];
		const store = new MemoryStore();
		const append = store.appendRecord.bind(store);
		store.appendRecord = async (key, file, record) => {
			order.push(`${file}:${record.case_number}`);
			return append(key, file, record);
		};
		// The last case's gen is slow, so every other case's interaction is scored before it ends.
		const last = dataset.cases[5].case_number;
		const { client } = slowSimulated((req) => (req.caseNumber === last ? 40 : 1));
		await runEverything(client, store, { concurrency: 16, stages: ['gen', 'ljp-interaction'] });
		const scored = order.indexOf(`LJP_interaction:${dataset.cases[0].case_number}`);
		expect(scored).toBeGreaterThan(order.indexOf(`interaction:${dataset.cases[0].case_number}`));
		expect(scored).toBeLessThan(order.indexOf(`interaction:${last}`));
	});

	it('puts a stage in order as its last case is saved, while other stages still run', async () => {
		const events: string[] = [];
		const store = new MemoryStore();
		const append = store.appendRecord.bind(store);
		let genSaved = 0;
		let genDone!: () => void;
		const allGenSaved = new Promise<void>((resolve) => (genDone = resolve));
		store.appendRecord = async (key, file, record) => {
			events.push(`save ${file}:${record.case_number}`);
			await append(key, file, record);
			if (file === 'interaction' && ++genSaved === dataset.cases.length) genDone();
		};
		const finalize = store.finalizeStageFile.bind(store);
		store.finalizeStageFile = async (key, file, order) => {
			events.push(`order ${file}`);
			return finalize(key, file, order);
		};
		// Gold's calls are held until gen is saved and either its files are in order or a hundred
		// turns of the event loop went by without it: gold must not have to end first.
		const gold = (async () => {
			await allGenSaved;
			for (let turn = 0; turn < 100 && !events.includes('order interaction'); turn++) {
				await new Promise((r) => setImmediate(r));
			}
		})();
		const inner = createSimulatedClient();
		const client: ModelClient = {
			simulated: true,
			async complete(req) {
				if (req.stage === 'ljp-gold') await gold;
				return inner.complete(req);
			}
		};
		const result = await runEverything(client, store, {
			concurrency: 16,
			stages: ['gen', 'ljp-gold']
		});
		const firstGold = events.findIndex((e) => e.startsWith('save LJP_gold'));
		expect(events.indexOf('order interaction')).toBeGreaterThan(-1);
		expect(events.indexOf('order interaction')).toBeLessThan(firstGold);
		// Every file of both stages is put in order once, and the files come out as before.
		expect(events.filter((e) => e.startsWith('order')).sort()).toEqual(
			[...result.stages.flatMap((s) => s.files)]
				.map((f) => `order ${f.split('/').pop()!.replace('.jsonl', '')}`)
				.sort()
		);
	});

	it('accepts --stages in any order and schedules them in stage order', async () => {
		const store = new MemoryStore();
		const result = await runEverything(createSimulatedClient(), store, {
			stages: ['ljp-gold', 'dcg']
		});
		expect(result.stages.map((s) => s.stage)).toEqual(['dcg', 'ljp-gold']);
	});
});

describe('runAll refuses what cannot work', () => {
	it('gen and lca together', async () => {
		await expect(
			runEverything(createSimulatedClient(), new MemoryStore(), { stages: ['gen', 'lca'] })
		).rejects.toThrow(UsageError);
	});

	it('ljp-interaction without gen when interactions are missing, before any call', async () => {
		const client = new ScriptedClient();
		await expect(
			runEverything(client, new MemoryStore(), { stages: ['ljp-direct', 'ljp-interaction'] })
		).rejects.toThrow(CheckpointError);
		expect(client.requests).toHaveLength(0);
	});

	it('a bad concurrency: a number outside the shared range (1 to 64), before anything is written', async () => {
		for (const concurrency of [0, 65, 2.5]) {
			const store = new MemoryStore();
			const error = await runEverything(createSimulatedClient(), store, { concurrency }).catch(
				(e: unknown) => e
			);
			expect(error).toBeInstanceOf(UsageError);
			expect((error as Error).message).toBe(
				`concurrency must be a whole number from 1 to 64 or "auto", got ${concurrency}`
			);
			expect([...store.toFiles()]).toEqual([]);
		}
	});

	it('settings outside their range, as the stage commands refuse them', async () => {
		await expect(
			runEverything(createSimulatedClient(), new MemoryStore(), {
				settings: {
					temperature: 0.7,
					judge_temperature: 0.1,
					max_tokens: 8192,
					timeout_s: 120,
					retries: 21
				}
			})
		).rejects.toThrow(/^settings\.retries: /);
	});
});

describe('runAll and the call log', () => {
	it('logs every call under its stage, one session for the run, as the stage commands log them', async () => {
		const byStages = new MemoryStore();
		await run(createSimulatedClient(), byStages, { dataset, stages: ALL_STAGES });
		const together = new MemoryStore();
		await runEverything(createSimulatedClient(), together);
		const key = await runKey();
		const [a, b] = [await byStages.readCalls(key), await together.readCalls(key)];
		expect(b.length).toBeGreaterThan(0);
		const shape = (lines: typeof a) =>
			lines
				.map((l) => [l.stage, l.task, l.role, l.case_number, l.round ?? null, l.prompt].join('|'))
				.sort();
		expect(shape(b)).toEqual(shape(a));
		expect(new Set(b.map((l) => l.session)).size).toBe(1);
		expect(new Set(b.map((l) => l.seq)).size).toBe(b.length);
	});
});

describe('runAll with concurrency auto', () => {
	it("is not held to the number range, and records its ceiling (64) as the start's concurrency", async () => {
		const store = new MemoryStore();
		await runEverything(createSimulatedClient(), store, { concurrency: 'auto' });
		expect(await startsConcurrency(store)).toEqual([64]);
	});
});

describe('runAll stops at the first failure', () => {
	it('names stage and case, saves what finished, and a rerun completes to the same files', async () => {
		const reference = new MemoryStore();
		await runEverything(new ScriptedClient(), reference);
		const store = new MemoryStore();
		const bad = dataset.cases[3].case_number;
		const failing = new ScriptedClient((req) =>
			req.task === 'force_ask' && req.caseNumber === bad ? outage(req) : undefined
		);
		const error = await runEverything(failing, store, { concurrency: 2 }).catch((e) => e);
		expect(error).toBeInstanceOf(ModelCallError);
		expect(error.message).toMatch(/^dcg stopped at case #3 \(case_number [^)]+\): .*503/);
		expect(error.message).toMatch(
			/cases are saved for every stage \(cases saved per stage: gen \d, dcg \d, .*\); fix the cause/
		);
		// Nothing of the failed case's dcg is saved.
		const key = await runKey();
		const dcg = await store.readRecords(key, 'DCG_results');
		expect(dcg.map((r) => r.case_number)).not.toContain(bad);
		const rerun = await runEverything(new ScriptedClient(), store);
		expect(rerun.stages.find((s) => s.stage === 'dcg')!.resumed).toBe(dcg.length);
		expect(comparable(store)).toEqual(comparable(reference));
		expect(await startsConcurrency(store)).toEqual([2, 4]);
	});

	it('an abort stops at once, says so, and a rerun completes', async () => {
		const reference = new MemoryStore();
		await runEverything(createSimulatedClient(), reference);
		const store = new MemoryStore();
		const controller = new AbortController();
		let calls = 0;
		const { client } = slowSimulated(() => {
			if (++calls === 20) controller.abort();
			return 2;
		});
		const error = await runEverything(client, store, { signal: controller.signal }).catch((e) => e);
		expect(error).toBeInstanceOf(ModelCallError);
		expect(error.message).toMatch(/^run stopped on request; \d of 6 cases are saved/);
		await runEverything(createSimulatedClient(), store);
		expect(comparable(store)).toEqual(comparable(reference));
	});
});

describe('runAll progress', () => {
	it('reports every stage, cases, calls, an ETA and the concurrency, then done', async () => {
		const snapshots: RunSnapshot[] = [];
		const { client, state } = slowSimulated(() => 2);
		await runEverything(client, new MemoryStore(), {
			concurrency: 3,
			snapshotIntervalMs: 0,
			onSnapshot: (s) => snapshots.push(s)
		});
		const last = snapshots.at(-1)!;
		expect(last.status).toBe('done');
		expect(last.cases).toEqual({ total: 6, done: 6 });
		expect(last.calls.done).toBe(state.calls.length);
		expect(last.calls.estimatedTotal).toBe(state.calls.length);
		expect(last.stages.map((s) => [s.stage, s.done, s.total])).toEqual(
			ALL_STAGES.map((s) => [s, 6, 6])
		);
		expect(last.concurrency.max).toBe(3);
		expect(last.concurrency.endpoints.map((e) => e.limit)).toEqual([3, 3, 3]);
		const middle = snapshots.find((s) => s.etaMs !== null && s.calls.done > 10);
		expect(middle).toBeDefined();
		expect(middle!.calls.estimatedTotal).toBeGreaterThan(middle!.calls.done);
	});
});
