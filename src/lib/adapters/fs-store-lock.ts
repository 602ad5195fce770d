/**
 * The run's lock file, `runs/<run-id>/<model>/.lock`: created exclusively, it holds the writer's
 * pid, host, start time and a token. A lock left by a process of this host that is gone (pid not
 * alive) is taken over, with a note: it is renamed away under a unique name, the renamed file is
 * checked to be the very lock judged stale (a rival taking over at the same moment would have
 * replaced it; then it is put back and this writer refuses), and a new lock is created
 * exclusively. A lock of a live process, of another host (whose pids mean nothing here) or one
 * that names no process is refused; the error names the file and says when it is safe to delete
 * it.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { CheckpointError, RunLockedError } from '../core/errors';
import type { RunKey } from '../core/layout';
import { runLabel } from '../core/store/checks';
import { errorCode } from './fs-store-io';

/** What a lock file holds. */
export interface LockInfo {
	pid: number;
	hostname: string;
	/** ISO time the lock was taken. */
	started_at: string;
	/** Tells this lock from a later one at the same path, so release removes only its own. */
	token: string;
}

/** `runs/<run-id>/<model>/.lock`, next to the manifest. */
export function lockFilePath(run: RunKey): string {
	return `runs/${run.runId}/${run.modelDir}/.lock`;
}

/** How a lock is taken: where notes go, and how a first failed write is worded. */
export interface LockOptions {
	notice: (message: string) => void;
	unwritable: (e: unknown, path: string) => unknown;
}

/** Creates the lock file at `path` (taking over a stale one); returns what it holds. */
export async function acquireLock(run: RunKey, path: string, options: LockOptions) {
	try {
		await fs.mkdir(dirname(path), { recursive: true });
	} catch (e) {
		throw options.unwritable(e, dirname(path));
	}
	const info: LockInfo = {
		pid: process.pid,
		hostname: hostname(),
		started_at: new Date().toISOString(),
		token: randomUUID()
	};
	let handle: fs.FileHandle;
	try {
		handle = await fs.open(path, 'wx');
	} catch (e) {
		if (errorCode(e) !== 'EEXIST') throw options.unwritable(e, path);
		const stale = await takeOverStale(path);
		if (!stale) throw await lockedError(run, path);
		try {
			handle = await fs.open(path, 'wx');
		} catch (again) {
			// Another writer created its lock between the takeover and this open.
			if (errorCode(again) === 'EEXIST') throw await lockedError(run, path);
			throw again;
		}
		options.notice(
			`${runLabel(run)}: took over the lock ${path} left by process ${stale.pid} on this ` +
				`host (started ${stale.started_at}), which is no longer running.`
		);
	}
	try {
		await handle.writeFile(`${JSON.stringify(info)}\n`);
		await handle.sync();
	} finally {
		await handle.close();
	}
	return info;
}

/** Removes the lock file at `path` if it is still the one `info` describes. */
export async function releaseLock(path: string, info: LockInfo): Promise<void> {
	if ((await readLockInfo(path))?.token !== info.token) return;
	await fs.unlink(path).catch((e) => {
		if (errorCode(e) === 'ENOENT') return;
		throw new CheckpointError(
			`could not remove the lock file ${path} (${errorCode(e) ?? (e as Error).message}); ` +
				'the next run on this host takes it over once this process has ended, or delete it.'
		);
	});
}

/** True unless the pid is provably gone: EPERM means alive but owned by another user. */
function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (e) {
		return errorCode(e) !== 'ESRCH';
	}
}

async function readLockInfo(path: string): Promise<LockInfo | null> {
	try {
		const info = JSON.parse(await fs.readFile(path, 'utf8')) as Partial<LockInfo>;
		return typeof info.pid === 'number' && typeof info.hostname === 'string'
			? (info as LockInfo)
			: null;
	} catch {
		return null;
	}
}

/**
 * Moves a lock of a dead process of this host out of the way. Returns what it held, or null
 * when the lock is not provably stale (live, other host, unreadable) or a rival got there first.
 */
async function takeOverStale(path: string): Promise<LockInfo | null> {
	const info = await readLockInfo(path);
	if (!info || info.hostname !== hostname() || info.pid === process.pid || isAlive(info.pid)) {
		return null;
	}
	const aside = `${path}.stale-${process.pid}-${randomUUID().slice(0, 8)}`;
	try {
		await fs.rename(path, aside);
	} catch (e) {
		if (errorCode(e) === 'ENOENT') return info; // removed meanwhile: try to create it
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
	return info;
}

async function lockedError(run: RunKey, path: string): Promise<RunLockedError> {
	const info = await readLockInfo(path);
	const only = 'Only one writer per run id and model is allowed.';
	if (info === null) {
		return new RunLockedError(
			`${runLabel(run)}: the lock file ${path} exists but does not say who holds it (a writer may ` +
				'have been killed while taking it). If no lexpilot process is writing this run, delete ' +
				'that file and run again.'
		);
	}
	const who = `process ${info.pid} on ${info.hostname}, started ${info.started_at}`;
	if (info.hostname !== hostname()) {
		return new RunLockedError(
			`${runLabel(run)} is locked by ${who} (${path}). ${only} If that process is no longer ` +
				'running, delete the lock file and run again.'
		);
	}
	if (info.pid === process.pid) {
		return new RunLockedError(
			`${runLabel(run)} is already being written by this process (lock file ${path}). ${only}`
		);
	}
	if (isAlive(info.pid)) {
		return new RunLockedError(
			`${runLabel(run)} is being written by another lexpilot ${who} (lock file ${path}). Wait ` +
				`for it to finish or stop it. ${only}`
		);
	}
	return new RunLockedError(
		`${runLabel(run)}: the lock file ${path} was left by ${who}, which is no longer running ` +
			'(the run was interrupted). Make sure no other lexpilot writes this run, delete the lock ' +
			'file, and run again to resume.'
	);
}
