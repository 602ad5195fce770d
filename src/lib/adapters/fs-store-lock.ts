/**
 * The run's lock file, `runs/<run-id>/<model>/.lock`: created exclusively, it holds the writer's
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
import { dirname } from 'node:path';
import { CheckpointError, RunLockedError } from '../core/errors';
import type { RunKey } from '../core/layout';
import { runLabel } from '../core/store/checks';
import { errorCode } from './fs-store-io';
import { sameProcess, type ProcessProbe, type ProcessStart } from './fs-store-process';
import { orDiskFull, writeAll } from './fs-store-write';

/** What a lock file holds. */
export interface LockInfo {
	pid: number;
	hostname: string;
	/** ISO time the lock was taken. */
	started_at: string;
	/** Tells this lock from a later one at the same path, so release removes only its own. */
	token: string;
	/** The writer as `/proc` told it (absent elsewhere, and in locks of older versions). */
	process?: ProcessStart;
}

/** `runs/<run-id>/<model>/.lock`, next to the manifest. */
export function lockFilePath(run: RunKey): string {
	return `runs/${run.runId}/${run.modelDir}/.lock`;
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
	let handle: fs.FileHandle;
	try {
		handle = await fs.open(path, 'wx');
	} catch (e) {
		if (errorCode(e) !== 'EEXIST') throw options.unwritable(e, path);
		const stale = await takeOverStale(path, options.processes);
		if (!stale) throw await lockedError(run, path, options.processes);
		try {
			handle = await fs.open(path, 'wx');
		} catch (again) {
			// Another writer created its lock between the takeover and this open.
			if (errorCode(again) === 'EEXIST') throw await lockedError(run, path, options.processes);
			throw again;
		}
		options.notice(
			`${runLabel(run)}: took over the lock ${path} left by process ${stale.info.pid} on this ` +
				`host (started ${stale.info.started_at}), which is no longer running${GONE[stale.verdict]}.`
		);
	}
	try {
		await writeAll(handle, Buffer.from(`${JSON.stringify(info)}\n`, 'utf8'), path);
		await handle.sync();
	} catch (e) {
		// A lock naming nobody would stop every later run until deleted by hand.
		await handle.close().catch(() => undefined);
		await fs.unlink(path).catch(() => undefined);
		throw orDiskFull(e, path, 'the lock file');
	}
	await handle.close();
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

/** How a lock's writer stands: still writing, or gone in one of three ways. */
type Verdict = 'live' | 'gone' | 'zombie' | 'reused';

/** What the takeover note adds for each way a writer can be gone. */
const GONE: Record<Exclude<Verdict, 'live'>, string> = {
	gone: '',
	zombie: ' (its pid is a zombie, an ended process not yet reaped)',
	reused:
		' (its pid now belongs to another process, started at another time or running another program)'
};

/**
 * Whether the writer a lock of this host names still runs: `kill(pid, 0)`, then, for a lock that
 * recorded its writer's start, `/proc`: a zombie has ended, and a pid whose start or command line
 * differs was reused (perhaps by this very process, after a restart). A lock without that record
 * (an older version, a system without `/proc`) is judged by `kill(pid, 0)` alone, as before.
 */
async function judge(info: LockInfo, processes: ProcessProbe): Promise<Verdict> {
	const now = await processes.look(info.pid);
	if (now.kind === 'gone') return 'gone';
	const recorded = startOf(info.process);
	if (!recorded) return 'live';
	if (now.kind === 'zombie') return 'zombie';
	return now.start && !sameProcess(recorded, now.start) ? 'reused' : 'live';
}

/** A lock file's `process` field when it has the shape this code writes, else null. */
function startOf(value: unknown): ProcessStart | null {
	const v = value as Partial<ProcessStart> | null | undefined;
	const ok =
		typeof v?.boot === 'string' &&
		typeof v.ticks === 'string' &&
		Array.isArray(v.cmdline) &&
		v.cmdline.every((arg) => typeof arg === 'string');
	return ok ? (v as ProcessStart) : null;
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

async function lockedError(
	run: RunKey,
	path: string,
	processes: ProcessProbe
): Promise<RunLockedError> {
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
	const live = (await judge(info, processes)) === 'live';
	if (live && info.pid === process.pid) {
		return new RunLockedError(
			`${runLabel(run)} is already being written by this process (lock file ${path}). ${only}`
		);
	}
	if (live) {
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
