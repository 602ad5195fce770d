/**
 * Writes checked to the last byte. `write(2)` may write fewer bytes than asked without an error
 * (a disk filling up mid-write): `writeAll` writes the rest, and a write that makes no progress is
 * a full disk. A failed append is cut back to the size the file had, so no half line is left for
 * the next append to extend; `cutBack` says whether that worked (the size is read again, never
 * assumed, and a file is never grown: `truncate` past its end would pad it with NUL bytes).
 */
import type { FileHandle } from 'node:fs/promises';
import { CheckpointError } from '../core/errors';
import { coded, type CoreText } from '../core/said';
import { errorCode } from './fs-store-context';

/** The error codes of a full disk (or a full quota, which the writer meets the same way). */
const FULL = new Set(['ENOSPC', 'EDQUOT']);

export const isDiskFull = (e: unknown) => FULL.has(errorCode(e) ?? '');

/** Writes every byte of `bytes` at the handle's position, looping on short writes. */
export async function writeAll(handle: FileHandle, bytes: Uint8Array, path: string) {
	for (let done = 0; done < bytes.length;) {
		const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, null);
		if (!(bytesWritten > 0)) {
			throw Object.assign(
				new Error(
					`ENOSPC: no space left on device, write (${bytes.length - done} of ` +
						`${bytes.length} bytes to ${path} could not be written)`
				),
				{ code: 'ENOSPC' }
			);
		}
		done += bytesWritten;
	}
}

/** Cuts the file back to `size` bytes; true when it is now exactly that long. */
export async function cutBack(handle: FileHandle, size: number): Promise<boolean> {
	try {
		if ((await handle.stat()).size > size) await handle.truncate(size);
		return (await handle.stat()).size === size;
	} catch {
		return false;
	}
}

/**
 * A full disk met while saving `what` to `path`, said as such: where, that nothing saved before
 * is lost, and what to do.
 */
export function diskFullError(path: string, what: CoreText, e: unknown): CheckpointError {
	const code = String(errorCode(e));
	return new CheckpointError([coded('disk_full', { file: path, code }, { what: [what] })]);
}

/** `e` as a {@link diskFullError} when it is one, else unchanged. */
export const orDiskFull = (e: unknown, path: string, what: CoreText): unknown =>
	isDiskFull(e) ? diskFullError(path, what, e) : e;
