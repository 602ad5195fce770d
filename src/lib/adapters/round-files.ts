/**
 * Files mode's input files on disk: `open(name)` for `filesSender` writes
 * `<folder>/<name>` (name from `core/batch/file-names.ts`, never from hostile input), buffered
 * in pieces of about 1 MiB, synced and closed at the end. A file of an earlier attempt at the
 * same round is replaced (a restart writes the round again).
 */
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import type { LineSink } from '../core/batch/split';
import { writeAll } from './fs-store-write';

const PIECE = 1024 * 1024;

export function roundFileOpener(folder: string): (name: string) => Promise<LineSink> {
	return async (name) => {
		const path = join(folder, ...name.split('/'));
		await fs.mkdir(dirname(path), { recursive: true });
		const handle = await fs.open(path, 'w');
		let buffered: string[] = [];
		let size = 0;
		const flush = async () => {
			if (buffered.length === 0) return;
			const bytes = Buffer.from(buffered.join(''), 'utf8');
			buffered = [];
			size = 0;
			await writeAll(handle, bytes, path);
		};
		return {
			async write(line) {
				buffered.push(line);
				size += line.length;
				if (size >= PIECE) await flush();
			},
			async close() {
				try {
					await flush();
					await handle.sync();
				} finally {
					await handle.close();
				}
			}
		};
	};
}
