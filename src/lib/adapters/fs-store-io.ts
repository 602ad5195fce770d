/**
 * Writes that are whole or absent: a temporary file beside the target, synced, then moved into
 * place; and the folder synced so the move itself survives a crash.
 */
import { randomUUID } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CheckpointError } from '../core/errors';
import { coded } from '../core/said';
import { errorCode } from './fs-store-context';
import { NOFOLLOW, orSymlink } from './fs-store-links';
import { writeAll } from './fs-store-write';

export { errorCode } from './fs-store-context';

/**
 * Writes `data` to a temporary file beside `path` and syncs it; returns the temporary path. A
 * failed write (a full disk) removes the temporary file.
 */
/** The name {@link writeTemp} gives a temporary file, `.<name>.tmp-<pid>-<8 hex>`; group 1 is the pid. */
export const TEMP_NAME = /^\..+\.tmp-(\d+)-[0-9a-f]{8}$/;

export async function writeTemp(path: string, data: string | Uint8Array): Promise<string> {
	const tmp = join(
		dirname(path),
		`.${path.split(/[\\/]/).pop()}.tmp-${process.pid}-${randomUUID().slice(0, 8)}`
	);
	const handle = await fs.open(tmp, 'wx');
	try {
		await writeAll(handle, typeof data === 'string' ? Buffer.from(data, 'utf8') : data, tmp);
		await handle.sync();
	} catch (e) {
		await handle.close().catch(() => undefined);
		await fs.unlink(tmp).catch(() => undefined);
		throw e;
	}
	await handle.close();
	return tmp;
}

/** Replaces `path` whole with `data` (a reader sees the old file or the new one). */
export async function replaceFile(path: string, data: string | Uint8Array): Promise<void> {
	const tmp = await writeTemp(path, data);
	try {
		await fs.rename(tmp, path);
	} catch (e) {
		await fs.unlink(tmp).catch(() => undefined);
		throw e;
	}
}

/** Where hard links cannot be made (some network and FAT file systems). */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/**
 * Puts a synced temporary file (`writeTemp`) at `path` only if nothing is there: a hard link,
 * so `path` appears whole or not at all, and exclusively. Returns false when `path` exists. The
 * temporary file stays for the caller to remove. Where hard links cannot be made, an exclusive
 * copy (whole unless the process dies during it).
 */
export async function placeNew(tmp: string, path: string): Promise<boolean> {
	try {
		await fs.link(tmp, path);
	} catch (e) {
		if (errorCode(e) === 'EEXIST') return false;
		if (!NO_LINKS.has(errorCode(e) ?? '')) throw e;
		try {
			await fs.copyFile(tmp, path, constants.COPYFILE_EXCL);
		} catch (copy) {
			if (errorCode(copy) === 'EEXIST') return false;
			throw copy;
		}
	}
	await syncDir(dirname(path));
	return true;
}

/** Makes a rename or link durable. Some platforms (Windows) cannot open a folder; skip there. */
export async function syncDir(dir: string): Promise<void> {
	try {
		const handle = await fs.open(dir, 'r');
		try {
			await handle.sync();
		} finally {
			await handle.close();
		}
	} catch {
		// best effort
	}
}

export async function removeIfEmpty(dir: string): Promise<void> {
	await fs.rmdir(dir).catch(() => undefined);
}

/**
 * A file opened for reading, or null when there is none. A symbolic link is refused, not
 * followed (`fs-store-links.ts`).
 */
export async function openIfExists(path: string): Promise<FileHandle | null> {
	try {
		return await fs.open(path, constants.O_RDONLY | NOFOLLOW);
	} catch (e) {
		if (errorCode(e) === 'ENOENT') return null;
		throw orSymlink(e, path);
	}
}

/**
 * The bytes of a file, or null when there is none. A symbolic link is refused, not followed
 * (`fs-store-links.ts`).
 */
export async function readIfExists(path: string): Promise<Buffer | null> {
	let handle: FileHandle;
	try {
		handle = await fs.open(path, constants.O_RDONLY | NOFOLLOW);
	} catch (e) {
		if (errorCode(e) === 'ENOENT') return null;
		throw orSymlink(e, path);
	}
	try {
		return await handle.readFile();
	} finally {
		await handle.close();
	}
}

/**
 * A file-system error from the first write under the output root, as a `CheckpointError`
 * (exit 2) naming the folder and what to do; other errors pass unchanged.
 */
export function unwritableError(root: string, e: unknown, path: string): unknown {
	const code = errorCode(e);
	if (!code || !['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'ENOENT', 'EEXIST'].includes(code)) {
		return e;
	}
	const why = coded(
		code === 'EROFS'
			? 'unwritable_read_only'
			: code === 'ENOTDIR' || code === 'EEXIST'
				? 'unwritable_file_in_way'
				: code === 'ENOENT'
					? 'unwritable_cannot_create'
					: 'unwritable_denied',
		{}
	);
	return new CheckpointError([coded('root_unwritable', { root, code, path }, { why: [why] })]);
}
