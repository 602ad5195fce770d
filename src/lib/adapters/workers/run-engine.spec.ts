import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PROMPT_PACK } from '$lib/core/prompts';
import { DEFAULT_SETTINGS } from '$lib/core/records';
import { createSimulatedClient } from '$lib/core/simulated';
import type { SessionSnapshot } from '$lib/core/session';
import { MemoryStore } from '$lib/core/store/memory-store';
import { makeDataset } from '../../../../tests/fixtures/engine/cases';
import { memoryStorage } from '../../../../tests/support/memory-storage';
import { clientSpecWith, ENDPOINTS, MODELS } from '../../../../tests/support/run-request';
import { RunController, type RunRequest } from './run-controller';
import type { RpcPort, RpcReply, RpcRequest, RpcWords } from '../worker-rpc';
import { toWire, workerRunEngine } from './run-engine';
import { loadPlans, type RunPlan } from '$lib/core/control/run-plans';
import { idleSnapshot, runOf, type RunSnapshot } from '$lib/core/control/run-snapshot';
import { snapshotPoster, type RunEvent } from './run-worker-protocol';

/** The page's words for the worker client's failures, recognisable in a test. */
const WORDS: RpcWords = {
	stopped: (detail) => `stopped: ${detail}`,
	unreadable: () => 'unreadable',
	terminated: () => 'terminated'
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
		clientSpec: clientSpecWith(KEY),
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

/** A stand-in worker: records the calls the page posts; the test answers for it. */
class FakeWorker implements RpcPort {
	posted: RpcRequest[] = [];
	terminated = false;
	onmessage: ((event: MessageEvent<RpcReply>) => void) | null = null;
	onerror: ((event: ErrorEvent | Event) => void) | null = null;
	postMessage(message: RpcRequest): void {
		this.posted.push(message);
	}
	terminate(): void {
		this.terminated = true;
	}
	/** Sends `reply` for the call posted `index`-th. */
	send(index: number, reply: { event: RunEvent } | { result: unknown }): void {
		const { id } = this.posted[index];
		const data =
			'event' in reply ? { rpc: 'event', id, ...reply } : { rpc: 'result', id, ...reply };
		this.onmessage?.({ data } as MessageEvent<RpcReply>);
	}
	fail(message: string): void {
		this.onerror?.({ message, preventDefault() {} } as unknown as ErrorEvent);
	}
}

/** Until the page's calls reached the worker (the client loads on first use). */
const posted = (worker: FakeWorker, count: number) =>
	vi.waitFor(() => expect(worker.posted).toHaveLength(count));

/** A request the handlers run with the simulated provider (as the page's simulated runs). */
const simulated = (overrides: Partial<RunRequest> = {}) =>
	request({ clientSpec: { ...request().clientSpec!, simulated: true }, ...overrides });

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
			store: async () => new MemoryStore(),
			words: WORDS
		});
		const run = engine.start(request());
		engine.pause();
		await posted(worker, 2);
		expect(worker.posted.map((p) => p.rpc === 'call' && p.kind)).toEqual(['start', 'pause']);
		worker.send(0, { event: { snapshot: { ...idleSnapshot(), status: 'running' } } });
		worker.send(0, { event: { save: plan } });
		const at = new Date('2026-01-02T00:00:00.000Z');
		worker.send(0, {
			event: { status: [{ runId: 'r1', modelDir: 'eval-model' }, 'done', null, at] }
		});
		worker.send(0, { result: { ...idleSnapshot(), status: 'done' } });
		expect((await run).status).toBe('done');
		expect(seen.map((s) => s.status)).toEqual(['running', 'done']);
		expect(loadPlans(storage)).toEqual([
			{ ...plan, status: 'done', updatedAt: '2026-01-02T00:00:00.000Z' }
		]);
	});

	it('runs the request with the worker’s own handlers in this thread when the worker fails before it answers', async () => {
		const worker = new FakeWorker();
		const storage = memoryStorage();
		const store = new MemoryStore();
		const engine = workerRunEngine(() => worker, {
			plans: () => storage,
			onChange: () => {},
			store: async () => store,
			words: WORDS
		});
		// The page's own client is never used: the handlers build theirs from the spec, as the worker does.
		const makeClient = vi.fn(() => createSimulatedClient({ latencyMs: 0 }));
		const run = engine.start(simulated({ limit: 2, makeClient }));
		await posted(worker, 1);
		worker.fail('blocked by CSP');
		const last = await run;
		expect(last.status, last.error?.message).toBe('done');
		expect(makeClient).not.toHaveBeenCalled();
		expect(runOf(last)?.stages.find((c) => c.stage === 'ljp-direct')?.done).toBe(2);
		// The handlers wrote to the page's store, and their plan writes reached the page.
		expect(await store.listRuns()).toHaveLength(1);
		expect(loadPlans(storage)[0]?.status).toBe('done');
	});

	it('runs the same handlers in this thread when no worker can be made, a run and a plan', async () => {
		const storage = memoryStorage();
		const engine = workerRunEngine(null, {
			plans: () => storage,
			onChange: () => {},
			store: async () => new MemoryStore(),
			words: WORDS
		});
		const last = await engine.start(simulated({ limit: 1, stages: ['gen'] }));
		expect(last.status, last.error?.message).toBe('done');
		const role = (model: string) => ({ model, endpoint: ENDPOINTS.evaluated });
		const endpoint = (model: string) => ({ model, baseURL: ENDPOINTS.evaluated, apiKey: '' });
		const snapshots: SessionSnapshot[] = [];
		const end = await engine.startPlan(
			{
				planId: 'b'.repeat(64),
				simulated: true,
				spec: {
					runId: 'p',
					repetitions: 2,
					models: [{ evaluated: role('m') }],
					user: role('u'),
					judge: role('j')
				},
				dataset: makeDataset(1),
				limit: null,
				stages: ['gen'],
				settings: DEFAULT_SETTINGS,
				concurrency: 2,
				pack: DEFAULT_PROMPT_PACK,
				clients: [{ evaluated: endpoint('m'), user: endpoint('u'), judge: endpoint('j') }],
				keys: []
			},
			(s) => snapshots.push(s)
		);
		expect(end.error).toBeNull();
		expect(end.snapshot?.runs.map((r) => [r.runId, r.status])).toEqual([
			['p1', 'done'],
			['p2', 'done']
		]);
		expect(snapshots.length).toBeGreaterThan(0);
		expect(await engine.batchInput('missing.jsonl')).toEqual({ ok: true, text: null });
	});

	it('stops a files round waiting for its outputs: the run has ended, so Stop’s answer carries its news', async () => {
		const storage = memoryStorage();
		const seen: RunSnapshot[] = [];
		const engine = workerRunEngine(null, {
			plans: () => storage,
			onChange: (s) => seen.push(s),
			store: async () => new MemoryStore(),
			words: WORDS
		});
		const last = await engine.start(request({ limit: 1, stages: ['gen'], batch: 'files' }));
		expect(last.status, last.error?.message).toBe('waiting');
		expect(loadPlans(storage)[0]?.status).toBe('paused');
		engine.stop();
		await vi.waitFor(() => expect(engine.snapshot.status).toBe('stopped'));
		expect(seen.at(-1)?.status).toBe('stopped');
		expect(loadPlans(storage)[0]?.status).toBe('stopped');
	});

	it('ends the run as failed, saying so, when the worker dies during it', async () => {
		const worker = new FakeWorker();
		const engine = workerRunEngine(() => worker, {
			plans: () => memoryStorage(),
			onChange: () => {},
			store: async () => new MemoryStore(),
			words: WORDS
		});
		const run = engine.start(request());
		await posted(worker, 1);
		worker.send(0, { event: { snapshot: { ...idleSnapshot(), status: 'running' } } });
		worker.fail('out of memory');
		const last = await run;
		expect(last.status).toBe('failed');
		expect(last.error?.message).toBe('stopped: out of memory');
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
