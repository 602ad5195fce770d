/**
 * The dataset load protocol end to end: the worker side (dataset-load-handler.ts), the page side
 * (dataset-load-protocol.ts and dataset-loader.ts: receivers, loaders) and the messages between them. One file
 * because both sides are tested against the same recorded exchange (`exchange`) and the same
 * factory datasets: a message the worker posts is what the receiver must read.
 */
import { describe, expect, it, vi } from 'vitest';
import { datasetBytes, validCase, validCases } from '../../../../tests/fixtures/datasets/factory';
import { loadDataset } from '$lib/core/dataset/load';
import { MAX_LISTED_PROBLEMS } from '$lib/core/dataset/problems';
import type { Case } from '$lib/core/dataset/types';
import { inThreadPort, type RpcPort, type RpcReply, type RpcRequest } from '../worker-rpc';
import {
	capProblems,
	chunkCases,
	datasetHandlers,
	handleLoadRequest,
	type HandlerOptions,
	type Kept
} from './dataset-load-handler';
import {
	notShownByKind,
	LoadReceiver,
	type LoadResponse,
	type LoadWords,
	type Progress,
	type WorkerRequest
} from './dataset-load-protocol';
import { inThreadLoader, workerLoader } from './dataset-loader';

/** The page's words, in a form each test can recognise. */
const WORDS: LoadWords = {
	notHeld: () => 'not held',
	broken: (detail) => `broken${detail ? `: ${detail}` : ''}`,
	stopped: (detail) => `stopped: ${detail}`,
	unreadable: () => 'unreadable',
	terminated: () => 'terminated'
};

/** Runs the worker's side and records every message with its transfer list. */
async function exchange(bytes: Uint8Array, options: HandlerOptions = {}) {
	const sent: Array<{ message: LoadResponse; transfer: Transferable[] }> = [];
	const buffer = bytes.slice().buffer;
	await handleLoadRequest(
		{ type: 'load', id: 7, source: buffer, options: { fileName: 'x.json' } },
		(message, transfer = []) => sent.push({ message, transfer }),
		options
	);
	return { sent, buffer };
}

/** A problem of case 0 in `field` (null: the case as a whole). */
const problemIn = (field: string | null) => ({
	caseIndex: 0,
	caseNumber: null,
	field,
	messageIndex: null,
	message: 'm',
	text: 'm'
});

describe('handleLoadRequest (the worker side)', () => {
	it('posts progress, then the head with the bytes transferred back, then every case in order', async () => {
		const bytes = datasetBytes(validCases(300));
		const { sent, buffer } = await exchange(bytes, { chunkCases: 70 });
		const types = sent.map((s) => s.message.type);
		expect(types[0]).toBe('progress');
		const head = sent.findIndex((s) => s.message.type === 'valid');
		expect(types.slice(0, head).every((t) => t === 'progress')).toBe(true);
		expect(types.slice(head + 1)).toEqual(['cases', 'cases', 'cases', 'cases', 'cases']);
		expect(sent[head].transfer).toEqual([buffer]);
		expect(sent.every((s) => s.message.id === 7)).toBe(true);

		const receiver = new LoadReceiver(WORDS);
		let outcome = null;
		for (const { message } of sent) outcome ??= receiver.accept(message);
		const expected = await loadDataset(bytes, { fileName: 'x.json' });
		if (!expected.ok || outcome?.kind !== 'valid') throw new Error('expected a valid dataset');
		expect(outcome.dataset).toEqual(expected.dataset);
		// Compared as a Buffer: toEqual walks a typed array element by element, slowly.
		expect(Buffer.from(outcome.bytes!).equals(bytes)).toBe(true);
	});

	it('cuts a long problem list to the first items and counts the rest by kind', async () => {
		const bytes = new TextEncoder().encode(JSON.stringify(Array.from({ length: 400 }, () => ({}))));
		const { sent, buffer } = await exchange(bytes);
		const last = sent.at(-1)!;
		if (last.message.type !== 'invalid')
			throw new Error(`expected invalid, got ${last.message.type}`);
		const full = await loadDataset(bytes, { fileName: 'x.json' });
		if (full.ok) throw new Error('expected problems');
		// The core keeps its first 500 and one line counting the rest: the page gets those 500 as
		// items (without the line) and the counts by kind.
		expect(full.problemCount).toBeGreaterThan(MAX_LISTED_PROBLEMS + 1);
		const { problems } = last.message;
		expect(problems.total).toBe(full.problemCount);
		expect(problems.items).toEqual(full.problems.slice(0, MAX_LISTED_PROBLEMS));
		expect(Object.fromEntries(problems.omitted.map((k) => [k.kind, k.count]))).toEqual(
			full.moreProblems
		);
		const omitted = problems.omitted.reduce((n, k) => n + k.count, 0);
		expect(omitted).toBe(full.problemCount - MAX_LISTED_PROBLEMS);
		expect(last.transfer).toEqual([buffer]);
		expect(last.message.sha256).toBe(full.sha256);
	});

	it('answers "failed" with the bytes back when the loader throws', async () => {
		const { sent, buffer } = await exchange(new Uint8Array([1, 2, 3]), {
			load: async () => {
				throw new Error('out of memory');
			}
		});
		expect(sent).toEqual([
			{
				message: { type: 'failed', id: 7, bytes: buffer, message: 'out of memory' },
				transfer: [buffer]
			}
		]);
	});
});

describe('capProblems', () => {
	it('keeps every problem when few, and counts the omitted ones by field, most first', () => {
		const list = [
			problemIn('a'),
			problemIn('b'),
			problemIn('b'),
			problemIn(null),
			problemIn('b'),
			problemIn('c'),
			problemIn('c')
		];
		expect(capProblems(list, 10)).toEqual({ items: list, total: 7, omitted: [] });
		expect(capProblems(list, 2)).toEqual({
			items: list.slice(0, 2),
			total: 7,
			omitted: [
				{ kind: 'b', count: 2 },
				{ kind: 'c', count: 2 },
				{ kind: 'file', count: 1 }
			]
		});
	});
});

describe('chunkCases', () => {
	const kase = (i: number, chars: number): Case => ({
		index: i,
		case_number: String(i),
		case_number_value: i,
		cause_of_action: '',
		plaintiff_type: '',
		focal_points: [],
		key_details: '',
		claims: [],
		complete: [{ role: 'user', content: 'x'.repeat(chars) }],
		underspecified: []
	});

	it('bounds chunks by case count and by characters, sending a huge case alone', () => {
		const cases = [kase(0, 10), kase(1, 10), kase(2, 10), kase(3, 500), kase(4, 10), kase(5, 10)];
		const chunks = [...chunkCases(cases, 2, 100)];
		expect(chunks.map((c) => [c.from, c.cases.map((k) => k.index)])).toEqual([
			[0, [0, 1]],
			[2, [2]],
			[3, [3]],
			[4, [4, 5]]
		]);
	});
});

describe('LoadReceiver', () => {
	it('reports receiving progress and refuses chunks out of order', () => {
		const progress: Progress[] = [];
		const receiver = new LoadReceiver(WORDS, (p) => progress.push(p));
		const head = {
			sha256: 'x',
			historyFields: { complete: 'a', underspecified: 'b' },
			categories: {},
			summary: {} as never,
			caseCount: 4
		};
		const warnings = { items: [], total: 0, omitted: [] };
		expect(
			receiver.accept({
				type: 'valid',
				id: 1,
				bytes: new ArrayBuffer(1),
				head,
				casesFollow: true,
				warnings
			})
		).toBeNull();
		expect(receiver.accept({ type: 'cases', id: 1, from: 0, cases: [{} as Case] })).toBeNull();
		expect(progress).toEqual([{ phase: 'receiving', done: 1, total: 4 }]);
		const outcome = receiver.accept({ type: 'cases', id: 1, from: 3, cases: [{} as Case] });
		expect(outcome?.kind).toBe('failed');
	});
});

describe('the loader in this thread, with structured cloning', () => {
	it('sends every message across a clone boundary, transfers the bytes and gives them back', async () => {
		const bytes = datasetBytes([validCase(1), validCase(2)]);
		const original = bytes.slice();
		const progress: Progress[] = [];
		const outcome = await inThreadLoader(WORDS).load(bytes, {}, (p) => progress.push(p));
		// Transferred, not copied: the caller's view is detached.
		expect(bytes.byteLength).toBe(0);
		if (outcome.kind !== 'valid') throw new Error(`expected valid, got ${outcome.kind}`);
		expect(outcome.bytes).toEqual(original);
		expect(outcome.dataset?.cases.map((c) => c.case_number)).toEqual(['T-001', 'T-002']);
		expect(progress.map((p) => p.phase)).toContain('reading');
		expect(progress.at(-1)).toEqual({ phase: 'receiving', done: 2, total: 2 });
	});
});

/** A Worker stand-in that runs the real handlers, so the client's routing is what is tested. */
class FakeWorker implements RpcPort {
	onmessage: RpcPort['onmessage'] = null;
	onerror: RpcPort['onerror'] = null;
	onmessageerror: RpcPort['onmessageerror'] = null;
	terminated = false;
	requests: WorkerRequest[] = [];
	readonly kept: Kept = { current: null };
	#inner: RpcPort;
	constructor(
		public answer: boolean,
		eagerCases?: number
	) {
		// The real handlers, every message cloned, as a worker does.
		this.#inner = inThreadPort(() =>
			datasetHandlers({ kept: this.kept, eagerCases, chunkCases: 3 })
		);
		this.#inner.onmessage = (event: MessageEvent<RpcReply>) => this.onmessage?.(event);
	}
	postMessage(message: RpcRequest, transfer?: Transferable[]): void {
		if (message.rpc === 'call') this.requests.push(message.call as WorkerRequest);
		// A worker that never answers: it has not loaded yet.
		if (this.answer) this.#inner.postMessage(message, transfer);
	}
	terminate(): void {
		this.terminated = true;
		this.#inner.terminate();
	}
}

describe('workerLoader', () => {
	it('routes replies by request, and a dying worker fails its loads and is replaced', async () => {
		const workers: FakeWorker[] = [];
		const loader = workerLoader(() => {
			const w = new FakeWorker(true);
			workers.push(w);
			return w;
		}, WORDS);
		expect((await loader.load(datasetBytes([validCase(1)]), {})).kind).toBe('valid');
		workers[0].answer = false;
		const stuck = loader.load(datasetBytes([validCase(1)]), {});
		await vi.waitFor(() => expect(workers[0].requests).toHaveLength(2));
		workers[0].onerror?.({ message: 'Out of memory' } as ErrorEvent);
		const failed = await stuck;
		expect(failed).toEqual({
			kind: 'failed',
			bytes: null,
			message: 'stopped: Out of memory'
		});
		expect(workers[0].terminated).toBe(true);

		const [a, b] = await Promise.all([
			loader.load(datasetBytes([validCase(1)]), {}),
			loader.load(datasetBytes([{}]), {})
		]);
		expect(workers.length).toBe(2);
		expect(workers[1].requests.map((r) => r.id)).toEqual([3, 4]);
		expect(a.kind).toBe('valid');
		expect(b.kind).toBe('invalid');
	});
});

describe('a large dataset (more cases than eagerCases)', () => {
	it('stays in the worker: the head comes alone, then pages and every case on request', async () => {
		const cases = validCases(10);
		const bytes = datasetBytes(cases);
		const workers: FakeWorker[] = [];
		const loader = workerLoader(() => {
			const w = new FakeWorker(true, 4);
			workers.push(w);
			return w;
		}, WORDS);
		const outcome = await loader.load(bytes, {});
		if (outcome.kind !== 'valid') throw new Error(`expected valid, got ${outcome.kind}`);
		expect(outcome.dataset).toBeNull();
		expect(outcome.head.caseCount).toBe(10);
		expect(outcome.head.summary.cases).toBe(10);
		expect(workers[0].kept.current?.handle).toBe(outcome.handle);

		const numbers = cases.map((c) => c.case_number as string);
		const page = await loader.query(outcome.handle, {
			text: '',
			cls: '',
			limit: 3,
			selected: numbers[7]
		});
		if (!page.ok) throw new Error(page.message);
		expect(page.page.listed).toBe(10);
		expect(page.page.rows.map((c) => c.case_number)).toEqual(numbers.slice(0, 3));
		expect(page.page.current?.case_number).toBe(numbers[7]);

		const progress: Progress[] = [];
		const all = await loader.cases(outcome.handle, 10, (p) => progress.push(p));
		if (!all.ok) throw new Error(all.message);
		// The loader moved `bytes` to the worker: the expected cases come from a copy.
		const expected = await loadDataset(datasetBytes(cases));
		if (!expected.ok) throw new Error('expected a valid dataset');
		expect(all.cases).toEqual(expected.dataset.cases);
		expect(progress.at(-1)).toEqual({ phase: 'receiving', done: 10, total: 10 });

		// A smaller valid file loaded next goes to the page whole; the large one is dropped.
		const small = await loader.load(datasetBytes([validCase(1)]), {});
		expect(small.kind === 'valid' && small.dataset?.cases.length).toBe(1);
		expect(workers[0].kept.current).toBeNull();
		const gone = await loader.query(outcome.handle, { limit: 1, selected: null });
		expect(gone).toEqual({ ok: false, message: 'not held' });
	});
});

describe('release', () => {
	it('frees the kept dataset it names, leaves any other, and never starts a worker', async () => {
		const workers: FakeWorker[] = [];
		const loader = workerLoader(() => {
			const w = new FakeWorker(true, 4);
			workers.push(w);
			return w;
		}, WORDS);
		loader.release(1);
		expect(workers).toHaveLength(0);

		const outcome = await loader.load(datasetBytes(validCases(10)), {});
		if (outcome.kind !== 'valid') throw new Error(`expected valid, got ${outcome.kind}`);
		const query = { text: '', cls: '', limit: 1, selected: null };
		loader.release(outcome.handle + 1);
		// Requests run in order: this query comes after the release.
		expect((await loader.query(outcome.handle, query)).ok).toBe(true);
		expect(workers[0].kept.current?.handle).toBe(outcome.handle);

		loader.release(outcome.handle);
		const gone = await loader.query(outcome.handle, query);
		expect(gone).toEqual({ ok: false, message: 'not held' });
		expect(workers[0].kept.current).toBeNull();
		expect(workers[0].requests.filter((r) => r.type === 'release').map((r) => r.handle)).toEqual([
			outcome.handle + 1,
			outcome.handle
		]);
	});
});

describe('notShownByKind', () => {
	it('counts unshown sent items and omitted ones together', () => {
		const list = capProblems(
			[problemIn('a'), problemIn('b'), problemIn('b'), problemIn('c'), problemIn('b')],
			3
		);
		expect(notShownByKind(list, 1)).toEqual([
			{ kind: 'b', count: 3 },
			{ kind: 'c', count: 1 }
		]);
		expect(notShownByKind(list, 5)).toEqual([
			{ kind: 'b', count: 1 },
			{ kind: 'c', count: 1 }
		]);
	});
});

describe('a Blob source', () => {
	it('is read by the worker side and never sent back', async () => {
		const bytes = datasetBytes([validCase(1)]) as Uint8Array<ArrayBuffer>;
		const sent: Array<{ message: LoadResponse; transfer: Transferable[] }> = [];
		await handleLoadRequest(
			{ type: 'load', id: 1, source: new Blob([bytes]), options: {} },
			(message, transfer = []) => sent.push({ message, transfer })
		);
		const head = sent.find((s) => s.message.type === 'valid')!;
		expect(head.transfer).toEqual([]);
		expect(head.message).toEqual(expect.objectContaining({ bytes: null }));
		const outcome = await inThreadLoader(WORDS).load(new Blob([bytes]), {});
		expect(outcome).toEqual(expect.objectContaining({ kind: 'valid', bytes: null }));
	});
});

describe('workerLoader when no worker can start', () => {
	it('loads in this thread instead', async () => {
		const refuse = () => {
			throw new Error('blocked by CSP');
		};
		expect((await workerLoader(refuse, WORDS).load(datasetBytes([validCase(1)]), {})).kind).toBe(
			'valid'
		);
		// A worker whose script the host blocks fails before it answers: the same.
		const blocked = new FakeWorker(false);
		const loader = workerLoader(() => blocked, WORDS);
		const pending = loader.load(datasetBytes([validCase(1)]), {});
		await vi.waitFor(() => expect(blocked.requests).toHaveLength(1));
		blocked.onerror?.({ message: '' } as ErrorEvent);
		expect((await pending).kind).toBe('valid');
	});
});
