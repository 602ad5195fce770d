/**
 * `runs/<run-id>/<model>/calls.jsonl`, the call log. Not synced per line (a log, not a
 * checkpoint: losing the last lines in a crash loses no result). The first append of a process
 * drops a cut-off last line a crash may have left, so the file stays readable; it reads only the
 * file's tail for that. While the store holds the run's lock the file stays open, so a line is
 * one write, and lines that arrive while a write is on its way share the next one.
 */
import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseCallLog } from '../core/calls/log';
import type { CallLogEntry } from '../core/calls/schema';
import { CheckpointError } from '../core/errors';
import { callLogPath, type RunKey } from '../core/layout';
import { coded } from '../core/said';
import { errorCode, type StoreContext } from './fs-store-context';
import { readIfExists } from './fs-store-io';
import { NOFOLLOW, orSymlink, refuseLinks } from './fs-store-links';
import { dropTornCallLine } from './fs-store-torn';
import { cutBack, isDiskFull, writeAll } from './fs-store-write';

/** `'a+'` as flags, so `O_NOFOLLOW` can be added. */
const A_PLUS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT;

/** An open call log and its size: every byte before it is a whole line. */
interface OpenLog {
	handle: FileHandle;
	size: number;
}

interface WaitingLine {
	bytes: Buffer;
	resolve: () => void;
	reject: (error: unknown) => void;
}

/** `FsStore`'s `appendCall` and `readCalls`. */
export class CallLogFiles {
	readonly #ctx: StoreContext;
	/** Call logs whose last line was checked by this process (a torn tail is dropped once). */
	readonly #checked = new Set<string>();
	/** Call logs kept open while the store holds their run's lock, by absolute path. */
	readonly #open = new Map<string, OpenLog>();
	/** Lines waiting for the next write, by absolute path. */
	readonly #waiting = new Map<string, WaitingLine[]>();

	constructor(ctx: StoreContext) {
		this.#ctx = ctx;
	}

	async append(run: RunKey, line: string): Promise<void> {
		const path = this.#ctx.pathOf(callLogPath(run));
		const keep = this.#ctx.holdsLock(run);
		let queue = this.#waiting.get(path);
		if (!queue) {
			queue = [];
			this.#waiting.set(path, queue);
		}
		await new Promise<void>((resolve, reject) => {
			queue.push({ bytes: Buffer.from(line, 'utf8'), resolve, reject });
			// One write for every line waiting: the lines of calls that end while a write is on
			// its way go out together (one thread-pool job instead of one each).
			if (queue.length === 1) void this.#ctx.serial(path, () => this.#write(path, keep));
		});
	}

	/**
	 * Writes every line waiting for `path` at once; see `append`. A failed write (a full disk) is
	 * cut back to the last whole line; when that fails too, the log is closed and its next open
	 * drops the cut-off line, as after a crash.
	 */
	async #write(path: string, keep: boolean): Promise<void> {
		const batch = this.#waiting.get(path) ?? [];
		this.#waiting.delete(path);
		if (batch.length === 0) return;
		try {
			const log = this.#open.get(path) ?? (await this.#openLog(path, keep));
			try {
				const bytes =
					batch.length === 1 ? batch[0].bytes : Buffer.concat(batch.map((line) => line.bytes));
				try {
					await writeAll(log.handle, bytes, path);
				} catch (e) {
					if (!(await cutBack(log.handle, log.size))) {
						this.#checked.delete(path);
						this.#open.delete(path);
						keep = false;
					}
					if (!isDiskFull(e)) throw e;
					const code = String(errorCode(e));
					throw new CheckpointError([coded('calls_disk_full', { file: path, code })]);
				}
				log.size += bytes.length;
			} finally {
				if (!keep) await log.handle.close().catch(() => undefined);
			}
			for (const line of batch) line.resolve();
		} catch (e) {
			for (const line of batch) line.reject(e);
		}
	}

	async #openLog(path: string, keep: boolean): Promise<OpenLog> {
		await refuseLinks(this.#ctx.root, path);
		await fs.mkdir(dirname(path), { recursive: true });
		const handle = await fs.open(path, A_PLUS | NOFOLLOW).catch((e) => {
			throw orSymlink(e, path);
		});
		let log: OpenLog;
		try {
			if (!this.#checked.has(path)) {
				await dropTornCallLine(handle);
				this.#checked.add(path);
			}
			log = { handle, size: (await handle.stat()).size };
		} catch (e) {
			await handle.close().catch(() => undefined);
			throw e;
		}
		if (keep) this.#open.set(path, log);
		return log;
	}

	/** Closes the call log of a run kept open by `append` (after its queued lines). */
	async close(run: RunKey): Promise<void> {
		const path = this.#ctx.pathOf(callLogPath(run));
		await this.#ctx.serial(path, async () => {
			const log = this.#open.get(path);
			this.#open.delete(path);
			await log?.handle.close().catch(() => undefined);
		});
	}

	/** Closes and deletes a run's call log (`deleteRun`). */
	async remove(run: RunKey): Promise<void> {
		await this.close(run);
		const path = this.#ctx.pathOf(callLogPath(run));
		await fs.rm(path, { force: true });
		this.#checked.delete(path);
	}

	async read(run: RunKey): Promise<CallLogEntry[]> {
		const path = this.#ctx.pathOf(callLogPath(run));
		return this.#ctx.serial(path, async () => {
			await refuseLinks(this.#ctx.root, path);
			const bytes = await readIfExists(path);
			return parseCallLog(bytes?.toString('utf8') ?? '', path);
		});
	}
}
