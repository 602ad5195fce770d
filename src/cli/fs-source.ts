/** The results reader's view of an output root on disk (Node only; core never touches files). */
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../lib/core/errors';
import { REVIEWS_DIR } from '../lib/core/layout';
import { STAGE_FILES } from '../lib/core/records';
import type { LayoutSource } from '../lib/core/results/source';
import { decodeLayoutText } from '../lib/core/text';
import { escapeControl } from '../lib/core/text/escape-control';

/** The layout's top folders; anything else in the root (a dataset, notes) is never walked. */
const TOP_DIRS = [
	...new Set(['runs', REVIEWS_DIR, ...Object.values(STAGE_FILES).map((s) => s.dir)])
];

/**
 * Lists files under the layout's top folders, three levels deep (`<top>/<run>/<model>/<file>`),
 * with `/` separators on every platform. Throws UsageError when `root` is not a folder.
 */
export async function fsLayoutSource(root: string): Promise<LayoutSource> {
	const info = await stat(root).catch(() => null);
	if (!info?.isDirectory()) {
		throw new UsageError(
			`output root ${escapeControl(root)} does not exist or is not a folder; pass --output-root.`
		);
	}
	const list = async () => {
		const out: string[] = [];
		const walk = async (rel: string[], depth: number) => {
			const entries = await readdir(join(root, ...rel), { withFileTypes: true }).catch(() => []);
			for (const e of entries) {
				if (depth < 3 && e.isDirectory()) await walk([...rel, e.name], depth + 1);
				else if (depth === 3 && e.isFile()) out.push([...rel, e.name].join('/'));
			}
		};
		for (const top of TOP_DIRS) await walk([top], 1);
		return out;
	};
	// Strict UTF-8, as the bundle importer reads: a damaged file is named, never read around.
	const read = async (path: string) =>
		decodeLayoutText(await readFile(join(root, ...path.split('/'))), join(root, path));
	const chunks = (path: string): AsyncIterable<Uint8Array> =>
		createReadStream(join(root, ...path.split('/')), { highWaterMark: 1 << 20 });
	return { root, list, read, chunks };
}
