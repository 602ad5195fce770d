/** Writing a bundle: files of the canonical layout into a zip, the same runs always the same bytes. */
import { parseLayoutPath } from '../core/layout';
import { STAGE_FILE_NAMES } from '../core/record-names';

/** Sort key of a layout path: run, then its manifest, then its stage files in PROTOCOL.md §5 order. */
function layoutRank(path: string): string {
	const named = parseLayoutPath(path);
	if (!named) return `~${path}`;
	const rank =
		named.kind === 'manifest'
			? 0
			: named.kind === 'calls'
				? STAGE_FILE_NAMES.length + 1
				: STAGE_FILE_NAMES.indexOf(named.file) + 1;
	return `${named.run.runId}\u0000${named.run.modelDir}\u0000${String(rank).padStart(2, '0')}`;
}

/**
 * Writes files of the canonical layout (path → UTF-8 text) into a zip, run by run, manifest
 * first. Entries carry a fixed date, so the same runs always give the same bytes.
 */
export async function zipBundle(files: Iterable<readonly [string, string]>): Promise<Uint8Array> {
	const { zipSync, strToU8 } = await import('fflate');
	const entries: Record<string, [Uint8Array, { mtime: Date }]> = {};
	const mtime = new Date(Date.UTC(2000, 0, 1));
	const sorted = [...files].sort(([a], [b]) => {
		const [ra, rb] = [layoutRank(a), layoutRank(b)];
		return ra < rb ? -1 : ra > rb ? 1 : 0;
	});
	for (const [path, text] of sorted) entries[path] = [strToU8(text), { mtime }];
	return zipSync(entries, { level: 6 });
}
