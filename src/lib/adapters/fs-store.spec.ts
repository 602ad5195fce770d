/**
 * What FsStore adds to the contract (tests/unit/store-contract.spec.ts): files, lock file, torn
 * last lines, the call log, resume seals, heads. One file because every block works on a real
 * temporary output root with the same set-up, and each is one part of the one adapter.
 */
import { spawnSync } from 'node:child_process';
import { promises } from 'node:fs';
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RunLockedError } from '../core/errors';
import { callLogPath, manifestPath, stageFilePath } from '../core/layout';
import { recordIdentity } from '../core/store/identity';
import { makeA1, makeDcg, makeManifest } from '../../../tests/support/record-factories';
import { nodeSha256 } from './node-hash';
import { useSyncSha256 } from '../core/hash';
import { FsStore, lockFilePath, sealFilePath, type LockInfo } from './fs-store';

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
			// Taken now: the parent process started before, so it can be the writer.
			() => ({ pid: process.ppid, hostname: hostname(), started_at: new Date().toISOString() }),
			/being written by another lexpilot process \d+ on .*Wait for it to finish or stop it/
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

	it('takes over a lock left by a process of this host that is gone, saying so', async () => {
		const notes: string[] = [];
		const writer = new FsStore(root, { onNotice: (m) => notes.push(m) });
		const pid = deadPid();
		await plantLock({ pid, hostname: hostname(), started_at: '2025-01-01T00:00:00Z', token: 't' });
		const release = await writer.lock(run);
		const info = JSON.parse(await readFile(lockPath(), 'utf8')) as LockInfo;
		expect(info).toMatchObject({ pid: process.pid, hostname: hostname() });
		expect(notes).toEqual([
			`run run1 / ${run.modelDir}: took over the lock ${lockPath()} left by process ${pid} on this host (started 2025-01-01T00:00:00Z), which is no longer running.`
		]);
		// Nothing but the new lock is left beside the manifest.
		expect(await readdir(dirname(lockPath()))).toEqual(['.lock']);
		await release();
		await expect(readFile(lockPath())).rejects.toMatchObject({ code: 'ENOENT' });
	});

	it('prints what a lock file says of its writer escaped, never as lines or terminal codes', async () => {
		const forged = '2025-01-01\n\u001b[2Jrun run1: all cases saved';
		await plantLock({ pid: 4242, hostname: 'lab\u001b]0;x\u0007', started_at: forged });
		const refused = ((await store.lock(run).catch((e: unknown) => e)) as Error).message;
		expect(refused).toContain('on lab\\u001b]0;x\\u0007, started 2025-01-01\\u000a\\u001b[2Jrun');
		const notes: string[] = [];
		const pid = deadPid();
		await plantLock({ pid, hostname: hostname(), started_at: forged, token: 't' });
		await (
			await new FsStore(root, { onNotice: (m) => notes.push(m) }).lock(run)
		)();
		expect(notes[0]).toContain('(started 2025-01-01\\u000a\\u001b[2Jrun run1: all cases saved)');
		expect(notes[0]).not.toContain('\n');
		expect(notes[0]).not.toContain('\u001b');
	});

	it('of two writers taking over one stale lock at once, exactly one wins', async () => {
		await plantLock({ pid: deadPid(), hostname: hostname(), started_at: '2025-01-01T00:00:00Z' });
		const results = await Promise.allSettled([
			new FsStore(root).lock(run),
			new FsStore(root).lock(run)
		]);
		expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
		const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
		expect(lost.reason).toBeInstanceOf(RunLockedError);
	});
});

describe('FsStore torn last line', () => {
	const a1Path = () => store.pathOf(stageFilePath(run, 'a1'));
	const whole = `${JSON.stringify(makeA1('1'))}\n`;
	const cut = JSON.stringify(makeA1('2')).slice(0, 50);

	async function plantTorn(): Promise<void> {
		await mkdir(dirname(a1Path()), { recursive: true });
		await writeFile(a1Path(), whole + cut);
	}

	it('a writer moves it to <file>.torn, says so, and reads the whole records', async () => {
		const notes: string[] = [];
		const writer = new FsStore(root, { onNotice: (m) => notes.push(m) });
		await plantTorn();
		const release = await writer.lock(run);
		const records = await writer.readRecords(run, 'a1');
		expect(records.map((r) => r.case_number)).toEqual(['1']);
		expect(await readFile(a1Path(), 'utf8')).toBe(whole);
		expect(await readFile(`${a1Path()}.torn`, 'utf8')).toBe(cut);
		expect(notes).toEqual([
			`${a1Path()}, line 2: the last line (50 bytes) has no line end, so it was cut off while being written (the run was interrupted). It was moved to ${a1Path()}.torn; its case is generated again.`
		]);
		// The case can be saved again, after the whole line.
		await writer.appendRecord(run, 'a1', makeA1('2'));
		expect(await readFile(a1Path(), 'utf8')).toBe(whole + JSON.stringify(makeA1('2')) + '\n');
		// A second crash keeps the first torn file.
		await writeFile(a1Path(), whole + 'x');
		const again = new FsStore(root, { onNotice: (m) => notes.push(m) });
		await release();
		const release2 = await again.lock(run);
		await again.readRecords(run, 'a1');
		expect(await readFile(`${a1Path()}.torn`, 'utf8')).toBe(cut);
		expect(await readFile(`${a1Path()}.torn-2`, 'utf8')).toBe('x');
		await release2();
	});

	it('a writer reading heads (the kept state a resume uses) moves it aside too, then appends after the whole line', async () => {
		const notes: string[] = [];
		const writer = new FsStore(root, { onNotice: (m) => notes.push(m) });
		await plantTorn();
		const release = await writer.lock(run);
		const heads = await writer.readHeads(run, 'a1');
		expect(heads.map((h) => h.record.case_number)).toEqual(['1']);
		expect(await readFile(`${a1Path()}.torn`, 'utf8')).toBe(cut);
		expect(notes).toHaveLength(1);
		// The kept handle appends after the cut, not after the torn bytes.
		await Promise.all(['2', '3'].map((n) => writer.appendRecord(run, 'a1', makeA1(n))));
		await release();
		const text = await readFile(a1Path(), 'utf8');
		expect(text.startsWith(whole)).toBe(true);
		expect(
			(await new FsStore(root).readRecords(run, 'a1')).map((r) => r.case_number).sort()
		).toEqual(['1', '2', '3']);
	});

	it('a writer whose first touch of the file is an append moves it aside as well', async () => {
		const writer = new FsStore(root);
		await plantTorn();
		const release = await writer.lock(run);
		await writer.appendRecord(run, 'a1', makeA1('2'));
		await release();
		expect(await readFile(a1Path(), 'utf8')).toBe(whole + JSON.stringify(makeA1('2')) + '\n');
		expect(await readFile(`${a1Path()}.torn`, 'utf8')).toBe(cut);
	});

	it('a reader without the lock reports it and changes nothing', async () => {
		await plantTorn();
		await expect(store.readRecords(run, 'a1')).rejects.toThrow(
			/a1\.jsonl, line 2: the last line has no line end/
		);
		expect(await readFile(a1Path(), 'utf8')).toBe(whole + cut);
		await expect(readFile(`${a1Path()}.torn`)).rejects.toMatchObject({ code: 'ENOENT' });
	});
});

describe('FsStore while it holds the lock', () => {
	const a1Path = () => store.pathOf(stageFilePath(run, 'a1'));
	const lines = (...records: unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');

	it('keeps heads through appends and a reorder, and appends after the reorder land in the file', async () => {
		const release = await store.lock(run);
		const [a, b, c, d] = ['1', '2', '3', '4'].map((n) => makeA1(n));
		await Promise.all([a, b, c].map((r) => store.appendRecord(run, 'a1', r)));
		const saved = await readFile(a1Path(), 'utf8');
		expect(saved.split('\n')).toHaveLength(4);
		const order = [c, a, b].map((r) => recordIdentity('a1', r));
		await store.finalizeStageFile(run, 'a1', [...order, recordIdentity('a1', d)]);
		expect(await readFile(a1Path(), 'utf8')).toBe(lines(c, a, b));
		const heads = await store.readHeads(run, 'a1');
		expect(heads.map((h) => h.record.case_number)).toEqual(['3', '1', '2']);
		await store.appendRecord(run, 'a1', d);
		expect(await readFile(a1Path(), 'utf8')).toBe(lines(c, a, b, d));
		await release();
		// Another store (a new process) reads the same heads.
		expect(await new FsStore(root).readHeads(run, 'a1')).toEqual(await store.readHeads(run, 'a1'));
	});

	it('leaves a file it knows to be in order untouched, without reading it', async () => {
		const release = await store.lock(run);
		await store.appendRecord(run, 'a1', makeA1('1'));
		await store.appendRecord(run, 'a1', makeA1('2'));
		// Changed behind the store's back: a finalize that read the file would refuse it.
		await writeFile(a1Path(), 'not json\n', { flag: 'a' });
		await store.finalizeStageFile(
			run,
			'a1',
			['1', '2'].map((n) => recordIdentity('a1', makeA1(n)))
		);
		await release();
		await expect(
			store.finalizeStageFile(
				run,
				'a1',
				['1', '2'].map((n) => recordIdentity('a1', makeA1(n)))
			)
		).rejects.toThrow(/line 3: not valid JSON/);
	});

	it('reads the file again when the lock is taken again: another writer may have appended', async () => {
		let release = await store.lock(run);
		await store.appendRecord(run, 'a1', makeA1('1'));
		await release();
		await new FsStore(root).appendRecord(run, 'a1', makeA1('2'));
		release = await store.lock(run);
		expect((await store.readHeads(run, 'a1')).map((h) => h.record.case_number)).toEqual(['1', '2']);
		await expect(store.appendRecord(run, 'a1', makeA1('2'))).rejects.toThrow(/saved already/);
		await release();
	});
});

describe('FsStore symbolic links in the layout', () => {
	const a1Path = () => store.pathOf(stageFilePath(run, 'a1'));
	const whole = `${JSON.stringify(makeA1('1'))}\n`;
	const cut = JSON.stringify(makeA1('2')).slice(0, 50);
	let outside: string;

	beforeEach(async () => {
		outside = await mkdtemp(join(tmpdir(), 'lexpilot-outside-'));
	});
	afterEach(() => rm(outside, { recursive: true, force: true }));

	const refused = (path: string) =>
		`${path} is a symbolic link: lexpilot reads and writes only plain files and folders under ` +
		'the output root, so it neither followed it nor changed what it points to. Put the file or ' +
		'folder itself there (or remove the link) and run again; everything saved is kept.';

	/** A file outside the output root, and a link to it at `at`. */
	async function linkOutside(at: string, bytes: string): Promise<string> {
		const target = join(outside, 'precious.txt');
		await writeFile(target, bytes);
		await mkdir(dirname(at), { recursive: true });
		await promises.symlink(target, at);
		return target;
	}

	it.each([
		['a writer resuming (its torn-line repair)', true],
		['a reader', false]
	])(
		'a stage file linked outside the root is refused to %s, the outside file unchanged',
		async (_, lock) => {
			const target = await linkOutside(a1Path(), whole + cut);
			await store.appendRecord(run, 'DCG_results', makeDcg('1'));
			const release = lock ? await store.lock(run) : null;
			await expect(store.readRecords(run, 'a1')).rejects.toThrow(refused(a1Path()));
			await expect(store.readHeads(run, 'a1')).rejects.toThrow(refused(a1Path()));
			await expect(store.appendRecord(run, 'a1', makeA1('3'))).rejects.toThrow(refused(a1Path()));
			await release?.();
			expect(await readFile(target, 'utf8')).toBe(whole + cut);
			expect(await readdir(outside)).toEqual(['precious.txt']);
			await expect(readFile(`${a1Path()}.torn`)).rejects.toMatchObject({ code: 'ENOENT' });
			// What was saved before is still there.
			expect((await store.readRecords(run, 'DCG_results')).map((r) => r.case_number)).toEqual([
				'1'
			]);
		}
	);

	it('a call log or manifest linked outside the root is neither read nor written', async () => {
		const calls = store.pathOf(callLogPath(run));
		const target = await linkOutside(calls, '{"a":');
		await expect(store.appendCall(run, '{"b":2}\n')).rejects.toThrow(refused(calls));
		await expect(store.readCalls(run)).rejects.toThrow(refused(calls));
		expect(await readFile(target, 'utf8')).toBe('{"a":');
		const manifest = store.pathOf(manifestPath(run));
		await promises.symlink(target, manifest);
		await expect(store.readManifest(run)).rejects.toThrow(refused(manifest));
		expect(await readFile(target, 'utf8')).toBe('{"a":');
	});

	it('a run folder linked outside the root is refused before anything is written in it', async () => {
		const folder = dirname(store.pathOf(manifestPath(run)));
		await mkdir(dirname(folder), { recursive: true });
		await promises.symlink(outside, folder);
		await expect(store.lock(run)).rejects.toThrow(refused(folder));
		await expect(store.createManifest(makeManifest(run))).rejects.toThrow(refused(folder));
		await expect(store.appendCall(run, '{"b":2}\n')).rejects.toThrow(refused(folder));
		// A stage's folder of the run, likewise.
		const stageFolder = dirname(a1Path());
		await mkdir(dirname(stageFolder), { recursive: true });
		await promises.symlink(outside, stageFolder);
		await expect(store.appendRecord(run, 'a1', makeA1('1'))).rejects.toThrow(refused(stageFolder));
		await expect(store.readRecords(run, 'a1')).rejects.toThrow(refused(stageFolder));
		expect(await readdir(outside)).toEqual([]);
	});
});

describe('FsStore call log', () => {
	const callsPath = () => store.pathOf(callLogPath(run));

	it('drops a cut-off last line once, reading back across blocks, then appends whole lines', async () => {
		await mkdir(dirname(callsPath()), { recursive: true });
		const good = '{"a":1}\n{"b":2}\n';
		// A torn tail longer than the 64 KiB block the store reads back with.
		await writeFile(callsPath(), `${good}{"c":"${'x'.repeat(100_000)}`);
		const release = await store.lock(run);
		await store.appendCall(run, '{"d":3}\n');
		await store.appendCall(run, '{"e":4}\n');
		expect(await readFile(callsPath(), 'utf8')).toBe(`${good}{"d":3}\n{"e":4}\n`);
		await release();
		// Only a process's first append checks; a later writer appends after the whole lines.
		await new FsStore(root).appendCall(run, '{"f":5}\n');
		expect(await readFile(callsPath(), 'utf8')).toBe(`${good}{"d":3}\n{"e":4}\n{"f":5}\n`);
	});

	it('empties a log whose only line is cut off', async () => {
		await mkdir(dirname(callsPath()), { recursive: true });
		await writeFile(callsPath(), '{"a":');
		await store.appendCall(run, '{"b":2}\n');
		expect(await readFile(callsPath(), 'utf8')).toBe('{"b":2}\n');
	});
});

describe('FsStore resume seals', () => {
	const files = ['a1', 'LCA_results'] as const;
	const sealed = (key = 'k1') => store.isStageSealed(run, 'gen', key, files);

	it('answers true only under the same key, the lock held, and the files as they were', async () => {
		let release = await store.lock(run);
		await store.appendRecord(run, 'a1', makeA1('1'));
		// LCA_results does not exist yet: sealed as absent.
		await store.sealStage(run, 'gen', 'k1', files);
		expect(await sealed()).toBe(true);
		expect(await sealed('k2')).toBe(false);
		expect(await store.isStageSealed(run, 'dcg', 'k1', files)).toBe(false);
		await release();
		// A reader without the lock trusts no seal.
		expect(await sealed()).toBe(false);
		release = await store.lock(run);
		expect(await sealed()).toBe(true);
		// An absent file that appears voids it; so does an append.
		const lca = store.pathOf(stageFilePath(run, 'LCA_results'));
		await mkdir(dirname(lca), { recursive: true });
		await writeFile(lca, '');
		expect(await sealed()).toBe(false);
		await store.sealStage(run, 'gen', 'k1', files);
		expect(await sealed()).toBe(true);
		await store.appendRecord(run, 'a1', makeA1('2'));
		expect(await sealed()).toBe(false);
		await release();
	});

	it('writes the seals of stages that end together once, each stage sealed', async () => {
		const release = await store.lock(run);
		await store.appendRecord(run, 'a1', makeA1('1'));
		const rename = vi.spyOn(promises, 'rename');
		await Promise.all([
			store.sealStage(run, 'gen', 'k1', files),
			store.sealStage(run, 'dcg', 'k2', ['a1']),
			store.sealStage(run, 'ljp-gold', 'k3', ['a1'])
		]);
		const seals = store.pathOf(sealFilePath(run));
		expect(rename.mock.calls.filter(([, to]) => to === seals)).toHaveLength(1);
		rename.mockRestore();
		expect(await sealed()).toBe(true);
		expect(await store.isStageSealed(run, 'dcg', 'k2', ['a1'])).toBe(true);
		expect(await store.isStageSealed(run, 'ljp-gold', 'k3', ['a1'])).toBe(true);
		await release();
	});

	it('treats an unreadable or malformed seal file as no seal', async () => {
		const release = await store.lock(run);
		await store.appendRecord(run, 'a1', makeA1('1'));
		await store.sealStage(run, 'gen', 'k1', files);
		const path = store.pathOf(sealFilePath(run));
		const saved = JSON.parse(await readFile(path, 'utf8'));
		for (const text of [
			'not json',
			'[]',
			JSON.stringify({ version: 2, stages: saved.stages }),
			JSON.stringify({ version: 1, stages: { gen: { key: 'k1', files: null } } }),
			JSON.stringify({
				version: 1,
				stages: { gen: { key: 'k1', files: { a1: saved.stages.gen.files.a1 } } }
			})
		]) {
			await writeFile(path, text);
			expect(await sealed()).toBe(false);
		}
		await writeFile(path, JSON.stringify(saved));
		expect(await sealed()).toBe(true);
		await release();
	});
});

describe('FsStore heads with a synchronous SHA-256 (the CLI installs one)', () => {
	afterEach(() => useSyncSha256(null));

	it('are the heads WebCrypto gives, record for record', async () => {
		for (const n of ['1', '2', '3']) await store.appendRecord(run, 'a1', makeA1(n));
		const viaWebCrypto = await new FsStore(root).readHeads(run, 'a1');
		useSyncSha256(nodeSha256);
		const release = await store.lock(run);
		expect(await store.readHeads(run, 'a1')).toEqual(viaWebCrypto);
		await release();
	});
});
