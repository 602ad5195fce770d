/**
 * What the parts of `FsStore` share: where the output root is, the per-path queues that keep one
 * file's reads and writes in this process from interleaving, which runs this store holds the lock
 * of, and where notes go.
 */
import type { RunKey } from '../core/layout';

export interface StoreContext {
	/** The output root (`--output-root`). */
	readonly root: string;
	/** The absolute path of a layout path. */
	pathOf(layoutPath: string): string;
	/** Runs `task` after every task queued before it for `path` has settled. */
	serial<T>(path: string, task: () => Promise<T>): Promise<T>;
	/** True while this store holds the run's lock: only then are kept file states trusted. */
	holdsLock(run: RunKey): boolean;
	/** A repair made on its own (a stale lock taken over, a torn line moved aside). */
	notice(message: string): void;
}

/** The `code` of a Node file-system error (`ENOENT`, `ENOSPC`, …). */
export const errorCode = (e: unknown) => (e as NodeJS.ErrnoException | null)?.code;

/** Per-path chains of tasks: each starts once the one before it has settled, failed or not. */
export class SerialQueues {
	readonly #queues = new Map<string, Promise<unknown>>();

	run<T>(path: string, task: () => Promise<T>): Promise<T> {
		const previous = this.#queues.get(path) ?? Promise.resolve();
		const next = previous.then(task, task);
		const settled = next.catch(() => undefined);
		this.#queues.set(path, settled);
		void settled.then(() => {
			if (this.#queues.get(path) === settled) this.#queues.delete(path);
		});
		return next;
	}
}
