/**
 * `manifest.json` on disk: read strictly, created once (never replaced), and changed only by
 * `recordOperational`, always whole or absent (a temporary file, then a link or a rename).
 */
import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import { CheckpointError } from '../core/errors';
import type { RunKey } from '../core/layout';
import { coded } from '../core/said';
import type { Manifest, OperationalEntry } from '../core/records';
import {
	checkManifest,
	manifestText,
	readManifestBytes,
	withOperationalEntry
} from '../core/store/manifest-file';
import { errorCode, readIfExists, replaceFile, syncDir, writeTemp } from './fs-store-io';
import { orDiskFull } from './fs-store-write';

export async function readManifestFile(path: string, run: RunKey): Promise<Manifest | null> {
	const bytes = await readIfExists(path);
	return bytes === null ? null : readManifestBytes(bytes, path, { run });
}

export async function createManifestFile(path: string, manifest: Manifest): Promise<void> {
	await checkManifest(manifest, path);
	const exists = () => new CheckpointError([coded('manifest_exists', { file: path })]);
	await fs.mkdir(dirname(path), { recursive: true });
	const tmp = await writeTemp(path, manifestText(manifest)).catch((e) => {
		throw orDiskFull(e, path, coded('disk_what_manifest', {}));
	});
	try {
		// link, unlike rename, fails when the target exists: no window between check and write.
		await fs.link(tmp, path);
	} catch (e) {
		if (errorCode(e) === 'EEXIST') throw exists();
		// Some file systems cannot hard-link; fall back to check-then-rename.
		if (!['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP'].includes(errorCode(e) ?? '')) throw e;
		if (
			await fs.stat(path).then(
				() => true,
				() => false
			)
		)
			throw exists();
		await fs.rename(tmp, path);
	} finally {
		await fs.unlink(tmp).catch(() => undefined);
	}
	await syncDir(dirname(path));
}

export async function recordOperationalFile(
	path: string,
	run: RunKey,
	entry: OperationalEntry
): Promise<void> {
	const bytes = await readIfExists(path);
	if (bytes === null) {
		throw new CheckpointError([coded('manifest_missing_for_resume', { file: path })]);
	}
	const saved = await readManifestBytes(bytes, path, { run, asWritten: true });
	const next = await checkManifest(withOperationalEntry(saved, entry), path, {
		run,
		asWritten: true
	});
	// Whole or absent, as on creation: a crash leaves the old manifest or the new one.
	await replaceFile(path, manifestText(next)).catch((e) => {
		throw orDiskFull(e, path, coded('disk_what_settings', {}));
	});
	await syncDir(dirname(path));
}
