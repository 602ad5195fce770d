/**
 * The run session: the runs of a plan under one scheduler. Calls in flight are counted per endpoint
 * across every run (two models on one server share its limit, models on two servers each have
 * theirs), no run starves, a failing run stops alone, pause holds the whole plan, and each run
 * writes what it writes started alone.
 */
import { describe, expect, it } from 'vitest';
import { comparableFiles } from '../../support/comparable-files';
import { runAll } from '../../../src/lib/core/engine/run-all';
import {
	openSession,
	type SessionOptions,
	type SessionRun,
	type SessionSnapshot
} from '../../../src/lib/core/session';
import type { ChatRequest, ChatResult, ModelClient } from '../../../src/lib/core/model/types';
import type { Role } from '../../../src/lib/core/record-names';
import { MemoryStore } from '../../../src/lib/core/store/memory-store';
import { makeDataset } from '../../fixtures/engine/cases';
import { outage, ScriptedClient } from '../engine/scripted-client';

const dataset = makeDataset(6);
const SHARED = { user: 'http://user.test/v1', judge: 'http://judge.test/v1' };

/** Calls in flight per endpoint, across every client made with it. */
class Meter {
	readonly inFlight = new Map<string, number>();
	readonly max = new Map<string, number>();
	/** Per run, the calls answered, in the order they were answered. */
	readonly answered: string[] = [];
	/** The most evaluated calls in flight at once over every endpoint. */
	maxEvaluated = 0;
	#evaluated = 0;

	client(runId: string, endpoints: Record<Role, string>, delay = 2): ModelClient {
		const scripted = new ScriptedClient();
		return {
			simulated: false,
			complete: async (req: ChatRequest): Promise<ChatResult> => {
				const endpoint = endpoints[req.role];
				const now = (this.inFlight.get(endpoint) ?? 0) + 1;
				this.inFlight.set(endpoint, now);
				this.max.set(endpoint, Math.max(this.max.get(endpoint) ?? 0, now));
				if (req.role === 'evaluated')
					this.maxEvaluated = Math.max(this.maxEvaluated, ++this.#evaluated);
				try {
					await new Promise((r) => setTimeout(r, delay));
					const result = await scripted.complete(req);
					this.answered.push(runId);
					return result;
				} finally {
					this.inFlight.set(endpoint, this.inFlight.get(endpoint)! - 1);
					if (req.role === 'evaluated') this.#evaluated--;
				}
			}
		};
	}
}

function planRun(
	meter: Meter,
	store: MemoryStore,
	model: string,
	runId: string,
	evaluated: string,
	client?: ModelClient
): SessionRun & { client: ModelClient } {
	const endpoints = { evaluated, ...SHARED };
	return {
		dataset,
		store,
		runId,
		models: { evaluated: model, user: 'user-model', judge: 'judge-model' },
		endpoints,
		client: client ?? meter.client(`${model}/${runId}`, endpoints),
		mode: { kind: 'interactive' }
	};
}

/** A session over `options.runs`, to its end. */
const runPlan = (options: SessionOptions) => openSession(options).done;

/** A store's files less what differs between two starts (start times, call timings). */
const comparable = (store: MemoryStore) => comparableFiles(store.toFiles());

describe('a session of several runs', { timeout: 30_000 }, () => {
	it('counts calls per endpoint across runs: one shared server keeps its limit', async () => {
		const meter = new Meter();
		const store = new MemoryStore();
		const runs = ['m-a', 'm-b'].flatMap((m) =>
			['r1', 'r2'].map((r) => planRun(meter, store, m, r, 'http://one.test/v1'))
		);
		const result = await runPlan({ runs, concurrency: 3 });
		expect(result.complete).toBe(true);
		expect(meter.max.get('http://one.test/v1')).toBe(3);
		expect(meter.max.get(SHARED.judge)).toBe(3);
		expect(meter.max.get(SHARED.user)).toBeLessThanOrEqual(3);
	});

	it('gives models on two servers a limit each', async () => {
		const meter = new Meter();
		const store = new MemoryStore();
		const runs = [
			planRun(meter, store, 'm-a', 'r1', 'http://a.test/v1'),
			planRun(meter, store, 'm-b', 'r1', 'http://b.test/v1')
		];
		const result = await runPlan({ runs, concurrency: 2 });
		expect(result.complete).toBe(true);
		expect(meter.max.get('http://a.test/v1')).toBe(2);
		expect(meter.max.get('http://b.test/v1')).toBe(2);
		// Both servers were busy at once: 2 + 2 evaluated calls in flight, above either limit.
		expect(meter.maxEvaluated).toBe(4);
	});

	it('starves no run: each run has answered calls before any run is done', async () => {
		const meter = new Meter();
		const store = new MemoryStore();
		const runs = ['r1', 'r2', 'r3', 'r4'].map((r) =>
			planRun(meter, store, 'm-a', r, 'http://one.test/v1')
		);
		const result = await runPlan({ runs, concurrency: 2 });
		expect(result.complete).toBe(true);
		const total = meter.answered.length / runs.length;
		// Within the first half of the plan's calls, every run made at least a quarter of its own.
		const firstHalf = meter.answered.slice(0, meter.answered.length / 2);
		for (const run of runs) {
			const own = firstHalf.filter((r) => r === `m-a/${run.runId}`).length;
			expect(own, run.runId).toBeGreaterThanOrEqual(total / 4);
		}
	});

	it('keeps one window of tasks for runs on the same endpoints, not one per run', async () => {
		const meter = new Meter();
		const store = new MemoryStore();
		const runs = ['r1', 'r2', 'r3', 'r4'].map((r) =>
			planRun(meter, store, 'm-a', r, 'http://one.test/v1')
		);
		let most = 0;
		await runPlan({
			runs,
			concurrency: 1,
			snapshotIntervalMs: 0,
			onSnapshot: (s) => {
				const tasks = s.runs.reduce(
					(sum, row) => sum + (row.run?.stages.reduce((n, st) => n + st.inFlight, 0) ?? 0),
					0
				);
				most = Math.max(most, tasks);
			}
		});
		// Three endpoints at limit 1: 2 + 2 × 3 tasks for the four runs together.
		expect(most).toBe(8);
	});

	it('writes what each run writes started alone', async () => {
		const meter = new Meter();
		const together = new MemoryStore();
		const runs = ['m-a', 'm-b'].flatMap((m) =>
			['r1', 'r2'].map((r) => planRun(meter, together, m, r, 'http://one.test/v1'))
		);
		expect((await runPlan({ runs, concurrency: 4 })).complete).toBe(true);
		const alone = new MemoryStore();
		for (const run of runs) {
			await runAll({ ...run, store: alone, concurrency: 4 });
		}
		expect(comparable(together)).toEqual(comparable(alone));
		expect(comparable(together).size).toBeGreaterThan(4 * 10);
	});

	it('a failing run stops alone; the others complete and the plan says which failed', async () => {
		const meter = new Meter();
		const store = new MemoryStore();
		const broken = new ScriptedClient((req) => (req.role === 'judge' ? outage(req) : undefined));
		const runs = [
			planRun(meter, store, 'm-a', 'r1', 'http://one.test/v1'),
			planRun(meter, store, 'm-b', 'r1', 'http://one.test/v1', broken),
			planRun(meter, store, 'm-c', 'r1', 'http://one.test/v1')
		];
		const result = await runPlan({ runs, concurrency: 2 });
		expect(result.complete).toBe(false);
		expect(result.runs.map((r) => r.status)).toEqual(['done', 'failed', 'done']);
		expect(String(result.runs[1].error)).toContain('503');
		expect(result.snapshot.status).toBe('failed');
		expect(result.snapshot.runs.map((r) => r.status)).toEqual(['done', 'failed', 'done']);
	});

	it('pause holds every run until resume; the plan then completes', async () => {
		const meter = new Meter();
		const store = new MemoryStore();
		const runs = ['r1', 'r2'].map((r) => planRun(meter, store, 'm-a', r, 'http://one.test/v1'));
		const snapshots: SessionSnapshot[] = [];
		let answeredAtPause = -1;
		const session = openSession({
			runs,
			concurrency: 2,
			snapshotIntervalMs: 0,
			onSnapshot: (s) => {
				snapshots.push(s);
				if (answeredAtPause < 0 && s.calls.done >= 10) {
					answeredAtPause = s.calls.done;
					session.pause();
				}
			}
		});
		// Paused: tasks under way finish, then nothing moves.
		await until(() => snapshots.at(-1)?.status === 'paused' && idle(meter));
		expect(snapshots.at(-1)?.underWay).toBe(0);
		expect(snapshots.some((s) => s.status === 'running' && s.underWay > 0)).toBe(true);
		const held = meter.answered.length;
		await new Promise((r) => setTimeout(r, 50));
		expect(meter.answered.length).toBe(held);
		expect(held).toBeLessThan(200);
		expect(snapshots.some((s) => s.status === 'pausing')).toBe(true);
		session.resume();
		const result = await session.done;
		expect(result.complete).toBe(true);
		expect(meter.answered.length).toBeGreaterThan(held);
	});

	it('a stop during a pause ends every run as stopped', async () => {
		const meter = new Meter();
		const store = new MemoryStore();
		const runs = ['r1', 'r2'].map((r) => planRun(meter, store, 'm-a', r, 'http://one.test/v1'));
		const stop = new AbortController();
		const session = openSession({ runs, concurrency: 2, signal: stop.signal });
		session.pause();
		await new Promise((r) => setTimeout(r, 20));
		stop.abort();
		const result = await session.done;
		expect(result.runs.map((r) => r.status)).toEqual(['stopped', 'stopped']);
		expect(result.snapshot.status).toBe('stopped');
		expect(meter.answered).toEqual([]);
	});

	it('refuses a plan that names one run twice, before any call', async () => {
		const meter = new Meter();
		const store = new MemoryStore();
		const run = planRun(meter, store, 'm-a', 'r1', 'http://one.test/v1');
		await expect(runPlan({ runs: [run, run] })).rejects.toThrow('twice');
		expect(meter.answered).toEqual([]);
	});
});

describe('the spending cap, kept with the plan', { timeout: 30_000 }, () => {
	const PLAN = 'a'.repeat(64);
	// 1000 a million tokens: each scripted call (10 in, 5 out) costs 0.015.
	const price = { input: 1000, output: 1000 };
	const prices = {
		currency: 'USD',
		models: { 'm-a': price, 'user-model': price, 'judge-model': price }
	};
	const untilStatus = (snapshots: SessionSnapshot[], status: string) =>
		until(() => snapshots.at(-1)?.status === status);

	it('pauses at the cap, a new session stays paused at it with the spend continuing, a higher cap resumes it', async () => {
		const meter = new Meter();
		const store = new MemoryStore();
		const runs = () =>
			['r1', 'r2'].map((r) => planRun(meter, store, 'm-a', r, 'http://one.test/v1'));
		const first: SessionSnapshot[] = [];
		const session = openSession({
			runs: runs(),
			concurrency: 2,
			snapshotIntervalMs: 0,
			spend: { store, planId: PLAN, prices, cap: 0.3 },
			onSnapshot: (s) => first.push(s)
		});
		await untilStatus(first, 'paused');
		const held = meter.answered.length;
		expect(first.at(-1)!.spend).toMatchObject({ cap: 0.3, capped: true, currency: 'USD' });
		expect(first.at(-1)!.spend!.spent).toBeGreaterThan(0.3);
		// Tasks under way finished, and nothing starts while the cap holds.
		await new Promise((r) => setTimeout(r, 50));
		expect(meter.answered.length).toBe(held);
		session.resume();
		await new Promise((r) => setTimeout(r, 20));
		expect(meter.answered.length).toBe(held);
		session.stop();
		const ended = await session.done;
		expect(ended.runs.map((r) => r.status)).toEqual(['stopped', 'stopped']);
		const saved = await store.readPlanSpend(PLAN);
		expect(saved).toMatchObject({ cap: 0.3, capped: true });
		expect(saved!.spent).toBeCloseTo(held * 0.015, 6);

		// The same plan again, no cap given: the saved one holds it paused, the spend goes on.
		const second: SessionSnapshot[] = [];
		const again = openSession({
			runs: runs(),
			concurrency: 2,
			snapshotIntervalMs: 0,
			spend: { store, planId: PLAN, prices },
			onSnapshot: (s) => second.push(s)
		});
		await untilStatus(second, 'paused');
		expect(second.at(-1)!.spend).toMatchObject({ cap: 0.3, capped: true });
		expect(second.at(-1)!.spend!.spent).toBeCloseTo(saved!.spent, 6);
		await new Promise((r) => setTimeout(r, 50));
		expect(meter.answered.length).toBe(held);

		again.setCap(100);
		const done = await again.done;
		expect(done.complete).toBe(true);
		expect(meter.answered.length).toBeGreaterThan(held);
		const total = meter.answered.length * 0.015;
		expect(done.snapshot.spend!.spent).toBeCloseTo(total, 6);
		expect(await store.readPlanSpend(PLAN)).toMatchObject({ cap: 100, capped: false });
		expect((await store.readPlanSpend(PLAN))!.spent).toBeCloseTo(total, 6);
	});

	it('with a cap, finishes runs in order: a cap at half the cost leaves about half the runs complete', async () => {
		const all = { 'm-b': price, 'm-c': price, ...prices.models };
		const plan = (meter: Meter, store: MemoryStore) =>
			['m-a', 'm-b', 'm-c'].flatMap((m) =>
				['r1', 'r2'].map((r, i) => ({
					...planRun(meter, store, m, r, 'http://one.test/v1'),
					repetition: i + 1
				}))
			);
		// What the whole plan costs, run without a cap.
		const whole = new Meter();
		expect((await runPlan({ runs: plan(whole, new MemoryStore()), concurrency: 2 })).complete).toBe(
			true
		);
		const cost = whole.answered.length * 0.015;

		const meter = new Meter();
		const store = new MemoryStore();
		const snapshots: SessionSnapshot[] = [];
		const session = openSession({
			runs: plan(meter, store),
			concurrency: 2,
			snapshotIntervalMs: 0,
			spend: { store, planId: PLAN, prices: { ...prices, models: all }, cap: cost / 2 },
			onSnapshot: (s) => snapshots.push(s)
		});
		await untilStatus(snapshots, 'paused');
		session.stop();
		const { snapshot } = await session.done;
		const complete = (row: SessionSnapshot['runs'][number]) =>
			row.run !== null && row.run.cases.done === row.run.cases.total;
		const done = snapshot.runs.filter(complete).map((r) => `${r.model}/${r.runId}`);
		// Half the money, about half of the six runs: repetition 1 of each model first, in order
		// (every run half done, none complete, before).
		expect(done.length, done.join(', ')).toBeGreaterThanOrEqual(2);
		expect(done.length, done.join(', ')).toBeLessThanOrEqual(4);
		expect(done.slice(0, 2)).toEqual(['m-a/r1', 'm-b/r1']);
		const first = snapshot.runs.filter((r) => r.repetition === 1);
		if (!first.every(complete)) expect(done.every((d) => d.endsWith('/r1'))).toBe(true);
	});

	it('a saved spend that is not one (edited, hostile) counts as none', async () => {
		const store = new MemoryStore();
		await store.writePlanSpend(PLAN, {
			cap: -1,
			spent: Number.NaN,
			currency: 'USD',
			capped: true,
			updated_at: ''
		});
		expect(await store.readPlanSpend(PLAN)).toBeNull();
	});
});

describe('run modes of one session', { timeout: 30_000 }, () => {
	it('a run in turn (stage after stage) writes what stages run together write, and pauses', async () => {
		const meter = new Meter();
		const inTurn = new MemoryStore();
		const run = planRun(meter, inTurn, 'm-a', 'r1', 'http://one.test/v1');
		const snapshots: SessionSnapshot[] = [];
		let paused = false;
		const session = openSession({
			runs: [{ ...run, mode: { kind: 'interactive', inTurn: true, stages: ['gen', 'dcg'] } }],
			concurrency: 2,
			snapshotIntervalMs: 0,
			onSnapshot: (s) => {
				snapshots.push(s);
				if (s.calls.done >= 5 && !paused) {
					paused = true;
					session.pause();
				}
			}
		});
		await until(() => snapshots.at(-1)?.status === 'paused' && idle(meter));
		expect(snapshots.at(-1)?.underWay).toBe(0);
		expect(snapshots.some((s) => s.status === 'running' && s.underWay > 0)).toBe(true);
		const held = meter.answered.length;
		await new Promise((r) => setTimeout(r, 50));
		expect(meter.answered.length).toBe(held);
		session.resume();
		const result = await session.done;
		expect(result.complete).toBe(true);
		expect(result.snapshot.runs[0].run!.stages.map((s) => [s.stage, s.done])).toEqual([
			['gen', 6],
			['dcg', 6]
		]);
		const together = new MemoryStore();
		await runAll({ ...run, store: together, stages: ['gen', 'dcg'], concurrency: 2 });
		expect(comparable(inTurn)).toEqual(comparable(together));
	});
});

function idle(meter: Meter): boolean {
	return [...meter.inFlight.values()].every((n) => n === 0);
}

async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((r) => setTimeout(r, 2));
}
