/**
 * One typed call between a page and its module workers (dataset, run, statistics): a request
 * id, a request and its answer typed per kind by an {@link RpcApi}, events on the way (progress,
 * snapshots, chunks of cases), cancellation, and transferables either way. The worker serves a
 * table of handlers ({@link serveRpc}); the page calls them ({@link RpcClient}). Where no worker
 * can run (a host's CSP without `worker-src`, or Node in unit tests) the same handlers serve the
 * page from its own thread ({@link inThreadPort}), after a macrotask and through
 * `structuredClone`, so a caller never depends on which path ran.
 */
import { messageOf } from '../core/engine/run-errors';
import { saidOf, UsageError } from '../core/errors';
import type { CoreText } from '../core/said';

/** The calls of one worker: per kind, what is sent, what comes on the way, and the answer. */
export type RpcApi = Record<string, { call: unknown; event?: unknown; result: unknown }>;

type Kind<A extends RpcApi> = keyof A & string;
type EventOf<A extends RpcApi, K extends Kind<A>> = A[K] extends { event: infer E } ? E : never;

/** What the page posts: a call, or the cancellation of one. */
export type RpcRequest<A extends RpcApi = RpcApi> =
	| { [K in Kind<A>]: { rpc: 'call'; id: number; kind: K; call: A[K]['call'] } }[Kind<A>]
	| { rpc: 'cancel'; id: number };

/** What the worker posts, all for one call `id`: events, then its answer or why it failed. */
export type RpcReply =
	| { rpc: 'event'; id: number; event: unknown }
	| { rpc: 'result'; id: number; result: unknown }
	| { rpc: 'failure'; id: number; message: string; said?: CoreText[] };

/** The part of a `Worker` a client uses (a test's stand-in, or {@link inThreadPort}). */
export interface RpcPort {
	postMessage(message: RpcRequest, transfer?: Transferable[]): void;
	onmessage: ((event: MessageEvent<RpcReply>) => void) | null;
	onerror: ((event: ErrorEvent | Event) => void) | null;
	onmessageerror?: ((event: MessageEvent) => void) | null;
	terminate(): void;
}

/** What a handler is given besides its call. */
export interface RpcContext<E> {
	/** Sends an event of this call to the page (its transferables moved, not copied). */
	emit(event: E, transfer?: Transferable[]): void;
	/** Aborted when the page cancels this call. */
	signal: AbortSignal;
	/** Transferables of the answer (moved to the page with it). */
	transfer(list: Transferable[]): void;
}

/** A worker's handlers: one per kind of its {@link RpcApi}. */
export type RpcHandlers<A extends RpcApi> = {
	[K in Kind<A>]: (
		call: A[K]['call'],
		context: RpcContext<EventOf<A, K>>
	) => A[K]['result'] | Promise<A[K]['result']>;
};

/** The worker's global, as far as serving uses it. */
interface Scope {
	postMessage(message: RpcReply, transfer?: Transferable[]): void;
	onmessage: ((event: MessageEvent<RpcRequest>) => void) | null;
}

/**
 * Serves `handlers` on `scope` (a worker's `self`): each call runs at once, side by side with the
 * others (a handler that must go one at a time queues itself). A handler's throw becomes the
 * call's failure with its message and the core's coded pieces, so the page says it in its own
 * language; a reply that cannot be sent (a clone error) fails the call all the same.
 */
export function serveRpc<A extends RpcApi>(scope: Scope, handlers: RpcHandlers<A>): void {
	const running = new Map<number, AbortController>();
	const send = (reply: RpcReply, transfer: Transferable[] = []) => {
		try {
			scope.postMessage(reply, transfer);
		} catch (e) {
			if (reply.rpc === 'event') throw e;
			scope.postMessage({ rpc: 'failure', id: reply.id, message: messageOf(e) });
		}
	};
	scope.onmessage = (event) => {
		const request = event.data;
		if (request.rpc === 'cancel') return running.get(request.id)?.abort();
		const { id, kind, call } = request;
		const abort = new AbortController();
		running.set(id, abort);
		let transfer: Transferable[] = [];
		const context: RpcContext<unknown> = {
			emit: (e, list = []) => send({ rpc: 'event', id, event: e }, list),
			signal: abort.signal,
			transfer: (list) => (transfer = list)
		};
		const handler = handlers[kind] as (c: unknown, x: RpcContext<unknown>) => unknown;
		void Promise.resolve()
			.then(() => handler(call, context))
			.then(
				(result) => send({ rpc: 'result', id, result }, transfer),
				(e: unknown) => send({ rpc: 'failure', id, message: messageOf(e), said: saidOf(e) })
			)
			.finally(() => running.delete(id));
	};
}

/**
 * A port that serves `handlers` (loaded on first use) in this thread, as the worker would: each
 * message a macrotask later and cloned, so nothing the caller keeps is shared with the handler.
 */
export function inThreadPort<A extends RpcApi>(
	load: () => Promise<RpcHandlers<A>> | RpcHandlers<A>
): RpcPort {
	let closed = false;
	const port: RpcPort = {
		onmessage: null,
		onerror: null,
		postMessage(message, transfer = []) {
			// Moved, as a worker's transfer moves them: a lent file's bytes are not copied.
			const copy = structuredClone(message, { transfer });
			setTimeout(() => void toServer(copy), 0);
		},
		terminate: () => void (closed = true)
	};
	const scope: Scope = {
		onmessage: null,
		postMessage(reply, transfer = []) {
			const copy = structuredClone(reply, { transfer });
			setTimeout(() => {
				if (!closed) port.onmessage?.({ data: copy } as MessageEvent<RpcReply>);
			}, 0);
		}
	};
	let served: Promise<void> | null = null;
	const toServer = async (message: RpcRequest) => {
		served ??= Promise.resolve()
			.then(load)
			.then((handlers) => serveRpc(scope, handlers));
		try {
			await served;
		} catch (e) {
			// Handlers that would not load (a chunk the network lost) fail the call; the next loads again.
			served = null;
			if (message.rpc === 'call')
				scope.postMessage({ rpc: 'failure', id: message.id, message: messageOf(e) });
			return;
		}
		if (!closed) scope.onmessage?.({ data: message } as MessageEvent<RpcRequest>);
	};
	return port;
}

/** A call's options. */
export interface CallOptions<E> {
	/** Told each event of the call, in order. */
	onEvent?: (event: E) => void;
	/** Moved to the worker with the call (an ArrayBuffer the page lends). */
	transfer?: Transferable[];
	/** Cancels the call: the worker's handler sees its signal aborted; the call rejects. */
	signal?: AbortSignal;
}

interface Pending {
	onEvent?: (event: unknown) => void;
	resolve(result: unknown): void;
	reject(error: Error): void;
}

/** The words of a client's own failures, in the caller's language. */
export interface RpcWords {
	/** The worker stopped (`detail`: what it said, often empty) with calls under way. */
	stopped(detail: string): string;
	/** A reply the page could not read. */
	unreadable(): string;
	/** The client was terminated with calls under way. */
	terminated(): string;
}

/**
 * The page's side: calls go to one worker made by `spawn` on first use (null: no `Worker` here).
 * A worker that cannot be made, or fails before its first reply (a script the host blocks), hands
 * its calls to `fallback` (an {@link inThreadPort}), which then serves every call; one that dies
 * later fails the calls it held, by name, and is replaced at the next call.
 */
export class RpcClient<A extends RpcApi> {
	#spawn: () => RpcPort;
	#fallback: () => RpcPort;
	#words: RpcWords;
	#port: RpcPort | null = null;
	#answered = false;
	#onFallback = false;
	#next = 1;
	#pending = new Map<number, Pending>();
	/** The calls sent to the port, kept until it answers once: a fallback sends them again. */
	#unanswered = new Map<number, { request: RpcRequest; transfer: Transferable[] }>();

	constructor(spawn: (() => RpcPort) | null, fallback: () => RpcPort, words: RpcWords) {
		this.#spawn = spawn ?? fallback;
		this.#fallback = fallback;
		this.#onFallback = !spawn;
		this.#words = words;
	}

	/** True once a worker (or the fallback) was made: something may be held there. */
	get started(): boolean {
		return this.#port !== null;
	}

	/** True when the calls run in this thread (no worker, or one that could not start). */
	get inThread(): boolean {
		return this.#onFallback;
	}

	/** Calls `kind` with `call`; resolves with its answer, rejects with its failure. */
	call<K extends Kind<A>>(
		kind: K,
		call: A[K]['call'],
		options: CallOptions<EventOf<A, K>> = {}
	): Promise<A[K]['result']> {
		const id = this.#next++;
		return new Promise((resolve, reject) => {
			if (options.signal?.aborted) return reject(abortError(options.signal));
			this.#pending.set(id, {
				onEvent: options.onEvent as (e: unknown) => void,
				resolve: resolve as (r: unknown) => void,
				reject
			});
			options.signal?.addEventListener('abort', () => {
				if (!this.#pending.delete(id)) return;
				this.#unanswered.delete(id);
				this.#port?.postMessage({ rpc: 'cancel', id });
				reject(abortError(options.signal!));
			});
			const request = { rpc: 'call', id, kind, call } as RpcRequest;
			this.#send(request, options.transfer ?? []);
		});
	}

	/** Stops the worker; calls under way reject. The next call starts a new one. */
	terminate(): void {
		this.#port?.terminate();
		this.#port = null;
		this.#failAll(this.#words.terminated());
	}

	#send(request: RpcRequest, transfer: Transferable[]): void {
		let port: RpcPort;
		try {
			port = this.#port ??= this.#open(this.#onFallback ? this.#fallback : this.#spawn);
		} catch (e) {
			if (this.#onFallback) return this.#fail(request.id, messageOf(e));
			this.#onFallback = true;
			return this.#send(request, transfer);
		}
		if (!this.#answered) this.#unanswered.set(request.id, { request, transfer });
		try {
			port.postMessage(request, transfer);
		} catch (e) {
			this.#unanswered.delete(request.id);
			this.#fail(request.id, messageOf(e));
		}
	}

	#open(make: () => RpcPort): RpcPort {
		const port = make();
		port.onmessage = (event) => {
			this.#answered = true;
			this.#unanswered.clear();
			const reply = event.data;
			const pending = this.#pending.get(reply.id);
			if (!pending) return;
			if (reply.rpc === 'event') return pending.onEvent?.(reply.event);
			this.#pending.delete(reply.id);
			if (reply.rpc === 'result') pending.resolve(reply.result);
			else
				pending.reject(
					reply.said ? new UsageError(reply.message, reply.said) : new Error(reply.message)
				);
		};
		port.onerror = (event) => {
			event.preventDefault?.();
			const detail = 'message' in event && event.message ? event.message : '';
			port.terminate();
			if (this.#port === port) this.#port = null;
			if (!this.#answered && !this.#onFallback) {
				// It never ran: its calls go to the fallback, as if sent there first.
				this.#onFallback = true;
				const again = [...this.#unanswered.values()];
				this.#unanswered.clear();
				for (const { request, transfer } of again) this.#send(request, transfer);
				return;
			}
			this.#failAll(this.#words.stopped(detail));
		};
		port.onmessageerror = () => this.#failAll(this.#words.unreadable());
		this.#answered = false;
		return port;
	}

	#fail(id: number, message: string): void {
		const pending = this.#pending.get(id);
		this.#pending.delete(id);
		pending?.reject(new Error(message));
	}

	#failAll(message: string): void {
		const pending = [...this.#pending.values()];
		this.#pending.clear();
		this.#unanswered.clear();
		for (const p of pending) p.reject(new Error(message));
	}
}

function abortError(signal: AbortSignal): Error {
	return signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError');
}
