/**
 * What a lock file holds, whether its writer still runs (`kill(pid, 0)`, then `/proc` through
 * `fs-store-process.ts`), and what a refused writer is told.
 */
import { promises as fs } from 'node:fs';
import { hostname } from 'node:os';
import { RunLockedError } from '../core/errors';
import type { RunKey } from '../core/layout';
import { coded } from '../core/said';
import { runLabel } from '../core/store/checks';
import { escapeControl } from '../core/text/escape-control';
import { sameProcess, type ProcessProbe, type ProcessStart } from './fs-store-process';

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

/** How a lock's writer stands: still writing, or gone in one of three ways. */
export type Verdict = 'live' | 'gone' | 'zombie' | 'reused';

/** What the takeover note adds for each way a writer can be gone. */
export const GONE: Record<Exclude<Verdict, 'live'>, string> = {
	gone: '',
	zombie: ' (its pid is a zombie, an ended process not yet reaped)',
	reused:
		' (its pid now belongs to another process, started at another time or running another program)'
};

/**
 * How much later than the lock's `started_at` a process must have started to be judged another:
 * `btime` is in whole seconds, and a wall clock set forward since the lock was taken moves every
 * start computed from it by as much. A writer starts before it takes its lock, never after.
 */
export const STARTED_AFTER_SLACK_MS = 5_000;

/**
 * Whether the writer a lock of this host names still runs: `kill(pid, 0)`, then `/proc`. A pid
 * whose process started after the lock was taken cannot be its writer (any lock, older versions'
 * too); for a lock that recorded its writer's start, a pid whose start or command line differs
 * was reused (perhaps by this very process, after a restart). A zombie has ended, whichever
 * version wrote its lock. Where `/proc` tells nothing, a lock is judged by `kill(pid, 0)` alone.
 */
export async function judge(info: LockInfo, processes: ProcessProbe): Promise<Verdict> {
	const now = await processes.look(info.pid);
	if (now.kind === 'gone') return 'gone';
	// A zombie has ended whatever its lock recorded: it writes nothing more.
	if (now.kind === 'zombie') return 'zombie';
	const recorded = startOf(info.process);
	// The same boot, start and command line: the very writer, whatever the clocks say.
	if (recorded && now.start && sameProcess(recorded, now.start)) return 'live';
	if (startedAfter(now.startedAt, info.started_at)) return 'reused';
	return recorded && now.start ? 'reused' : 'live';
}

/** True when a process started at `startedAt` (ms) began after a lock taken at `lockTime`. */
function startedAfter(startedAt: number | null | undefined, lockTime: unknown): boolean {
	if (typeof startedAt !== 'number' || typeof lockTime !== 'string') return false;
	const taken = Date.parse(lockTime);
	return Number.isFinite(taken) && startedAt > taken + STARTED_AFTER_SLACK_MS;
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

/**
 * When the lock's writer started, as a message may print it: the file is anyone's to edit, so
 * its text is escaped (a forged `started_at` cannot add lines or terminal codes).
 */
export function startedText(info: LockInfo): string {
	return escapeControl(String(info.started_at));
}

export async function readLockInfo(path: string): Promise<LockInfo | null> {
	try {
		const info = JSON.parse(await fs.readFile(path, 'utf8')) as Partial<LockInfo>;
		return typeof info.pid === 'number' && typeof info.hostname === 'string'
			? (info as LockInfo)
			: null;
	} catch {
		return null;
	}
}

export async function lockedError(
	run: RunKey,
	path: string,
	processes: ProcessProbe
): Promise<RunLockedError> {
	const info = await readLockInfo(path);
	const label = runLabel(run);
	if (info === null) return new RunLockedError([coded('lock_unsigned', { run: label, path })]);
	const who = [
		coded('lock_who', { pid: info.pid, host: info.hostname, started: String(info.started_at) })
	];
	if (info.hostname !== hostname()) {
		return new RunLockedError([coded('lock_other_host', { run: label, path }, { who })]);
	}
	const live = (await judge(info, processes)) === 'live';
	if (live && info.pid === process.pid) {
		return new RunLockedError([coded('lock_this_process', { run: label, path })]);
	}
	if (live) return new RunLockedError([coded('lock_live', { run: label, path }, { who })]);
	return new RunLockedError([coded('lock_left', { run: label, path }, { who })]);
}
