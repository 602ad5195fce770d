/**
 * The run's lock file, `runs/<run-id>/<model>/.lock`: written whole beside it and linked into place
 * (so it is created exclusively and never seen empty), it holds the writer's
 * pid, host, start time, a token and, on Linux, the process's start and command line as `/proc`
 * tells them (`fs-store-process.ts`). A lock left by a process of this host that is gone (pid
 * not alive, a zombie, or a pid that now names another process) is taken over, with a note: it is renamed away under a unique name, the renamed file is
 * checked to be the very lock judged stale (a rival taking over at the same moment would have
 * replaced it; then it is put back and this writer refuses), and a new lock is created
 * exclusively. A lock of a live process, of another host (whose pids mean nothing here) or one
 * that names no process is refused; the error names the file and says when it is safe to delete
 * it.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { CheckpointError } from '../core/errors';
import { runFilePath, type RunKey } from '../core/layout';
import { coded } from '../core/said';
import { runLabel } from '../core/store/checks';
import { errorCode, placeNew, TEMP_NAME, writeTemp } from './fs-store-io';
import {
	GONE,
	judge,
	lockedError,
	readLockInfo,
	startedText,
	type LockInfo,
	type Verdict
} from './fs-store-lock-info';
import type { ProcessProbe } from './fs-store-process';
import { diskFullError, isDiskFull } from './fs-store-write';

export type { LockInfo } from './fs-store-lock-info';

/** `runs/<run-id>/<model>/.lock`, next to the manifest. */
export function lockFilePath(run: RunKey): string {
	return runFilePath(run, '.lock');
}

/** How a lock is taken: where notes go, how a first failed write is worded, how pids are told. */
export interface LockOptions {
	notice: (message: string) => void;
	unwritable: (e: unknown, path: string) => unknown;
	processes: ProcessProbe;
}

/** Creates the lock file at `path` (taking over a stale one); returns what it holds. */
export async function acquireLock(run: RunKey, path: string, options: LockOptions) {
	try {
		await fs.mkdir(dirname(path), { recursive: true });
	} catch (e) {
		throw options.unwritable(e, dirname(path));
	}
	const self = await options.processes.self();
	const info: LockInfo = {
		pid: process.pid,
		hostname: hostname(),
		started_at: new Date().toISOString(),
		token: randomUUID(),
		...(self ? { process: self } : {})
	};
	// Written whole beside the lock, then linked into place: a process killed at any moment leaves
	// no lock or a whole one, never an empty lock naming nobody (which every later run refuses).
	let draft: string;
	try {
		draft = await writeTemp(path, `${JSON.stringify(info)}\n`);
	} catch (e) {
		throw isDiskFull(e)
			? diskFullError(path, coded('disk_what_lock', {}), e)
			: options.unwritable(e, path);
	}
	try {
		if (!(await place(draft, path, options))) {
			const stale = await takeOverStale(path, options.processes);
			if (!stale) throw await lockedError(run, path, options.processes);
			// Another writer may have created its lock between the takeover and this one.
			if (!(await place(draft, path, options))) {
				throw await lockedError(run, path, options.processes);
			}
			options.notice(
				`${runLabel(run)}: took over the lock ${path} left by process ${stale.info.pid} on this ` +
					`host (started ${startedText(stale.info)}), which is no longer running${GONE[stale.verdict]}.`
			);
		}
	} finally {
		await fs.unlink(draft).catch(() => undefined);
	}
	return info;
}

/**
 * Removes the temporary files a writer of this run left when it died mid-write (SIGKILL, power
 * loss) from the run's folders: whole files or not, they were never moved into place, and would
 * otherwise stay beside the records for good. Called with the run's lock held, so no live writer
 * of this run is making one; a file whose process may still be alive is left alone. Returns the
 * paths removed.
 */
export async function removeDeadTemps(dirs: readonly string[], processes: ProcessProbe) {
	const removed: string[] = [];
	for (const dir of dirs) {
		const names = await fs.readdir(dir).catch(() => [] as string[]);
		for (const name of names) {
			const pid = Number(TEMP_NAME.exec(name)?.[1] ?? NaN);
			if (!Number.isSafeInteger(pid) || pid === process.pid) continue;
			if ((await processes.look(pid)).kind === 'alive') continue;
			const path = join(dir, name);
			await fs.unlink(path).then(
				() => removed.push(path),
				() => undefined
			);
		}
	}
	return removed;
}

/** Links the written lock into place; false when a lock is there. */
async function place(draft: string, path: string, options: LockOptions): Promise<boolean> {
	try {
		return await placeNew(draft, path);
	} catch (e) {
		throw options.unwritable(e, path);
	}
}

/** Removes the lock file at `path` if it is still the one `info` describes. */
export async function releaseLock(path: string, info: LockInfo): Promise<void> {
	if ((await readLockInfo(path))?.token !== info.token) return;
	await fs.unlink(path).catch((e) => {
		if (errorCode(e) === 'ENOENT') return;
		const detail = errorCode(e) ?? (e as Error).message;
		throw new CheckpointError([coded('lock_not_removed', { path, detail })]);
	});
}

/**
 * Moves a lock of a dead process of this host out of the way. Returns what it held, or null
 * when the lock is not provably stale (live, other host, unreadable) or a rival got there first.
 */
async function takeOverStale(
	path: string,
	processes: ProcessProbe
): Promise<{ info: LockInfo; verdict: Exclude<Verdict, 'live'> } | null> {
	const info = await readLockInfo(path);
	if (!info || info.hostname !== hostname()) return null;
	const verdict = await judge(info, processes);
	if (verdict === 'live') return null;
	const aside = `${path}.stale-${process.pid}-${randomUUID().slice(0, 8)}`;
	try {
		await fs.rename(path, aside);
	} catch (e) {
		if (errorCode(e) === 'ENOENT') return { info, verdict }; // removed meanwhile: try to create it
		throw e;
	}
	const moved = await readLockInfo(aside);
	const same =
		moved !== null &&
		moved.pid === info.pid &&
		moved.started_at === info.started_at &&
		moved.token === info.token;
	if (!same) {
		// A rival replaced the stale lock with its own before the rename: give it back.
		await fs.link(aside, path).catch(() => undefined);
		await fs.unlink(aside).catch(() => undefined);
		return null;
	}
	await fs.unlink(aside).catch(() => undefined);
	return { info, verdict };
}
