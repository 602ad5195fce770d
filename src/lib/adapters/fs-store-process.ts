/**
 * Who a lock's pid is now, told by more than `kill(pid, 0)`: a pid can be alive and still not be
 * the writer that took the lock. A zombie (state `Z` in `/proc/<pid>/stat`) has ended and only
 * waits for its parent; after a crash or a container restart the pid may have gone to another
 * program, or even to the new lexpilot process itself. So a lock records its writer's start
 * (`/proc/self/stat` field 22, clock ticks since boot, with the boot's id from
 * `/proc/sys/kernel/random/boot_id`, or `btime` from `/proc/stat`) and command line
 * (`/proc/self/cmdline`), and a lock is live only while its pid's are the same.
 *
 * Whatever a lock records, a pid whose process started after the lock was taken (its start from
 * `/proc/stat`'s `btime` and its ticks, later than the lock's `started_at`) cannot be its writer:
 * that tells a reused pid for locks written before these fields existed too.
 *
 * Linux only: where `/proc` tells nothing (macOS, Windows, `hidepid`), a lock records neither
 * and is judged by `kill(pid, 0)` alone.
 */
import { promises as fs } from 'node:fs';
import { errorCode } from './fs-store-context';

/** A process as `/proc` tells it: which boot, when it started in it, and its command line. */
export interface ProcessStart {
	/** The boot's id (`boot:<uuid>`) or, without one, its time (`btime:<seconds>`). */
	boot: string;
	/** `/proc/<pid>/stat` field 22: clock ticks from boot to the process's start. */
	ticks: string;
	/** `/proc/<pid>/cmdline`, its arguments (cut to a few KiB). */
	cmdline: string[];
}

/** What a pid is now. */
export type ProcessState =
	| { kind: 'gone' }
	| { kind: 'zombie' }
	/**
	 * Alive; `start` null when `/proc` tells nothing of it. `startedAt`: when it started, in ms
	 * since the epoch (the boot's `btime` plus its start in ticks); null or absent when unknown.
	 */
	| { kind: 'alive'; start: ProcessStart | null; startedAt?: number | null };

/** How `/proc` is read; tests give a fake folder and liveness. */
export interface ProcessProbe {
	/** This process's start, or null where `/proc` tells nothing. */
	self(): Promise<ProcessStart | null>;
	look(pid: number): Promise<ProcessState>;
}

const MAX_CMDLINE = 8 * 1024;

/**
 * Clock ticks a second in `/proc/<pid>/stat` (`USER_HZ`, `sysconf(_SC_CLK_TCK)`): 100 on every
 * architecture Node runs on (x64, arm, arm64, ppc64, s390x, riscv64, loong64).
 */
export const CLOCK_TICKS = 100;

/** True unless the pid is provably gone: EPERM means alive but owned by another user. */
export function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (e) {
		return errorCode(e) !== 'ESRCH';
	}
}

const readText = (path: string) => fs.readFile(path, 'latin1').catch(() => null);

/** The `/proc` of this system (or a fake one at `root`), with `alive` for liveness. */
export function procProbe(root = '/proc', alive: (pid: number) => boolean = isAlive): ProcessProbe {
	/** `btime` of `/proc/stat`: the boot's time, in seconds since the epoch. */
	const bootTime = async () => (await readText(`${root}/stat`))?.match(/^btime (\d+)$/m)?.[1];

	async function boot(): Promise<string | null> {
		const id = (await readText(`${root}/sys/kernel/random/boot_id`))?.trim();
		if (id) return `boot:${id}`;
		const btime = await bootTime();
		return btime ? `btime:${btime}` : null;
	}

	/** When a process that started `ticks` after boot started, in ms since the epoch. */
	async function startedAt(ticks: string): Promise<number | null> {
		const btime = await bootTime();
		if (!btime || !/^\d+$/.test(ticks)) return null;
		const at = Number(btime) * 1000 + (Number(ticks) * 1000) / CLOCK_TICKS;
		return Number.isFinite(at) ? at : null;
	}

	/** State and start of the process whose folder is `dir`, or null when it has none. */
	async function read(
		dir: string
	): Promise<{ state: string; start: ProcessStart | null; startedAt: number | null } | null> {
		const stat = await readText(`${root}/${dir}/stat`);
		// `pid (comm) state …`: comm may hold spaces and parentheses, so fields follow the last `)`.
		const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
		if (!fields || fields.length < 20) return null;
		const [state, ticks] = [fields[0], fields[19]];
		const [bootId, cmdline, at] = await Promise.all([
			boot(),
			readText(`${root}/${dir}/cmdline`),
			startedAt(ticks)
		]);
		if (!bootId || !/^\d+$/.test(ticks) || cmdline === null) {
			return { state, start: null, startedAt: at };
		}
		const args = Buffer.from(cmdline.slice(0, MAX_CMDLINE), 'latin1').toString('utf8');
		const start = { boot: bootId, ticks, cmdline: args.split('\0').filter(Boolean) };
		return { state, start, startedAt: at };
	}

	return {
		self: async () => (await read('self'))?.start ?? null,
		async look(pid) {
			if (!alive(pid)) return { kind: 'gone' };
			const now = await read(String(pid));
			if (now?.state === 'Z' || now?.state === 'X') return { kind: 'zombie' };
			return { kind: 'alive', start: now?.start ?? null, startedAt: now?.startedAt ?? null };
		}
	};
}

/** Whether two starts name one process. */
export const sameProcess = (a: ProcessStart, b: ProcessStart) =>
	a.boot === b.boot &&
	a.ticks === b.ticks &&
	a.cmdline.length === b.cmdline.length &&
	a.cmdline.every((arg, i) => arg === b.cmdline[i]);
