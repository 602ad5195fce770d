/**
 * Symbolic links inside the layout are refused, for reads and writes alike: a stage file, call
 * log, manifest or run folder that is a link could send a repair (a torn line cut off, a file
 * reordered) or an append to a file outside the output root. Each file is checked by path from
 * the output root down (`lstat`, the root itself and what lies above it may be links), and opened
 * with `O_NOFOLLOW`, so a link put in place after the check is refused too. Nothing is read from
 * or written through the link; the error names it.
 */
import { constants, promises as fs } from 'node:fs';
import { relative, sep } from 'node:path';
import { CheckpointError } from '../core/errors';
import { coded } from '../core/said';
import { errorCode } from './fs-store-context';

/** `O_NOFOLLOW` where the platform has it (not on Windows, which `lstat` still covers). */
export const NOFOLLOW: number = constants.O_NOFOLLOW ?? 0;

/** The error for a symbolic link at `path`, a file or folder of the layout. */
export const symlinkError = (path: string) =>
	new CheckpointError([coded('layout_symlink', { path })]);

/** `e` as a {@link symlinkError} when opening `path` with `O_NOFOLLOW` met a link, else `e`. */
export const orSymlink = (e: unknown, path: string): unknown =>
	NOFOLLOW !== 0 && errorCode(e) === 'ELOOP' ? symlinkError(path) : e;

/**
 * Refuses `path` when it, or a folder between the output root `root` and it, is a symbolic link.
 * Parts that do not exist yet end the check (they are created as plain folders and files).
 */
export async function refuseLinks(root: string, path: string): Promise<void> {
	const parts = relative(root, path).split(sep);
	if (parts[0] === '..' || parts[0] === '') return; // not under the root: not the layout's
	let at = root;
	for (const part of parts) {
		at = `${at}${sep}${part}`;
		// A part that cannot be looked at (missing, not a folder, no permission) ends the check:
		// the read or write that follows meets the same and says so as it always has.
		const link = await fs.lstat(at).then(
			(s) => s.isSymbolicLink(),
			() => false
		);
		if (link) throw symlinkError(at);
	}
}
