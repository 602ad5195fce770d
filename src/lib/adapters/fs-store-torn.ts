/**
 * Torn lines: a crash mid-append can leave a final line without its line end. That can only be
 * an interrupted write, so a stage file's writer moves it aside, byte for byte, to `<file>.torn`
 * (`.torn-2`, … for later ones) and says so; a call log's (or batch answers') writer drops it.
 */
import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { coded } from '../core/said';
import { errorCode, syncDir } from './fs-store-io';
import { NOFOLLOW, orSymlink } from './fs-store-links';
import { orDiskFull, writeAll } from './fs-store-write';

/**
 * The bytes of a stage file, its torn last line moved aside when `writer` (this store holds the
 * run's lock); a reader gets them unchanged and the parser reports the line.
 */
export async function repairTorn(
	path: string,
	bytes: Buffer,
	writer: boolean,
	notice: (message: string) => void
): Promise<Buffer> {
	if (bytes.length === 0 || bytes[bytes.length - 1] === 0x0a) return bytes;
	return writer ? moveTornLine(path, bytes, notice) : bytes;
}

/**
 * Moves the final line of `path`, which has no line end (a write cut off by a crash), to a
 * `.torn` file beside it and cuts it off the stage file. Returns the bytes that remain.
 */
async function moveTornLine(
	path: string,
	bytes: Buffer,
	notice: (message: string) => void
): Promise<Buffer> {
	const keep = bytes.lastIndexOf(0x0a) + 1;
	const torn = bytes.subarray(keep);
	let line = 1;
	for (let i = bytes.indexOf(0x0a); i !== -1 && i < keep; i = bytes.indexOf(0x0a, i + 1)) line++;
	let target = `${path}.torn`;
	for (let n = 2; ; n++) {
		let handle: FileHandle;
		try {
			handle = await fs.open(target, 'wx');
		} catch (e) {
			if (errorCode(e) !== 'EEXIST') throw e;
			target = `${path}.torn-${n}`;
			continue;
		}
		try {
			await writeAll(handle, torn, target);
			await handle.sync();
		} catch (e) {
			// The stage file still holds the line: nothing is lost, and a later writer tries again.
			await handle.close().catch(() => undefined);
			await fs.unlink(target).catch(() => undefined);
			throw orDiskFull(e, target, coded('disk_what_torn', { file: path }));
		}
		await handle.close();
		break;
	}
	// Through a handle opened without following links: `fs.truncate(path)` would cut the file a
	// link put in place of the stage file points to, outside the output root.
	const handle = await fs.open(path, constants.O_RDWR | NOFOLLOW).catch((e) => {
		throw orSymlink(e, path);
	});
	try {
		await handle.truncate(keep);
		await handle.sync();
	} finally {
		await handle.close();
	}
	await syncDir(dirname(path));
	notice(
		`${path}, line ${line}: the last line (${torn.length} bytes) has no line end, so it was cut ` +
			`off while being written (the run was interrupted). It was moved to ${target}; its case ` +
			'is generated again.'
	);
	return bytes.subarray(0, keep);
}

/**
 * Cuts the last line of a call log (or of a batch run's answers) when it has no line end (a crash
 * mid-write), reading the file backwards from its end in blocks until the previous line end:
 * never the whole log. The handle must be open for reading.
 */
export async function dropTornCallLine(handle: FileHandle): Promise<void> {
	const { size } = await handle.stat();
	if (size === 0) return;
	const last = Buffer.alloc(1);
	await handle.read(last, 0, 1, size - 1);
	if (last[0] === 0x0a) return;
	const block = Buffer.alloc(64 * 1024);
	let end = size;
	while (end > 0) {
		const start = Math.max(0, end - block.length);
		const { bytesRead } = await handle.read(block, 0, end - start, start);
		const at = block.subarray(0, bytesRead).lastIndexOf(0x0a);
		if (at !== -1) {
			await handle.truncate(start + at + 1);
			return;
		}
		end = start;
	}
	await handle.truncate(0);
}
