import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PROMPT_PACK } from '$lib/core/prompts';
import { DEFAULT_SETTINGS } from '$lib/core/records';
import { createSimulatedClient } from '$lib/core/simulated';
import { MemoryStore } from '$lib/core/store/memory-store';
import { makeDataset } from '../../../tests/fixtures/engine/cases';
import { memoryStorage } from '../../../tests/support/memory-storage';
import { RunController, type RunRequest } from './run-controller';
import { workerRunEngine, type RunWorkerLike } from './run-engine';
import { loadPlans, type RunPlan } from './run-plans';
import { idleSnapshot, runOf, type RunSnapshot } from './run-snapshot';
import { snapshotPoster, toWire, type FromWorker, type ToWorker } from './run-worker-protocol';

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

describe('snapshotPoster', () => {
	afterEach(() => vi.useRealTimers());

	it('posts a change of status at once and coalesces the rest to one post per interval', () => {
		vi.useFakeTimers();
		const posted: RunSnapshot[] = [];
		const throttle = snapshotPoster((s) => posted.push(s), 50);
		const running = { ...idleSnapshot(), status: 'running' as const };
		throttle.changed(running);
		expect(posted).toHaveLength(1);
		for (let i = 1; i <= 5; i++) throttle.changed({ ...running, warnings: [`${i}`] });
		expect(posted).toHaveLength(1);
		vi.advanceTimersByTime(50);
		expect(posted.map((s) => s.warnings.join())).toEqual(['', '5']);
		throttle.changed({ ...running, warnings: ['6'] });
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
		expect(runOf(last)?.stages.find((c) => c.stage === 'ljp-direct')?.done).toBe(2);
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
		const run = runOf(snap)!;
		const calls = run.stages.reduce((sum, c) => sum + c.calls, 0);
		expect(snap.session?.calls).toMatchObject({ done: calls, estimatedTotal: calls });
		expect(run.cases).toEqual({ done: 3, total: 3 });
		expect(run.concurrency.max).toBe(2);
	});
});
