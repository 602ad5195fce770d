/** What FsStore adds to the contract (tests/unit/store-contract.spec.ts): files, lock file. */
import { spawnSync } from 'node:child_process';
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunLockedError } from '../core/errors';
import { manifestPath, stageFilePath } from '../core/layout';
import { recordIdentity } from '../core/store/identity';
import { makeA1, makeDcg, makeManifest } from '../core/store/record-factories';
import { FsStore, lockFilePath, type LockInfo } from './fs-store';

const run = { runId: 'run1', modelDir: 'gpt-x-4e02b150' };
let root: string;
let store: FsStore;

beforeEach(async () => {
	root = await mkdtemp(join(tmpdir(), 'lexpilot-fs-'));
	store = new FsStore(root);
});
afterEach(() => rm(root, { recursive: true, force: true }));

const lockPath = () => store.pathOf(lockFilePath(run));

async function plantLock(info: Partial<LockInfo> | string): Promise<void> {
	await mkdir(dirname(lockPath()), { recursive: true });
	await writeFile(lockPath(), typeof info === 'string' ? info : JSON.stringify(info));
}

describe('FsStore files', () => {
	it('writes the manifest as pretty JSON at its layout path, leaving no temporary file', async () => {
		await store.createManifest(makeManifest(run));
		const text = await readFile(store.pathOf(manifestPath(run)), 'utf8');
		expect(text).toBe(`${JSON.stringify(makeManifest(run), null, 2)}\n`);
		expect(await readdir(dirname(store.pathOf(manifestPath(run))))).toEqual(['manifest.json']);
	});

	it('keeps an existing manifest byte for byte when a second one is refused', async () => {
		await store.createManifest(makeManifest(run));
		const before = await readFile(store.pathOf(manifestPath(run)));
		await expect(store.createManifest(makeManifest(run, { simulated: true }))).rejects.toThrow(
			/exists already/
		);
		expect(await readFile(store.pathOf(manifestPath(run)))).toEqual(before);
	});

	it('appends one UTF-8 line per record, Chinese text unescaped', async () => {
		await store.appendRecord(run, 'a1', makeA1('1'));
		await store.appendRecord(run, 'a1', makeA1('2'));
		const text = await readFile(store.pathOf(stageFilePath(run, 'a1')), 'utf8');
		expect(text).toBe(`${JSON.stringify(makeA1('1'))}\n${JSON.stringify(makeA1('2'))}\n`);
		expect(text).toContain('我借给朋友五万元');
	});

	it('reorders a file by moving its lines byte for byte, whatever their formatting', async () => {
		const path = store.pathOf(stageFilePath(run, 'DCG_results'));
		// Written by another tool: spaces, \u escapes, CRLF, a BOM.
		const lines = [
			'{"case_number": "3", "cause_of_action": "\\u6c11\\u95f4", "round_labels": ["否", "否"], "success": false, "input_sha256": "' +
				makeDcg('3').input_sha256 +
				'"}\r\n',
			`${JSON.stringify(makeDcg('1'))}\n`,
			`${JSON.stringify({ ...makeDcg('2'), extra: { 字段: [1, 2] } })}\n`
		];
		await mkdir(dirname(path), { recursive: true });
		await writeFile(path, `\uFEFF${lines.join('')}`);
		const order = ['1', '2', '3'].map((c) => recordIdentity('DCG_results', { case_number: c }));
		await store.finalizeStageFile(run, 'DCG_results', order);
		expect(await readFile(path, 'utf8')).toBe(lines[1] + lines[2] + lines[0]);
		expect(await readdir(dirname(path))).toEqual(['DCG_results.jsonl']);
	});

	it('lists only run folders holding a manifest', async () => {
		await store.createManifest(makeManifest(run));
		await mkdir(join(root, 'runs', 'run2', 'm-00000000'), { recursive: true });
		await mkdir(join(root, 'runs', '.hidden', 'm-00000000'), { recursive: true });
		await writeFile(join(root, 'runs', 'notes.txt'), 'x');
		expect(await store.listRuns()).toEqual([run]);
	});

	it('deleteRun leaves a folder that holds files it does not know', async () => {
		await store.createManifest(makeManifest(run));
		await store.appendRecord(run, 'a1', makeA1('1'));
		const notes = join(dirname(store.pathOf(manifestPath(run))), 'my-notes.txt');
		await writeFile(notes, '实验记录');
		await store.deleteRun(run);
		expect(await readFile(notes, 'utf8')).toBe('实验记录');
		expect(await readdir(join(root, 'AwN_gen'))).toEqual([]);
	});
});

describe('FsStore lock file', () => {
	it('holds pid, host and start time, and is removed on release', async () => {
		const release = await store.lock(run);
		const info = JSON.parse(await readFile(lockPath(), 'utf8')) as LockInfo;
		expect(info).toMatchObject({ pid: process.pid, hostname: hostname() });
		expect(Date.parse(info.started_at)).not.toBeNaN();
		await release();
		await expect(readFile(lockPath())).rejects.toMatchObject({ code: 'ENOENT' });
	});

	it('does not remove a lock it no longer owns', async () => {
		const release = await store.lock(run);
		await plantLock({
			pid: process.ppid,
			hostname: hostname(),
			started_at: 'later',
			token: 'other'
		});
		await release();
		expect(JSON.parse(await readFile(lockPath(), 'utf8')).token).toBe('other');
	});

	const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

	it.each<[string, () => Partial<LockInfo> | string, RegExp]>([
		[
			'a live process on this host',
			() => ({ pid: process.ppid, hostname: hostname(), started_at: '2025-01-01T00:00:00Z' }),
			/being written by another lexpilot process \d+ on .*Wait for it to finish or stop it/
		],
		[
			'a process on this host that is gone (interrupted run)',
			() => ({ pid: deadPid(), hostname: hostname(), started_at: '2025-01-01T00:00:00Z' }),
			/lock file .*\.lock was left by process \d+ .*no longer running.*delete the lock file, and run again/
		],
		[
			'a process on another host',
			() => ({ pid: 4242, hostname: 'lab-server-7', started_at: '2025-01-01T00:00:00Z' }),
			/locked by process 4242 on lab-server-7.*If that process is no longer running, delete the lock file/
		],
		[
			'nobody it can name (empty lock file)',
			() => '',
			/does not say who holds it.*delete that file/
		]
	])('refuses a lock held by %s, saying what to do', async (_, info, pattern) => {
		await plantLock(info());
		const error = await store.lock(run).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(RunLockedError);
		expect((error as Error).message).toMatch(pattern);
		expect((error as Error).message).toContain(lockPath());
		// Never taken over silently: the file is still there for the user to judge.
		await expect(readFile(lockPath(), 'utf8')).resolves.toBeTypeOf('string');
	});

	it('lets the run resume once the user has removed a stale lock', async () => {
		await plantLock({ pid: deadPid(), hostname: hostname(), started_at: '2025-01-01T00:00:00Z' });
		await expect(store.lock(run)).rejects.toThrow(RunLockedError);
		await rm(lockPath());
		const release = await store.lock(run);
		await release();
	});
});
