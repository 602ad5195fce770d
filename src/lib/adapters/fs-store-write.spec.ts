/**
 * FsStore on a disk that fills mid-write (`tests/support/disk-wall.ts`): a write that lands only
 * in part, then ENOSPC. Every write is checked to the last byte, a refused append leaves only
 * whole lines and the size it had, and nothing it wrote half (lock, manifest, seal, call log,
 * temporary file) is left to stop or mislead a later run.
 */
import { mkdtemp, open, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CheckpointError } from '../core/errors';
import { callLogPath, manifestPath, stageFilePath } from '../core/layout';
import { recordIdentity } from '../core/store/identity';
import { makeA1, makeManifest } from '../../../tests/support/record-factories';
import { diskWall } from '../../../tests/support/disk-wall';
import { FsStore, lockFilePath, sealFilePath } from './fs-store';

const run = { runId: 'run1', modelDir: 'gpt-x-4e02b150' };
let root: string;
let store: FsStore;
let notes: string[];

beforeEach(async () => {
	root = await mkdtemp(join(tmpdir(), 'lexpilot-full-'));
	notes = [];
	store = new FsStore(root, { onNotice: (m) => notes.push(m) });
});
afterEach(async () => {
	vi.restoreAllMocks();
	await rm(root, { recursive: true, force: true });
});

const a1Path = () => store.pathOf(stageFilePath(run, 'a1'));
const line = (n: string) => `${JSON.stringify(makeA1(n))}\n`;
const fullMessage = (path: string, what: string) =>
	`${path}: the disk is full (ENOSPC), so ${what} was not saved; everything saved before is ` +
	'kept. Free space on that disk, then run the same command again to resume.';

describe('FsStore appends on a filling disk', () => {
	it('writes the rest of a short write: the record lands whole', async () => {
		const wall = await diskWall({ nth: 1, match: (p) => p === a1Path(), afterwards: 'room' });
		await store.appendRecord(run, 'a1', makeA1('1'));
		expect(wall.hit).toBe(true);
		expect(await readFile(a1Path(), 'utf8')).toBe(line('1'));
	});

	it.each([
		['half the line lands, then ENOSPC', (n: number) => Math.floor(n / 2)],
		['one byte lands, then ENOSPC', () => 1],
		['nothing lands (ENOSPC at once)', () => 0]
	])(
		'%s: refused as a full disk naming the file; whole lines only; the next append follows them',
		async (_title, partial) => {
			const release = await store.lock(run);
			await store.appendRecord(run, 'a1', makeA1('1'));
			const wall = await diskWall({ nth: 1, match: (p) => p === a1Path(), partial });
			const refused = await store.appendRecord(run, 'a1', makeA1('2')).catch((e: unknown) => e);
			expect(refused).toBeInstanceOf(CheckpointError);
			expect((refused as Error).message).toBe(
				fullMessage(a1Path(), 'the record of case_number 2 (complete history)')
			);
			expect(await readFile(a1Path(), 'utf8')).toBe(line('1'));
			wall.makeRoom();
			// Its identity is free again, and the tracked size is the file's: no NUL padding.
			await store.appendRecord(run, 'a1', makeA1('2'));
			expect(await readFile(a1Path(), 'utf8')).toBe(line('1') + line('2'));
			await release();
		}
	);

	it('a line that cannot be cut back stops the file; the next writer moves it aside as a torn line', async () => {
		const release = await store.lock(run);
		await store.appendRecord(run, 'a1', makeA1('1'));
		const wall = await diskWall({ nth: 1, match: (p) => p === a1Path() });
		const probe = await open(a1Path(), 'r');
		const fileHandle = Object.getPrototypeOf(probe);
		await probe.close();
		vi.spyOn(fileHandle, 'truncate').mockRejectedValue(
			Object.assign(new Error('EIO: i/o error, ftruncate'), { code: 'EIO' })
		);
		await expect(store.appendRecord(run, 'a1', makeA1('2'))).rejects.toThrow(/disk is full/);
		wall.makeRoom();
		// The file may end in part of a line now: this process appends nothing more to it.
		await expect(store.appendRecord(run, 'a1', makeA1('3'))).rejects.toThrow(/disk is full/);
		await release();
		vi.restoreAllMocks();
		const cut = (await readFile(a1Path(), 'utf8')).slice(line('1').length);
		expect(cut.length).toBeGreaterThan(0);
		expect(line('2').startsWith(cut)).toBe(true);

		const next = new FsStore(root, { onNotice: (m) => notes.push(m) });
		const again = await next.lock(run);
		expect((await next.readHeads(run, 'a1')).map((h) => h.record.case_number)).toEqual(['1']);
		await next.appendRecord(run, 'a1', makeA1('2'));
		expect(await readFile(a1Path(), 'utf8')).toBe(line('1') + line('2'));
		expect(await readFile(`${a1Path()}.torn`, 'utf8')).toBe(cut);
		expect(notes.join('\n')).toMatch(/line 2: the last line .* has no line end/);
		await again();
	});
});

describe('FsStore files written whole on a filling disk', () => {
	const entries = async (dir: string) => (await readdir(dir).catch(() => [])).sort();

	it('the manifest: refused as a full disk, no manifest and no temporary file left', async () => {
		const path = store.pathOf(manifestPath(run));
		await diskWall({ nth: 1, match: (p) => p.includes('manifest.json') });
		await expect(store.createManifest(makeManifest(run))).rejects.toThrow(
			fullMessage(path, 'the manifest')
		);
		vi.restoreAllMocks();
		expect(await entries(dirname(path))).toEqual([]);
		await store.createManifest(makeManifest(run));
		expect(await entries(dirname(path))).toEqual(['manifest.json']);
	});

	it('the lock file: refused as a full disk, and no lock naming nobody left behind', async () => {
		const path = store.pathOf(lockFilePath(run));
		await diskWall({ nth: 1, match: (p) => p.includes('.lock.tmp-'), partial: () => 5 });
		await expect(store.lock(run)).rejects.toThrow(fullMessage(path, 'the lock file'));
		vi.restoreAllMocks();
		expect(await entries(dirname(path))).toEqual([]);
		const release = await store.lock(run);
		await release();
	});

	it('the lock file is never there half written: a process killed mid-write leaves no lock', async () => {
		const path = store.pathOf(lockFilePath(run));
		const probe = await open(join(root, 'probe'), 'w');
		const proto = Object.getPrototypeOf(probe) as { write: (...args: unknown[]) => unknown };
		await probe.close();
		const write = proto.write;
		const seen: string[] = [];
		// At each write the process could die: what would a later run find at the lock's path?
		vi.spyOn(proto, 'write').mockImplementation(async function (this: unknown, ...args: unknown[]) {
			seen.push(await readFile(path, 'utf8').catch(() => '(none)'));
			return write.apply(this, args);
		} as never);
		const release = await store.lock(run);
		vi.restoreAllMocks();
		expect(seen.length).toBeGreaterThan(0);
		expect(seen.filter((text) => text !== '(none)')).toEqual([]);
		expect(JSON.parse(await readFile(path, 'utf8')).pid).toBe(process.pid);
		expect((await entries(dirname(path))).filter((n) => n.includes('.tmp-'))).toEqual([]);
		await release();
	});

	it('a resume seal: refused, the seal file as it was, no temporary file left', async () => {
		const release = await store.lock(run);
		await store.appendRecord(run, 'a1', makeA1('1'));
		await store.sealStage(run, 'gen', 'k1', ['a1']);
		const path = store.pathOf(sealFilePath(run));
		const before = await readFile(path, 'utf8');
		await diskWall({ nth: 1, match: (p) => p.includes('.resume-seals.json') });
		await expect(store.sealStage(run, 'gen', 'k2', ['a1'])).rejects.toThrow(/ENOSPC/);
		vi.restoreAllMocks();
		expect(await readFile(path, 'utf8')).toBe(before);
		expect(await store.isStageSealed(run, 'gen', 'k1', ['a1'])).toBe(true);
		expect((await entries(dirname(path))).filter((n) => n.includes('.tmp-'))).toEqual([]);
		await release();
	});

	it('the reorder of a stage file: refused as a full disk, the file as it was', async () => {
		await store.appendRecord(run, 'a1', makeA1('2'));
		await store.appendRecord(run, 'a1', makeA1('1'));
		const before = await readFile(a1Path(), 'utf8');
		await diskWall({ nth: 1, match: (p) => p.includes('.a1.jsonl.tmp-') });
		const identities = ['1', '2'].map((n) => recordIdentity('a1', makeA1(n)));
		await expect(store.finalizeStageFile(run, 'a1', identities)).rejects.toThrow(
			fullMessage(a1Path(), 'the file in dataset order')
		);
		vi.restoreAllMocks();
		expect(await readFile(a1Path(), 'utf8')).toBe(before);
		expect((await entries(dirname(a1Path()))).filter((n) => n.includes('.tmp-'))).toEqual([]);
	});

	it('the call log: a refused line is cut back, the next line follows the whole ones', async () => {
		const path = store.pathOf(callLogPath(run));
		const release = await store.lock(run);
		await store.appendCall(run, '{"a":1}\n');
		const wall = await diskWall({ nth: 1, match: (p) => p === path });
		await expect(store.appendCall(run, '{"b":2}\n')).rejects.toThrow(
			`${path}: the disk is full (ENOSPC)`
		);
		wall.makeRoom();
		await store.appendCall(run, '{"c":3}\n');
		expect(await readFile(path, 'utf8')).toBe('{"a":1}\n{"c":3}\n');
		await release();
	});
});
