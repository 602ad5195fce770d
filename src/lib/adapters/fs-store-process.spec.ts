/**
 * Stale locks whose pid lives again (`fs-store-process.ts`): a zombie, a pid reused by another
 * program or by this very process after a restart. First over a fake `/proc` (a folder) and
 * fake liveness, then over the real one with real processes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RunLockedError } from '../core/errors';
import { stageFilePath } from '../core/layout';
import { FsStore, lockFilePath, type LockInfo } from './fs-store';
import { procProbe, type ProcessStart } from './fs-store-process';

const run = { runId: 'run1', modelDir: 'gpt-x-4e02b150' };
let root: string;
let notes: string[];

beforeEach(async () => {
	root = await mkdtemp(join(tmpdir(), 'lexpilot-proc-'));
	notes = [];
});
afterEach(() => rm(root, { recursive: true, force: true }));

const lockPath = () => join(root, ...lockFilePath(run).split('/'));
const label = `run run1 / ${run.modelDir}`;

async function plantLock(info: Partial<LockInfo>): Promise<void> {
	await mkdir(dirname(lockPath()), { recursive: true });
	const lock = { hostname: hostname(), started_at: '2025-01-01T00:00:00Z', token: 't', ...info };
	await writeFile(lockPath(), JSON.stringify(lock));
}

/** A `/proc` of a few processes in a folder; `alive` is what `kill(pid, 0)` would say. */
class FakeProc {
	readonly alive = new Set<number>();
	constructor(readonly dir: string) {}

	async boot(id: string) {
		await mkdir(join(this.dir, 'sys/kernel/random'), { recursive: true });
		await writeFile(join(this.dir, 'sys/kernel/random/boot_id'), `${id}\n`);
	}

	/** `/proc/stat` with the boot's time, `btime`, in seconds since the epoch. */
	async btime(seconds: number) {
		await writeFile(join(this.dir, 'stat'), `cpu  1 2 3 4\nbtime ${seconds}\nprocesses 9\n`);
	}

	/** `/proc/<pid>` (or `/proc/self`): its stat line and cmdline as the kernel writes them. */
	async process(pid: number | 'self', p: { state?: string; ticks: number; argv: string[] }) {
		const dir = join(this.dir, String(pid));
		await mkdir(dir, { recursive: true });
		// 52 fields; the name holds spaces and parentheses, as a name may.
		const fields = [p.state ?? 'S', ...Array.from({ length: 18 }, () => '0'), String(p.ticks)];
		const rest = Array.from({ length: 30 }, () => '0');
		const stat = `${pid === 'self' ? 77 : pid} (my (odd) name) ${[...fields, ...rest].join(' ')}\n`;
		await writeFile(join(dir, 'stat'), stat);
		await writeFile(join(dir, 'cmdline'), p.state === 'Z' ? '' : `${p.argv.join('\0')}\0`);
		if (pid !== 'self') this.alive.add(pid);
	}

	store() {
		const probe = procProbe(this.dir, (pid) => this.alive.has(pid));
		return new FsStore(root, { onNotice: (m) => notes.push(m), processes: probe });
	}
}

const LEXPILOT = ['node', '/usr/lib/lexpilot/bin/lexpilot.js', 'gen', '--run-id', 'run1'];
const start = (ticks: number, cmdline = LEXPILOT): ProcessStart => ({
	boot: 'boot:b-1',
	ticks: String(ticks),
	cmdline
});
const tookOver = (pid: number, why: string) =>
	`${label}: took over the lock ${lockPath()} left by process ${pid} on this host (started ` +
	`2025-01-01T00:00:00Z), which is no longer running${why}.`;
const ZOMBIE = ' (its pid is a zombie, an ended process not yet reaped)';
const REUSED =
	' (its pid now belongs to another process, started at another time or running another program)';

describe('FsStore locks over a fake /proc', () => {
	let proc: FakeProc;
	beforeEach(async () => {
		proc = new FakeProc(join(root, 'proc'));
		await proc.boot('b-1');
		await proc.process('self', { ticks: 9000, argv: LEXPILOT });
	});

	it('records the writer’s boot, start and command line from /proc/self', async () => {
		const release = await proc.store().lock(run);
		const info = JSON.parse(await readFile(lockPath(), 'utf8')) as LockInfo;
		expect(info.process).toEqual(start(9000));
		await release();
	});

	it.each<[string, { state?: string; ticks: number; argv: string[] }, string]>([
		['its pid is a zombie', { state: 'Z', ticks: 500, argv: [] }, ZOMBIE],
		['its pid started later (reused)', { ticks: 8000, argv: LEXPILOT }, REUSED],
		['its pid runs another program', { ticks: 500, argv: ['sleep', '600'] }, REUSED]
	])('takes over a lock whose writer is gone although %s, saying so', async (_, now, why) => {
		await proc.process(4001, now);
		await plantLock({ pid: 4001, process: start(500) });
		const release = await proc.store().lock(run);
		expect(notes).toEqual([tookOver(4001, why)]);
		expect(JSON.parse(await readFile(lockPath(), 'utf8')).pid).toBe(process.pid);
		await release();
	});

	it('takes over an old lock without the new fields whose pid is a zombie', async () => {
		await proc.process(4001, { state: 'Z', ticks: 500, argv: [] });
		await plantLock({ pid: 4001 });
		const release = await proc.store().lock(run);
		expect(notes).toEqual([tookOver(4001, ZOMBIE)]);
		await release();
	});

	it('takes over a lock of another boot whose pid is alive again', async () => {
		await proc.process(4001, { ticks: 500, argv: LEXPILOT });
		await plantLock({ pid: 4001, process: { ...start(500), boot: 'boot:b-0' } });
		const release = await proc.store().lock(run);
		expect(notes).toEqual([tookOver(4001, REUSED)]);
		await release();
	});

	it('takes over a lock naming this very pid, left by an earlier process (a container restart)', async () => {
		await proc.process(process.pid, { ticks: 9000, argv: LEXPILOT });
		await plantLock({ pid: process.pid, process: start(500) });
		const release = await proc.store().lock(run);
		expect(notes).toEqual([tookOver(process.pid, REUSED)]);
		await release();
	});

	it.each<[string, () => Promise<void>, RegExp]>([
		[
			'a live writer: same boot, start and command line',
			async () => {
				await proc.process(4001, { ticks: 500, argv: LEXPILOT });
				await plantLock({ pid: 4001, process: start(500) });
			},
			/is being written by another lexpilot process 4001 on .*Wait for it to finish/
		],
		[
			'this process itself (same start)',
			async () => {
				await proc.process(process.pid, { ticks: 9000, argv: LEXPILOT });
				await plantLock({ pid: process.pid, process: start(9000) });
			},
			/is already being written by this process/
		],
		[
			'a live pid whose /proc entry cannot be read (hidepid)',
			async () => {
				proc.alive.add(4001);
				await plantLock({ pid: 4001, process: start(500) });
			},
			/is being written by another lexpilot process 4001/
		],
		[
			'an old lock without the new fields, its pid now another program (kill alone, as before)',
			async () => {
				await proc.process(4001, { ticks: 8000, argv: ['sleep', '600'] });
				await plantLock({ pid: 4001 });
			},
			/is being written by another lexpilot process 4001/
		],
		[
			'a lock whose process field is malformed (judged as an old lock)',
			async () => {
				await proc.process(4001, { ticks: 8000, argv: ['sleep', '600'] });
				await plantLock({ pid: 4001, process: { boot: 1 } as never });
			},
			/is being written by another lexpilot process 4001/
		]
	])('refuses %s', async (_, plant, pattern) => {
		await plant();
		const error = await proc
			.store()
			.lock(run)
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(RunLockedError);
		expect((error as Error).message).toMatch(pattern);
		expect(notes).toEqual([]);
	});

	describe('a pid whose process started after the lock was taken (any lock format)', () => {
		/** The lock's `started_at`, 2025-01-01T00:00:00Z, in seconds. */
		const LOCK_TIME = Date.parse('2025-01-01T00:00:00Z') / 1000;
		const SLEEP = ['sleep', '600'];
		// The pid's process started `after` seconds after the lock was taken (negative: before).
		const startedAfter = async (after: number, argv = SLEEP) => {
			await proc.btime(LOCK_TIME - 3600);
			await proc.process(4001, { ticks: (3600 + after) * 100, argv });
		};

		it.each<[string, Partial<LockInfo>]>([
			['an old lock without the new fields', {}],
			['a lock whose process field is malformed', { process: { boot: 1 } as never }],
			['a lock recording the same program', { process: { ...start(500), cmdline: SLEEP } }]
		])('takes over %s, saying its pid was reused', async (_, fields) => {
			await startedAfter(60);
			await plantLock({ pid: 4001, ...fields });
			const release = await proc.store().lock(run);
			expect(notes).toEqual([tookOver(4001, REUSED)]);
			await release();
		});

		it.each([
			['an hour before the lock', -3600],
			['two seconds after it (btime is whole seconds)', 2]
		])('refuses an old lock whose pid started %s', async (_, after) => {
			await startedAfter(after);
			await plantLock({ pid: 4001 });
			await expect(proc.store().lock(run)).rejects.toThrow(
				/is being written by another lexpilot process 4001/
			);
			expect(notes).toEqual([]);
		});

		it('refuses a lock whose recorded start is the pid’s own, whatever the clocks say', async () => {
			await startedAfter(60, LEXPILOT);
			await plantLock({ pid: 4001, process: start(3660 * 100) });
			await expect(proc.store().lock(run)).rejects.toThrow(/is being written by another lexpilot/);
		});

		it('refuses an old lock whose time cannot be read (judged by kill, as before)', async () => {
			await startedAfter(60);
			await plantLock({ pid: 4001, started_at: 'yesterday' });
			await expect(proc.store().lock(run)).rejects.toThrow(/is being written by another lexpilot/);
		});
	});

	it('a lock of a pid that is gone is taken over with or without the new fields', async () => {
		await plantLock({ pid: 4001 });
		const release = await proc.store().lock(run);
		expect(notes).toEqual([tookOver(4001, '')]);
		await release();
	});

	it('removes the temporary files a dead writer left in the run’s folders, and only those', async () => {
		await proc.process(4002, { ticks: 500, argv: LEXPILOT });
		const stageDir = join(root, ...dirname(stageFilePath(run, 'a1')).split('/'));
		await mkdir(stageDir, { recursive: true });
		await mkdir(dirname(lockPath()), { recursive: true });
		const dead = join(stageDir, '.a1.jsonl.tmp-4001-b7e2f392');
		const alive = join(stageDir, '.a1.jsonl.tmp-4002-0badcafe');
		const lockDraft = `${lockPath()}.tmp-4001-00000000`.replace(/\.lock\.tmp/, '..lock.tmp');
		const mine = join(stageDir, 'notes.tmp-4001-b7e2f392'); // not a name writeTemp makes
		for (const path of [dead, alive, lockDraft, mine]) await writeFile(path, 'half');
		const release = await proc.store().lock(run);
		expect((await readdir(stageDir)).sort()).toEqual([
			'.a1.jsonl.tmp-4002-0badcafe',
			'notes.tmp-4001-b7e2f392'
		]);
		expect(await readdir(dirname(lockPath()))).toEqual(['.lock']);
		expect(notes).toEqual([
			`${label}: removed 2 temporary files left by a process that stopped mid-write (${lockDraft}, ${dead}); nothing saved was in them.`
		]);
		await release();
	});

	it('without /proc (other systems) a lock records no process and pids are judged by kill', async () => {
		const none = procProbe(join(root, 'no-proc'), () => true);
		const store = new FsStore(root, { processes: none });
		const release = await store.lock(run);
		expect(JSON.parse(await readFile(lockPath(), 'utf8'))).not.toHaveProperty('process');
		await release();
	});
});

describe('FsStore locks over the real /proc', () => {
	const children: ChildProcess[] = [];
	afterEach(() => {
		for (const child of children.splice(0)) child.kill('SIGKILL');
	});

	/** Spawns `sh -c script`; resolves with the child and its first line of output. */
	function shell(script: string): Promise<{ child: ChildProcess; line: string }> {
		const child = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'inherit'] });
		children.push(child);
		return new Promise((resolve, reject) => {
			child.on('error', reject);
			child.stdout!.once('data', (d: Buffer) => resolve({ child, line: d.toString().trim() }));
		});
	}

	const real = procProbe();
	const stateOf = async (pid: number) =>
		(await readFile(`/proc/${pid}/stat`, 'latin1').catch(() => '')).split(') ')[1]?.[0];

	it('takes over the lock of a writer that is now a zombie', async () => {
		// The shell forks a child, then becomes `sleep`, which never reaps it: a zombie.
		const { line } = await shell('sleep 0.1 & echo $!; exec sleep 60');
		const pid = Number(line);
		await vi.waitFor(async () => expect(await stateOf(pid)).toBe('Z'), { timeout: 10_000 });
		const self = (await real.self())!;
		expect(self).not.toBeNull();
		await plantLock({ pid, process: { ...self, cmdline: ['sleep', '0'] } });
		const store = new FsStore(root, { onNotice: (m) => notes.push(m) });
		const release = await store.lock(run);
		expect(notes).toEqual([tookOver(pid, ZOMBIE)]);
		await release();
	});

	it('takes over a lock whose pid now runs sleep, and refuses it while it names that sleep', async () => {
		const { child } = await shell('echo started; exec sleep 60');
		const pid = child.pid!;
		await vi.waitFor(async () =>
			expect(await readFile(`/proc/${pid}/comm`, 'utf8')).toBe('sleep\n')
		);
		const now = await real.look(pid);
		expect(now.kind).toBe('alive');
		const sleepStart = (now as { start: ProcessStart }).start;
		expect(sleepStart.cmdline).toEqual(['sleep', '60']);

		// Recorded by the sleep itself: the writer is alive.
		await plantLock({ pid, process: sleepStart });
		const store = new FsStore(root, { onNotice: (m) => notes.push(m) });
		await expect(store.lock(run)).rejects.toThrow(/being written by another lexpilot process/);

		// Recorded by a lexpilot that had this pid before: reused.
		await plantLock({ pid, process: { ...sleepStart, ticks: '1', cmdline: LEXPILOT } });
		const release = await store.lock(run);
		expect(notes).toEqual([tookOver(pid, REUSED)]);
		await release();
	});

	it('takes over an old lock (no process record) whose pid is a sleep started after it', async () => {
		const { child } = await shell('echo started; exec sleep 60');
		const pid = child.pid!;
		await vi.waitFor(async () =>
			expect(await readFile(`/proc/${pid}/comm`, 'utf8')).toBe('sleep\n')
		);
		const store = new FsStore(root, { onNotice: (m) => notes.push(m) });
		// Taken after the sleep started: its writer could be the sleep, so it is refused.
		await plantLock({ pid, started_at: new Date().toISOString() });
		await expect(store.lock(run)).rejects.toThrow(/being written by another lexpilot process/);
		// Taken in 2025, long before the sleep started: the sleep cannot be its writer.
		await plantLock({ pid });
		const release = await store.lock(run);
		expect(notes).toEqual([tookOver(pid, REUSED)]);
		await release();
	});

	it('takes over a lock naming this process’s own pid, left by an earlier process', async () => {
		const self = (await real.self())!;
		await plantLock({ pid: process.pid, process: { ...self, ticks: '1' } });
		const store = new FsStore(root, { onNotice: (m) => notes.push(m) });
		const release = await store.lock(run);
		expect(notes).toEqual([tookOver(process.pid, REUSED)]);
		// A second writer in this process is refused, as before.
		await expect(new FsStore(root).lock(run)).rejects.toThrow(
			/already being written by this process/
		);
		await release();
	});
});
