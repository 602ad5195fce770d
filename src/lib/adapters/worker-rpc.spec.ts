/**
 * The one typed call between the page and its workers: answers and events in order, failures
 * with the core's coded pieces, cancellation, transfer, and what happens when a worker cannot
 * start or dies.
 */
import { describe, expect, it } from 'vitest';
import { saidOf, UsageError } from '../core/errors';
import { coded } from '../core/said';
import {
	inThreadPort,
	RpcClient,
	type RpcHandlers,
	type RpcPort,
	type RpcReply,
	type RpcRequest
} from './worker-rpc';

type Api = {
	count: { call: { to: number }; event: number; result: string };
	refuse: { call: Record<string, never>; result: void };
	wait: { call: Record<string, never>; result: 'aborted' };
	lend: { call: { bytes: ArrayBuffer }; result: number };
};

const handlers: RpcHandlers<Api> = {
	count({ to }, { emit }) {
		for (let i = 1; i <= to; i++) emit(i);
		return `counted to ${to}`;
	},
	refuse() {
		throw new UsageError('no', [coded('no_cases', {})]);
	},
	wait: (_, { signal }) =>
		new Promise((resolve) => signal.addEventListener('abort', () => resolve('aborted'))),
	lend: ({ bytes }) => bytes.byteLength
};

const WORDS = {
	stopped: (detail: string) => `stopped${detail ? `: ${detail}` : ''}`,
	unreadable: () => 'unreadable',
	terminated: () => 'terminated'
};

const inThread = () => inThreadPort(() => handlers);

/** A worker stand-in that serves `handlers` until `die` is called; `answered` counts its replies. */
function fakeWorker(options: { startFails?: boolean } = {}) {
	const log = { posted: 0, answered: 0, port: null as RpcPort | null };
	const spawn = (): RpcPort => {
		const inner = inThread();
		const port: RpcPort = {
			onmessage: null,
			onerror: null,
			postMessage(message: RpcRequest, transfer?: Transferable[]) {
				log.posted++;
				if (options.startFails) {
					setTimeout(() => port.onerror?.({ message: '' } as ErrorEvent));
					return;
				}
				inner.postMessage(message, transfer);
			},
			terminate: () => inner.terminate()
		};
		inner.onmessage = (event: MessageEvent<RpcReply>) => {
			log.answered++;
			port.onmessage?.(event);
		};
		log.port = port;
		return port;
	};
	return { spawn, log, die: (message = '') => log.port?.onerror?.({ message } as ErrorEvent) };
}

describe('RpcClient over serveRpc', () => {
	it('gives the events of a call in order, then its answer', async () => {
		const client = new RpcClient<Api>(fakeWorker().spawn, inThread, WORDS);
		const events: number[] = [];
		const answer = await client.call('count', { to: 3 }, { onEvent: (e) => events.push(e) });
		expect(answer).toBe('counted to 3');
		expect(events).toEqual([1, 2, 3]);
	});

	it("rejects with a handler's failure, keeping the core's coded pieces", async () => {
		const client = new RpcClient<Api>(fakeWorker().spawn, inThread, WORDS);
		const error = await client.call('refuse', {}).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(UsageError);
		expect((error as Error).message).toBe('no');
		expect(saidOf(error)).toEqual([coded('no_cases', {})]);
	});

	it('cancels a call: the handler sees its signal aborted and the call rejects', async () => {
		const client = new RpcClient<Api>(fakeWorker().spawn, inThread, WORDS);
		const abort = new AbortController();
		const call = client.call('wait', {}, { signal: abort.signal });
		abort.abort(new Error('user left'));
		await expect(call).rejects.toThrow('user left');
		// The worker still answers others.
		await expect(client.call('count', { to: 1 })).resolves.toBe('counted to 1');
	});

	it('moves a lent buffer to the worker instead of copying it', async () => {
		const client = new RpcClient<Api>(fakeWorker().spawn, inThread, WORDS);
		const bytes = new ArrayBuffer(8);
		const length = client.call('lend', { bytes }, { transfer: [bytes] });
		expect(bytes.byteLength).toBe(0);
		await expect(length).resolves.toBe(8);
	});

	it('hands its calls to the fallback when the worker fails before its first reply', async () => {
		const worker = fakeWorker({ startFails: true });
		const client = new RpcClient<Api>(worker.spawn, inThread, WORDS);
		await expect(client.call('count', { to: 2 })).resolves.toBe('counted to 2');
		expect(client.inThread).toBe(true);
		await expect(client.call('count', { to: 1 })).resolves.toBe('counted to 1');
		expect(worker.log.posted).toBe(1);
	});

	it('hands its calls to the fallback when no worker can be made', async () => {
		const client = new RpcClient<Api>(
			() => {
				throw new Error('worker-src blocked');
			},
			inThread,
			WORDS
		);
		await expect(client.call('count', { to: 1 })).resolves.toBe('counted to 1');
		expect(client.inThread).toBe(true);
	});

	it('fails a call whose in-thread handlers would not load, and loads them again at the next', async () => {
		let loads = 0;
		const flaky = () =>
			inThreadPort(() => {
				if (++loads === 1) throw new Error('chunk lost');
				return handlers;
			});
		const client = new RpcClient<Api>(null, flaky, WORDS);
		await expect(client.call('count', { to: 1 })).rejects.toThrow('chunk lost');
		await expect(client.call('count', { to: 1 })).resolves.toBe('counted to 1');
	});

	it('fails the calls a worker held when it dies after it ran, and starts a new one next', async () => {
		const worker = fakeWorker();
		const client = new RpcClient<Api>(worker.spawn, inThread, WORDS);
		await client.call('count', { to: 1 });
		const held = client.call('wait', {});
		worker.die('out of memory');
		await expect(held).rejects.toThrow('stopped: out of memory');
		expect(client.inThread).toBe(false);
		await expect(client.call('count', { to: 1 })).resolves.toBe('counted to 1');
		const again = client.call('wait', {});
		client.terminate();
		await expect(again).rejects.toThrow('terminated');
	});
});
