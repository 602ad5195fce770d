/**
 * RunController: starting, pausing, stopping and failing runs, the call log, the saved plan, and
 * several stages together, over memory and IndexedDB stores. One file because every block drives
 * the controller through the same helpers (`request`, `countingClient`, `watched`,
 * `freshController`); the several-stages blocks could move to their own file once those helpers
 * live in a support module.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { openIdbStore } from '$lib/adapters/idb-store';
import { STAGE_OUTPUTS, type StageName } from '$lib/core/protocol';
import type { ChatRequest, ModelClient } from '$lib/core/model/types';
import { DEFAULT_PROMPT_PACK } from '$lib/core/prompts';
import { DEFAULT_SETTINGS } from '$lib/core/records';
import { createSimulatedClient } from '$lib/core/simulated';
import { MemoryStore } from '$lib/core/store/memory-store';
import type { CheckpointStore } from '$lib/core/store/types';
import type { RunKey } from '$lib/core/layout';
import { makeDataset } from '../../../../tests/fixtures/engine/cases';
import { memoryStorage } from '../../../../tests/support/memory-storage';
import { clientSpecWith, ENDPOINTS, MODELS } from '../../../../tests/support/run-request';
import { loadPlans } from '$lib/core/control/run-plans';
import {
	RunController,
	runOf,
	stageProgressRow,
	toRunError,
	type RunControllerOptions,
	type RunRequest,
	type RunSnapshot
} from './run-controller';
import { ModelCallError, UsageError } from '$lib/core/errors';
import { coded } from '$lib/core/said';

/** The simulated provider, counting every call by case and remembering when it was made. */
function countingClient(latencyMs: number) {
	const inner = createSimulatedClient({ latencyMs });
	const calls: ChatRequest[] = [];
	const client: ModelClient = {
		simulated: true,
		complete: (request) => {
			calls.push(request);
			return inner.complete(request);
		}
	};
	return { client, calls };
}

function request(client: ModelClient, overrides: Partial<RunRequest> = {}): RunRequest {
	return {
		dataset: makeDataset(6),
		datasetName: 'cases.json',
		runId: 'r1',
		limit: null,
		stages: ['gen'],
		models: MODELS,
		endpoints: ENDPOINTS,
		settings: DEFAULT_SETTINGS,
		concurrency: 2,
		pack: DEFAULT_PROMPT_PACK,
		keys: [],
		makeClient: () => client,
		...overrides
	};
}

/** A controller over a fresh memory store and plans list, both handed back for the test to read. */
/** A controller over a fresh IndexedDB (fake-indexeddb) store named `dbName`. */
async function idbController(dbName: string) {
	const store = await openIdbStore({ dbName, idbFactory: new IDBFactory(), locks: null });
	return { store, controller: new RunController({ store, plans: memoryStorage() }) };
}

function freshController() {
	const store = new MemoryStore();
	const plans = memoryStorage();
	return { store, plans, controller: new RunController({ store, plans }) };
}

/**
 * A controller whose every change is watched: `when` resolves at the first snapshot (the current
 * one included) for which `check` holds, so a test waits on the change itself.
 */
function watched(options: Omit<RunControllerOptions, 'onChange'>) {
	const waiters = new Set<{ check: (s: RunSnapshot) => boolean; resolve: () => void }>();
	const controller = new RunController({
		...options,
		onChange: (snapshot) => {
			for (const waiter of waiters) {
				if (!waiter.check(snapshot)) continue;
				waiters.delete(waiter);
				waiter.resolve();
			}
		}
	});
	const when = (check: (s: RunSnapshot) => boolean) =>
		check(controller.snapshot)
			? Promise.resolve()
			: new Promise<void>((resolve) => waiters.add({ check, resolve }));
	return { controller, when };
}

/** A watched controller on fresh storage, already running `request` with the client of `recorder`. */
function watchedRun<R extends { client: ModelClient }>(
	recorder: R,
	overrides: Partial<RunRequest> = {}
) {
	const store = new MemoryStore();
	const plans = memoryStorage();
	const { controller, when } = watched({ store, plans });
	const running = controller.start(request(recorder.client, overrides));
	return { store, plans, controller, when, running, ...recorder };
}

/** Stops `run` once gen has saved `n` cases; the run, and its plan, end stopped without error. */
async function stopAfterGen(run: ReturnType<typeof watchedRun>, n: number): Promise<RunSnapshot> {
	await run.when(genSaved(n));
	run.controller.stop();
	const stopped = await run.running;
	expect(stopped.status).toBe('stopped');
	expect(stopped.error).toBeNull();
	expect(loadPlans(run.plans)[0].status).toBe('stopped');
	return stopped;
}

const genSaved = (n: number) => (s: RunSnapshot) => (stageOf(s, 'gen')?.done ?? 0) >= n;
const isPaused = (s: RunSnapshot) => s.status === 'paused';

/** Stage `stage` of the run's progress as the Progress card shows it (null: not started). */
function stageOf(s: RunSnapshot, stage: StageName) {
	const run = runOf(s);
	const counts = run?.stages.find((c) => c.stage === stage);
	return run && counts ? stageProgressRow(run, counts, s.status) : null;
}

/** Tasks (a case of a stage) under way in the run's session. */
const underWay = (s: RunSnapshot) => s.session?.underWay;

async function savedCases(store: MemoryStore, snap: RunSnapshot, stage: StageName) {
	const file = STAGE_OUTPUTS[stage].at(-1)!;
	const records = await store.readRecords(snap.run!, file);
	return records.map((r) => r.case_number);
}

describe('RunController', () => {
	it('writes its plan once the manifest is saved, so other tabs list the run as it starts', async () => {
		const store = new MemoryStore();
		const inner = memoryStorage();
		// What other tabs would see: for every write of the plans, whether the manifest existed.
		const writes: Promise<boolean>[] = [];
		const plans = {
			...inner,
			setItem: (k: string, v: string) => {
				inner.setItem(k, v);
				const [plan] = JSON.parse(v) as Array<{ runId: string; modelDir: string }>;
				writes.push(store.readManifest(plan).then((m) => m !== null));
			}
		};
		const controller = new RunController({ store, plans, onChange: () => {} });
		const snap = await controller.start(request(countingClient(0).client, { limit: 2 }));
		expect(snap.status, snap.error?.message).toBe('done');
		// Saved once the engine accepted the run (its manifest is saved), and at the end.
		expect(await Promise.all(writes)).toEqual([true, true]);
	});

	it('runs every stage to done, saves one record per case and remembers the plan as done', async () => {
		const store = new MemoryStore();
		const plans = memoryStorage();
		const stages: StageName[] = ['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction'];
		const seen: RunSnapshot[] = [];
		const controller = new RunController({ store, plans, onChange: (s) => seen.push(s) });
		const { client } = countingClient(0);

		const snap = await controller.start(request(client, { stages, limit: 4 }));

		expect(snap.status, snap.error?.message).toBe('done');
		expect(snap.created).toBe(true);
		for (const stage of stages) {
			expect(stageOf(snap, stage)).toMatchObject({ status: 'done', done: 4, total: 4 });
			expect(await savedCases(store, snap, stage)).toHaveLength(4);
		}
		expect(loadPlans(plans)).toEqual([
			expect.objectContaining({ runId: 'r1', stages, status: 'done', concurrency: 2 })
		]);
		// The page saw the run go through its states in order.
		const states = [...new Set(seen.map((s) => s.status))];
		expect(states).toEqual(['starting', 'running', 'done']);
	});

	it('pause lets cases under way finish, starts no new case until resumed, then completes', async () => {
		const { store, controller, when, calls, running } = watchedRun(countingClient(15));

		await when(genSaved(1));
		controller.pause();
		expect(['pausing', 'paused']).toContain(controller.snapshot.status);
		await when(isPaused);

		// Every case that had made a call when the pause began is finished and saved.
		const callsWhilePaused = calls.length;
		const called = new Set(calls.map((c) => c.caseNumber));
		const saved = await savedCases(store, controller.snapshot, 'gen');
		expect(new Set(saved)).toEqual(called);
		// At least two cases are left, one for each of the pool's 2 lanes.
		expect(saved.length).toBeLessThanOrEqual(4);

		// Paused: the session admits no new case, so none is under way and no call was made since.
		expect(underWay(controller.snapshot)).toBe(0);
		expect(calls.length).toBe(callsWhilePaused);

		controller.resume();
		const snap = await running;
		expect(snap.status).toBe('done');
		expect((await savedCases(store, snap, 'gen')).sort()).toEqual(
			makeDataset(6)
				.cases.map((c) => c.case_number)
				.sort()
		);
	});

	it('stop aborts the run, keeps finished cases, and a second start resumes without repeating them', async () => {
		const run = watchedRun(countingClient(15));
		const { store, controller } = run;
		const stopped = await stopAfterGen(run, 2);
		const kept = await savedCases(store, stopped, 'gen');
		expect(kept.length).toBeGreaterThanOrEqual(2);

		const second = countingClient(0);
		const resumed = await controller.start(request(second.client));
		expect(resumed.status).toBe('done');
		expect(resumed.created).toBe(false);
		expect(stageOf(resumed, 'gen')?.resumed).toBe(kept.length);
		const repeated = second.calls.filter((c) => kept.includes(c.caseNumber));
		expect(repeated).toEqual([]);
	});

	it('after a resume, knows the calls and tokens of the run’s earlier start from its call log', async () => {
		const run = watchedRun(countingClient(15));
		const { store, controller } = run;
		const stopped = await stopAfterGen(run, 2);
		// A new run has no earlier calls.
		expect(stopped.earlier).toBeNull();
		const logged = (await store.readCalls(stopped.run!)).filter((c) => c.response !== null);
		const before = logged.filter((c) => c.role === 'evaluated');

		const resumed = await controller.start(request(countingClient(0).client));
		expect(resumed.status).toBe('done');
		expect(resumed.earlier?.byRole.evaluated.calls).toBe(before.length);
		expect(resumed.earlier?.byRole.evaluated.prompt).toBe(
			before.reduce((n, c) => n + (c.usage?.prompt ?? 0), 0)
		);
		// This start's progress counts only its own calls; with the earlier ones, every logged one.
		const thisStart = stageOf(resumed, 'gen')!.byRole.evaluated;
		const all = (await store.readCalls(resumed.run!)).filter(
			(c) => c.response !== null && c.role === 'evaluated'
		);
		expect(thisStart).toBeGreaterThan(0);
		expect(resumed.earlier!.byRole.evaluated.calls + thisStart).toBe(all.length);
	});

	it('resumes in browser storage with other timeout, retries and concurrency, recording them', async () => {
		const { store, controller } = await idbController('run-controller-operational');
		const first = await controller.start(request(countingClient(0).client, { limit: 2 }));
		expect(first.status, first.error?.message).toBe('done');
		const patient = { ...DEFAULT_SETTINGS, timeout_s: 600, retries: 12 };
		const resumed = await controller.start(
			request(countingClient(0).client, {
				limit: 2,
				stages: ['dcg'],
				settings: patient,
				concurrency: 1
			})
		);
		expect(resumed.status, resumed.error?.message).toBe('done');
		expect(resumed.created).toBe(false);
		const manifest = await store.readManifest(resumed.run!);
		expect(manifest?.settings).toEqual(DEFAULT_SETTINGS);
		expect(
			manifest?.operational_history?.map((e) => [e.timeout_s, e.retries, e.concurrency])
		).toEqual([
			[DEFAULT_SETTINGS.timeout_s, DEFAULT_SETTINGS.retries, 2],
			[600, 12, 1]
		]);
	});

	it('stop while paused ends the run at once, starting no case the pause held back', async () => {
		const { store, controller, when, calls, running } = watchedRun(countingClient(15));
		await when(genSaved(1));
		controller.pause();
		await when(isPaused);
		const before = calls.length;
		controller.stop();
		const snap = await running;
		expect(snap.status).toBe('stopped');
		expect(calls.length).toBe(before);
		expect(await savedCases(store, snap, 'gen')).toHaveLength(
			new Set(calls.map((c) => c.caseNumber)).size
		);
	});

	it('refuses a run another writer holds, writing nothing and keeping the other plan', async () => {
		const { store, plans, controller: holder, when, running } = watchedRun(countingClient(20));
		const other = new RunController({ store, plans });
		// The holder writes its plan once the engine has accepted the run, at its first progress.
		await when((s) => stageOf(s, 'gen') !== null);
		expect(loadPlans(plans)).toHaveLength(1);

		const quick = countingClient(0);
		const refused = await other.start(request(quick.client));

		expect(refused.status).toBe('failed');
		expect(refused.error?.kind).toBe('locked');
		expect(refused.error?.message).toMatch(/already being written/);
		expect(quick.calls).toEqual([]);
		expect(loadPlans(plans)[0].status).toBe('running');
		holder.stop();
		await running;
	});

	it('reports a failed call with its case, role and raw output, and marks the plan failed', async () => {
		const { plans, controller } = freshController();
		const badJudge = judgeAnswering('我认为这是澄清', false);

		const snap = await controller.start(request(badJudge, { limit: 1 }));

		expect(snap.status).toBe('failed');
		expect(snap.error).toMatchObject({
			kind: 'invalid_output',
			caseNumber: makeDataset(1).cases[0].case_number,
			role: 'judge',
			task: 'judge_lca',
			rawOutput: '我认为这是澄清'
		});
		expect(loadPlans(plans)[0]).toMatchObject({ status: 'failed' });
		expect(loadPlans(plans)[0].error).toContain(makeDataset(1).cases[0].case_number);
	});
});

describe('RunController and the call log', () => {
	// The engine logs through the store it is handed; the controller hands it a view of the store
	// with the lock held, which must still be the store's call log (a hand-listed view was not).
	it.each([
		['one stage (runStages)', ['gen'] as StageName[]],
		['stages together (runAll)', ['gen', 'dcg', 'ljp-direct'] as StageName[]]
	])('keeps one line per model call with its exact prompt: %s', async (_, stages) => {
		const { store, controller } = freshController();
		const { client, calls } = countingClient(0);
		const snap = await controller.start(request(client, { stages, limit: 3 }));
		expect(snap.status, snap.error?.message).toBe('done');
		const logged = await store.readCalls(snap.run!);
		expect(logged).toHaveLength(calls.length);
		expect(logged.map((l) => l.prompt).sort()).toEqual(calls.map((c) => c.prompt).sort());
	});

	it('logs into browser storage too (IndexedDB)', async () => {
		const { store, controller } = await idbController('calls');
		const { client, calls } = countingClient(0);
		const snap = await controller.start(request(client, { stages: ['gen', 'dcg'], limit: 2 }));
		expect(snap.status, snap.error?.message).toBe('done');
		expect(await store.readCalls(snap.run!)).toHaveLength(calls.length);
		store.close();
	});
});

describe('RunController and the run’s saved plan', () => {
	it('leaves the plan, status and error of a run alone when the engine refuses a start under its id', async () => {
		const { plans, controller } = freshController();
		// The run failed on its own (a judge that never answers in JSON)...
		const badJudge = judgeAnswering('no JSON', true);
		const failed = await controller.start(request(badJudge, { limit: 2 }));
		expect(failed.status).toBe('failed');
		const before = loadPlans(plans);
		expect(before).toEqual([
			expect.objectContaining({ status: 'failed', datasetName: 'cases.json' })
		]);

		// ...then the same run id is started on another dataset: refused before any call.
		const other = { ...makeDataset(2), sha256: 'f'.repeat(64) };
		const { client, calls } = countingClient(0);
		const refused = await controller.start(
			request(client, { dataset: other, datasetName: 'other.json', limit: 2, stages: ['dcg'] })
		);
		expect(refused.status).toBe('failed');
		expect(refused.error?.kind).toBe('checkpoint');
		expect(calls).toEqual([]);
		expect(loadPlans(plans)).toEqual(before);
	});

	it('records when the run stood paused, so elapsed time can leave it out', async () => {
		let clock = 1_000_000;
		const store = new MemoryStore();
		const { controller, when } = watched({
			store,
			plans: memoryStorage(),
			now: () => new Date(clock)
		});
		const { client } = countingClient(15);
		const running = controller.start(request(client));
		await when(genSaved(1));
		controller.pause();
		await when(isPaused);
		const [pause] = controller.snapshot.pauses;
		expect(pause).toEqual({ from: clock, to: null });
		clock += 30_000;
		controller.resume();
		expect(controller.snapshot.pauses).toEqual([{ from: pause.from, to: pause.from + 30_000 }]);
		const snap = await running;
		expect(snap.status).toBe('done');
		expect(snap.pauses).toHaveLength(1);
	});
});

/** The simulated client, except that the LCA judge always answers `response` (never JSON). */
function judgeAnswering(response: string, simulated: boolean): ModelClient {
	const inner = createSimulatedClient();
	return {
		simulated,
		complete: async (req) =>
			req.task === 'judge_lca'
				? { response, reasoning: null, finishReason: 'stop', usage: null }
				: inner.complete(req)
	};
}

describe('toRunError', () => {
	it('keeps the coded pieces of a message for the error panel, and none when there are none', () => {
		const said = [coded('fail_aborted', { case: 'A', modelRole: 'judge', model: 'm', url: 'u' })];
		expect(toRunError(new ModelCallError('x', { kind: 'aborted', said })).said).toEqual(said);
		expect(toRunError(new UsageError('y', said))).toMatchObject({ kind: 'usage', said });
		expect(toRunError(new UsageError('y'))).toEqual({ message: 'y', kind: 'usage' });
		expect(toRunError(new Error('z'))).toEqual({ message: 'z', kind: 'other' });
	});
});

/** The records of every stage file and the manifest (less its times), as stored. */
async function storedRun(store: CheckpointStore, run: RunKey): Promise<Map<string, string>> {
	const out = new Map<string, string>();
	for (const file of new Set(Object.values(STAGE_OUTPUTS).flat())) {
		const records = await store.readRecords(run, file);
		out.set(file, records.map((r) => JSON.stringify(r)).join('\n'));
	}
	const manifest = await store.readManifest(run);
	out.set(
		'manifest',
		JSON.stringify(manifest, (key, value: unknown) =>
			key === 'created_at' || key === 'at' ? undefined : value
		)
	);
	return out;
}

/** The simulated provider answering after a delay that differs by case, noting calls in flight. */
function jitteredClient() {
	const inner = createSimulatedClient();
	const log: Array<{ event: 'start' | 'end'; request: ChatRequest }> = [];
	const client: ModelClient = {
		simulated: true,
		async complete(request) {
			log.push({ event: 'start', request });
			await new Promise((r) => setTimeout(r, 1 + (request.caseNumber.charCodeAt(9) % 3) * 3));
			try {
				return await inner.complete(request);
			} finally {
				log.push({ event: 'end', request });
			}
		}
	};
	return { client, log };
}

const EVERY_STAGE: StageName[] = ['gen', 'dcg', 'ljp-direct', 'ljp-gold', 'ljp-interaction'];

describe('RunController, several stages together', () => {
	it.each(['memory', 'IndexedDB'] as const)(
		'writes in the %s store the very records, manifest and input_sha256 the stages one by one write',
		async (kind) => {
			let db = 0;
			const open = async (): Promise<CheckpointStore> =>
				kind === 'memory'
					? new MemoryStore()
					: openIdbStore({ dbName: `together-${db++}`, idbFactory: new IDBFactory(), locks: null });
			const apart = await open();
			const one = new RunController({ store: apart, plans: memoryStorage() });
			for (const stage of EVERY_STAGE) {
				const snap = await one.start(request(jitteredClient().client, { stages: [stage] }));
				expect(snap.status, snap.error?.message).toBe('done');
			}
			const together = await open();
			const all = new RunController({ store: together, plans: memoryStorage() });
			const snap = await all.start(request(jitteredClient().client, { stages: EVERY_STAGE }));
			expect(snap.status, snap.error?.message).toBe('done');

			const a = await storedRun(apart, snap.run!);
			const b = await storedRun(together, snap.run!);
			expect([...b.keys()]).toEqual([...a.keys()]);
			for (const [file, text] of a) expect(b.get(file), file).toBe(text);
			// Every stage file holds every case, each record with its input_sha256.
			const ljp = await together.readRecords(snap.run!, 'LJP_interaction');
			expect(ljp).toHaveLength(6);
			expect(ljp.every((r) => /^[0-9a-f]{64}$/.test(String(r.input_sha256)))).toBe(true);
			if (apart instanceof MemoryStore && together instanceof MemoryStore) {
				const files = (s: MemoryStore) =>
					new Map([...s.toFiles()].filter(([p]) => !/manifest\.json$|calls\.jsonl$/.test(p)));
				expect(files(together)).toEqual(files(apart));
			}
		}
	);

	it('starts a case’s Interaction once its gen is saved, before gen of the last case is done, and dcg alongside', async () => {
		const { client, log } = jitteredClient();
		const { controller } = freshController();
		const snap = await controller.start(
			request(client, { stages: ['gen', 'dcg', 'ljp-interaction'], concurrency: 2 })
		);
		expect(snap.status, snap.error?.message).toBe('done');
		const genTasks = new Set(['user_standard', 'judge_lca']);
		const lastGenEnd = log.findLastIndex((e) => e.event === 'end' && genTasks.has(e.request.task));
		// Only Interaction asks judge_extract here; only dcg asks force_ask.
		const firstInteraction = log.findIndex((e) => e.request.task === 'judge_extract');
		const firstDcg = log.findIndex((e) => e.request.task === 'force_ask');
		expect(firstInteraction).toBeGreaterThan(-1);
		expect(firstInteraction).toBeLessThan(lastGenEnd);
		expect(firstDcg).toBeLessThan(lastGenEnd);
		// Concurrency counts calls in flight per endpoint: never more than 2 at one endpoint, but
		// more than 2 in all at times (one scheduler fills every endpoint's slots).
		const inFlight = new Map<string, number>();
		let most = 0;
		let mostAll = 0;
		let all = 0;
		for (const { event, request: r } of log) {
			const n = (inFlight.get(r.role) ?? 0) + (event === 'start' ? 1 : -1);
			all += event === 'start' ? 1 : -1;
			inFlight.set(r.role, n);
			most = Math.max(most, n);
			mostAll = Math.max(mostAll, all);
		}
		expect(most).toBe(2);
		expect(mostAll).toBeGreaterThan(2);
	});

	it('counts per-stage and whole-run progress as the calls made and the cases saved', async () => {
		const { client, log } = jitteredClient();
		const seen: RunSnapshot[] = [];
		const controller = new RunController({
			store: new MemoryStore(),
			plans: memoryStorage(),
			onChange: (s) => seen.push(s)
		});
		const snap = await controller.start(request(client, { stages: EVERY_STAGE }));
		expect(snap.status, snap.error?.message).toBe('done');
		const calls = log.filter((e) => e.event === 'end').length;
		let perStage = 0;
		for (const stage of EVERY_STAGE) {
			const p = stageOf(snap, stage)!;
			expect(p).toMatchObject({ status: 'done', done: 6, total: 6, resumed: 0, inFlight: 0 });
			perStage += p.calls;
		}
		expect(perStage).toBe(calls);
		expect(snap.session?.calls).toMatchObject({ done: calls, estimatedTotal: calls });
		expect(runOf(snap)?.cases).toEqual({ done: 6, total: 6 });
		// While running, several stages were under way at once, and a case counted done only
		// once every stage had it.
		expect(
			seen.some(
				(s) => EVERY_STAGE.filter((stage) => stageOf(s, stage)?.status === 'running').length > 1
			)
		).toBe(true);
		for (const s of seen) {
			const run = runOf(s);
			if (!run) continue;
			const least = Math.min(...EVERY_STAGE.map((stage) => stageOf(s, stage)?.done ?? 0));
			expect(run.cases.done).toBeLessThanOrEqual(least);
		}
	});

	it('pause starts no new task, lets those under way finish and be saved, then resume completes', async () => {
		// More tasks than the scheduler keeps going at concurrency 1 over three endpoints (2 + 2 × 3 × 1).
		const dataset = makeDataset(16);
		const { store, controller, when, running, log } = watchedRun(jitteredClient(), {
			stages: ['gen', 'dcg'],
			dataset,
			concurrency: 1
		});
		await when(genSaved(1));
		controller.pause();
		await when(isPaused);
		const callsWhenPaused = log.length;
		// Every task (a case of a stage) that had made a call is saved.
		for (const [stage, task] of [
			['gen', 'lexawn'],
			['dcg', 'force_ask']
		] as const) {
			const called = new Set(
				log.filter((e) => e.request.task === task).map((e) => e.request.caseNumber)
			);
			expect(new Set(await savedCases(store, controller.snapshot, stage)), stage).toEqual(called);
		}
		// Paused: the session admits no new task, so none is under way and no call was made since.
		expect(underWay(controller.snapshot)).toBe(0);
		expect(log.length).toBe(callsWhenPaused);
		controller.resume();
		const snap = await running;
		expect(snap.status, snap.error?.message).toBe('done');
		expect(await savedCases(store, snap, 'dcg')).toHaveLength(16);
	});

	it('one failure stops new work, saves what finished, marks the plan failed, and resumes the mix', async () => {
		const { store, plans, controller } = freshController();
		// dcg's judge never answers in JSON: the first dcg case fails.
		const inner = createSimulatedClient();
		const started: ChatRequest[] = [];
		const bad: ModelClient = {
			simulated: true,
			complete: async (req) => {
				started.push(req);
				await new Promise((r) => setTimeout(r, 2));
				return req.task === 'judge_dcg'
					? { response: 'no JSON', reasoning: null, finishReason: 'stop', usage: null }
					: inner.complete(req);
			}
		};
		const failed = await controller.start(request(bad, { stages: ['gen', 'dcg'] }));
		expect(failed.status).toBe('failed');
		expect(failed.error).toMatchObject({
			kind: 'invalid_output',
			role: 'judge',
			task: 'judge_dcg'
		});
		expect(failed.error?.message).toMatch(/dcg stopped at case/);
		expect(stageOf(failed, 'dcg')?.status).toBe('failed');
		expect(stageOf(failed, 'dcg')?.failures).toBeGreaterThan(0);
		expect(loadPlans(plans)[0]).toMatchObject({ status: 'failed', stages: ['gen', 'dcg'] });
		// Tasks in flight finished and were saved; not every gen case was started.
		const gen = await savedCases(store, failed, 'gen');
		expect(stageOf(failed, 'gen')?.done).toBe(gen.length);
		const genStarted = new Set(started.filter((r) => r.task === 'lexawn').map((r) => r.caseNumber));
		expect(new Set(gen)).toEqual(genStarted);

		// Resume: the saved gen cases are not asked again; every stage completes.
		const { client, log } = jitteredClient();
		const resumed = await controller.start(request(client, { stages: ['gen', 'dcg'] }));
		expect(resumed.status, resumed.error?.message).toBe('done');
		expect(stageOf(resumed, 'gen')?.resumed).toBe(gen.length);
		const again = log.filter(
			(e) => e.request.task === 'lexawn' && gen.includes(e.request.caseNumber)
		);
		expect(again).toEqual([]);
		expect(loadPlans(plans)[0].status).toBe('done');
	});
});

describe('RunController, several stages together, stopped', () => {
	it('stop ends every stage as stopped, keeps what is saved, and a second start repeats none of it', async () => {
		const dataset = makeDataset(16);
		const stages: StageName[] = ['gen', 'dcg'];
		const run = watchedRun(jitteredClient(), { stages, dataset, concurrency: 1 });
		const { store, controller } = run;
		const stopped = await stopAfterGen(run, 1);
		expect(stageOf(stopped, 'gen')?.status).toBe('stopped');
		const kept = await savedCases(store, stopped, 'gen');
		expect(stageOf(stopped, 'gen')?.done).toBe(kept.length);

		const second = jitteredClient();
		const resumed = await controller.start(request(second.client, { stages, dataset }));
		expect(resumed.status, resumed.error?.message).toBe('done');
		expect(stageOf(resumed, 'gen')?.resumed).toBe(kept.length);
		expect(
			second.log.filter((e) => e.request.task === 'lexawn' && kept.includes(e.request.caseNumber))
		).toEqual([]);
	});
});

describe('RunController, several stages together, retries', () => {
	it('counts a retry the client reports for the stage its request came from', async () => {
		const inner = createSimulatedClient();
		const { controller } = freshController();
		const snap = await controller.start({
			...request(inner, { stages: ['gen', 'dcg'], limit: 2 }),
			// Every forced question (dcg only) is answered at the second attempt.
			makeClient: (hooks) => ({
				simulated: true,
				complete: async (req) => {
					if (req.task === 'force_ask') {
						hooks.onEvent({
							type: 'retry',
							delayMs: 0,
							fromRetryAfter: false,
							kind: 'server',
							reason: 'HTTP 503',
							caseNumber: req.caseNumber,
							role: req.role,
							task: req.task,
							model: 'm',
							baseURL: 'http://e.test/v1',
							attempt: 1,
							maxAttempts: 4,
							...(req.stage !== undefined ? { stage: req.stage } : {})
						});
					}
					return inner.complete(req);
				}
			})
		});
		expect(snap.status, snap.error?.message).toBe('done');
		// dcg asks two forced questions per case.
		expect(stageOf(snap, 'dcg')?.retries).toBe(4);
		expect(stageOf(snap, 'gen')?.retries).toBe(0);
		expect(snap.retries).toHaveLength(4);
	});
});

describe('a files round waiting for its outputs', () => {
	const KEY = 'sk-test-files';
	const filesRequest = (): RunRequest => ({
		...request(createSimulatedClient({ latencyMs: 0 }), { dataset: makeDataset(2) }),
		batch: 'files',
		clientSpec: clientSpecWith(KEY)
	});

	it('stops waiting on Stop: the plan says stopped, the round stays saved and is offered again', async () => {
		const store = new MemoryStore();
		const plans = memoryStorage();
		const controller = new RunController({ store, plans });
		const req = filesRequest();
		const first = await controller.start(req);
		expect(first.status).toBe('waiting');
		expect(loadPlans(plans)[0].status).toBe('paused');
		const round = first.batch!.view!.round;
		expect(round.status).toBe('written');
		const input = controller.batchInput(first.batch!.view!.inputs[0].name);
		expect(input).toBeTruthy();

		controller.stop();
		expect(controller.snapshot.status).toBe('stopped');
		expect(controller.active).toBe(false);
		// A reload takes up a batch run whose plan says paused (or running); a stopped one it lists.
		expect(loadPlans(plans)[0].status).toBe('stopped');
		const run = first.run!;
		expect((await store.readBatchState(run))?.rounds.at(-1)).toEqual(round);

		// Started again: the same round waits, with the same input file.
		const again = await controller.start(req);
		expect(again.status).toBe('waiting');
		expect(again.batch!.view!.round).toEqual(round);
		expect(controller.batchInput(again.batch!.view!.inputs[0].name)).toBe(input);
		expect(loadPlans(plans)[0].status).toBe('paused');
		// No key in the plans.
		expect(JSON.stringify(loadPlans(plans))).not.toContain(KEY);
	});
});
