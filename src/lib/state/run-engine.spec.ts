import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StageName, StageProgress } from '$lib/core/engine/types';
import { DEFAULT_PROMPT_PACK } from '$lib/core/prompts';
import { DEFAULT_SETTINGS } from '$lib/core/records';
import { createSimulatedClient } from '$lib/core/simulated';
import { MemoryStore } from '$lib/core/store/memory-store';
import { makeDataset } from '../../../tests/fixtures/engine/cases';
import { memoryStorage } from '../../../tests/support/memory-storage';
import { RunController, type RunRequest } from './run-controller';
import { workerRunEngine, type RunWorkerLike } from './run-engine';
import { overallProgress } from './run-overall';
import { loadPlans, type RunPlan } from './run-plans';
import { idleSnapshot, type RunSnapshot } from './run-snapshot';
import { SnapshotThrottle, toWire, type FromWorker, type ToWorker } from './run-worker-protocol';

const MODELS = { evaluated: 'eval-model', user: 'user-model', judge: 'judge-model' };
const ENDPOINTS = {
	evaluated: 'http://e.test/v1',
	user: 'http://u.test/v1',
	judge: 'http://j.test/v1'
};
const KEY = 'sk-spec-4f1c9e2a7b';

function request(overrides: Partial<RunRequest> = {}): RunRequest {
	return {
		dataset: makeDataset(6),
		datasetName: 'cases.json',
		runId: 'r1',
		limit: null,
		stages: ['gen', 'ljp-direct'],
		models: MODELS,
		endpoints: ENDPOINTS,
		settings: DEFAULT_SETTINGS,
		concurrency: 2,
		pack: DEFAULT_PROMPT_PACK,
		keys: [KEY],
		makeClient: () => createSimulatedClient({ latencyMs: 0 }),
		clientSpec: {
			simulated: false,
			endpoints: {
				evaluated: { baseURL: ENDPOINTS.evaluated, apiKey: KEY, model: MODELS.evaluated },
				user: { baseURL: ENDPOINTS.user, apiKey: KEY, model: MODELS.user },
				judge: { baseURL: ENDPOINTS.judge, apiKey: KEY, model: MODELS.judge }
			},
			settings: DEFAULT_SETTINGS,
			concurrency: 2,
			pack: DEFAULT_PROMPT_PACK
		},
		...overrides
	};
}

function stage(
	name: StageName,
	fields: Partial<Omit<StageProgress, 'calls'>> & { calls?: number }
): StageProgress {
	const calls = fields.calls ?? 0;
	return {
		stage: name,
		status: 'running',
		total: 10,
		done: 0,
		resumed: 0,
		inFlight: 0,
		retries: 0,
		failures: 0,
		tokens: {
			evaluated: { prompt: 0, completion: 0 },
			user: { prompt: 0, completion: 0 },
			judge: { prompt: 0, completion: 0 }
		},
		startedAt: 0,
		elapsedMs: 0,
		...fields,
		calls: { evaluated: calls, user: 0, judge: 0 }
	};
}

const concurrency = { limit: 4, max: 4, casesUnderWay: 2 };

describe('overallProgress', () => {
	it('counts calls of every stage, estimates the rest from the calls a case took, and the time left from the rate', () => {
		const o = overallProgress({
			stages: ['gen', 'ljp-direct'],
			progress: { gen: stage('gen', { done: 4, inFlight: 2, calls: 40 }) },
			total: 10,
			perSecond: 5,
			paused: false,
			concurrency
		});
		// gen: 40 calls over 4 + 2/2 cases = 8 a case, 10 − 4 − 1 = 5 cases left → 40; Direct not
		// started: 10 cases × 2 calls.
		expect(o.calls).toEqual({ done: 40, estimatedTotal: 100 });
		expect(o.cases).toEqual({ done: 0, total: 10 });
		expect(o.etaMs).toBe(12_000);
		expect(o.concurrency).toEqual(concurrency);
	});

	it('counts a case done once every stage is, uses the saved cases of a stage not started, and gives no time left while paused', () => {
		const o = overallProgress({
			stages: ['gen', 'ljp-direct'],
			progress: { gen: stage('gen', { status: 'done', done: 10, resumed: 2, calls: 64 }) },
			total: 10,
			saved: { 'ljp-direct': 3 },
			perSecond: 5,
			paused: true,
			concurrency
		});
		expect(o.cases.done).toBe(3);
		expect(o.calls).toEqual({ done: 64, estimatedTotal: 64 + 7 * 2 });
		expect(o.etaMs).toBeNull();
	});
});

describe('SnapshotThrottle', () => {
	afterEach(() => vi.useRealTimers());

	it('posts a change of status at once and coalesces the rest to one post per interval', () => {
		vi.useFakeTimers();
		const posted: RunSnapshot[] = [];
		const throttle = new SnapshotThrottle((s) => posted.push(s), 50);
		const running = { ...idleSnapshot(), status: 'running' as const };
		throttle.changed(running);
		expect(posted).toHaveLength(1);
		for (let i = 1; i <= 5; i++) throttle.changed({ ...running, waiting: i });
		expect(posted).toHaveLength(1);
		vi.advanceTimersByTime(50);
		expect(posted.map((s) => s.waiting)).toEqual([0, 5]);
		throttle.changed({ ...running, waiting: 6 });
		throttle.changed({ ...running, status: 'pausing' });
		expect(posted.at(-1)?.status).toBe('pausing');
		vi.advanceTimersByTime(100);
		expect(posted).toHaveLength(3);
	});
});

describe('toWire', () => {
	it('is plain data a worker can receive, with the keys only where the client needs them', () => {
		const wire = toWire(request());
		expect(() => structuredClone(wire)).not.toThrow();
		expect(wire).not.toHaveProperty('makeClient');
		expect(wire.clientSpec.endpoints.judge.apiKey).toBe(KEY);
		const { clientSpec, keys, ...rest } = wire;
		expect(keys).toEqual([KEY]);
		expect(clientSpec.simulated).toBe(false);
		expect(JSON.stringify(rest)).not.toContain(KEY);
	});

	it('refuses a request built without its client spec', () => {
		expect(() => toWire(request({ clientSpec: undefined }))).toThrow(/client spec/);
	});
});

/** A stand-in worker: records what the page posts; the test answers for it. */
class FakeWorker implements RunWorkerLike {
	posted: ToWorker[] = [];
	terminated = false;
	onmessage: ((event: MessageEvent<FromWorker>) => void) | null = null;
	onerror: ((event: ErrorEvent | Event) => void) | null = null;
	postMessage(message: ToWorker): void {
		this.posted.push(message);
	}
	terminate(): void {
		this.terminated = true;
	}
	send(message: FromWorker): void {
		this.onmessage?.({ data: message } as MessageEvent<FromWorker>);
	}
	fail(message: string): void {
		this.onerror?.({ message, preventDefault() {} } as unknown as ErrorEvent);
	}
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('workerRunEngine', () => {
	const plan: RunPlan = {
		runId: 'r1',
		modelDir: 'eval-model',
		stages: ['gen'],
		concurrency: 2,
		datasetName: 'cases.json',
		status: 'running',
		error: null,
		updatedAt: '2026-01-01T00:00:00.000Z'
	};

	it('sends the request, shows the worker’s snapshots, keeps its plan writes and ends with its last snapshot', async () => {
		const worker = new FakeWorker();
		const storage = memoryStorage();
		const seen: RunSnapshot[] = [];
		const engine = workerRunEngine(() => worker, {
			plans: () => storage,
			onChange: (s) => seen.push(s),
			store: async () => new MemoryStore()
		});
		const run = engine.start(request());
		await flush();
		expect(worker.posted[0].type).toBe('start');
		engine.pause();
		expect(worker.posted[1]).toEqual({ type: 'pause' });
		worker.send({ type: 'snapshot', snapshot: { ...idleSnapshot(), status: 'running' } });
		worker.send({ type: 'plan-save', plan });
		worker.send({
			type: 'plan-status',
			run: { runId: 'r1', modelDir: 'eval-model' },
			status: 'done',
			error: null,
			at: '2026-01-02T00:00:00.000Z'
		});
		worker.send({ type: 'ended', snapshot: { ...idleSnapshot(), status: 'done' } });
		expect((await run).status).toBe('done');
		expect(seen.map((s) => s.status)).toEqual(['running', 'done']);
		expect(loadPlans(storage)).toEqual([
			{ ...plan, status: 'done', updatedAt: '2026-01-02T00:00:00.000Z' }
		]);
	});

	it('runs the request in this thread when the worker fails before it answers', async () => {
		const worker = new FakeWorker();
		const storage = memoryStorage();
		const engine = workerRunEngine(() => worker, {
			plans: () => storage,
			onChange: () => {},
			store: async () => new MemoryStore()
		});
		const run = engine.start(request({ limit: 2 }));
		await flush();
		worker.fail('blocked by CSP');
		const last = await run;
		expect(last.status, last.error?.message).toBe('done');
		expect(last.progress['ljp-direct']?.done).toBe(2);
		expect(loadPlans(storage)[0]?.status).toBe('done');
	});

	it('ends the run as failed, saying so, when the worker dies during it', async () => {
		const worker = new FakeWorker();
		const engine = workerRunEngine(() => worker, {
			plans: () => memoryStorage(),
			onChange: () => {},
			store: async () => new MemoryStore()
		});
		const run = engine.start(request());
		await flush();
		worker.send({ type: 'snapshot', snapshot: { ...idleSnapshot(), status: 'running' } });
		worker.fail('out of memory');
		const last = await run;
		expect(last.status).toBe('failed');
		expect(last.error?.message).toMatch(/worker stopped: out of memory.*stay saved/);
		expect(worker.terminated).toBe(true);
	});
});

describe('RunController, the whole run', () => {
	it('ends with every call and case counted', async () => {
		const controller = new RunController({ store: new MemoryStore(), plans: memoryStorage() });
		const snap = await controller.start(request({ limit: 3 }));
		expect(snap.status, snap.error?.message).toBe('done');
		const calls = Object.values(snap.progress).reduce(
			(sum, p) => sum + p.calls.evaluated + p.calls.user + p.calls.judge,
			0
		);
		expect(snap.overall?.calls).toEqual({ done: calls, estimatedTotal: calls });
		expect(snap.overall?.cases).toEqual({ done: 3, total: 3 });
		expect(snap.overall?.concurrency.max).toBe(2);
	});
});
