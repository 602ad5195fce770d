/**
 * JavaScript the built site sends, gzip-compressed: each route's first load (the entry, the
 * route's nodes and their static imports, as a fresh visit to that URL fetches them before the
 * page runs; `first-load.ts`) and all of build/_app. Needs `npm run build` first; the bench does
 * not build, so it measures the build you have.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { FIRST_LOAD_BUDGET_KB, firstLoad, gzipKb, ROUTES } from './first-load';
import type { BenchModule } from './types';

const ROOT = resolve(import.meta.dirname, '../..');
const BUILD = join(ROOT, 'build');

async function filesUnder(dir: string): Promise<string[]> {
	const out: string[] = [];
	for (const entry of await readdir(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) out.push(...(await filesUnder(path)));
		else out.push(path);
	}
	return out;
}

/** Newest modification time under `dir`, in ms. */
async function newest(dir: string): Promise<number> {
	let latest = 0;
	for (const file of await filesUnder(dir)) latest = Math.max(latest, (await stat(file)).mtimeMs);
	return latest;
}

export const siteSizeBench: BenchModule = {
	name: 'site JavaScript size',
	async run() {
		if (!existsSync(join(BUILD, 'index.html'))) {
			throw new Error(`${BUILD}/index.html is missing: run "npm run build" before "npm run bench"`);
		}
		if ((await newest(join(ROOT, 'src'))) > (await stat(join(BUILD, 'index.html'))).mtimeMs) {
			process.stderr.write(
				'bench: build/ is older than src/; the sizes are of that older build ("npm run build" to refresh)\n'
			);
		}
		const gzipOf = async (files: string[]) => {
			let kb = 0;
			for (const file of files) kb += gzipKb(await readFile(file));
			return kb;
		};
		const rows = [];
		for (const route of ROUTES) {
			const { files, kb } = await firstLoad(BUILD, route);
			rows.push({
				name: `first load of ${route} JavaScript, gzip (${files.length} files)`,
				value: kb,
				unit: 'kB',
				target: FIRST_LOAD_BUDGET_KB
			});
		}
		const all = (await filesUnder(join(BUILD, '_app'))).filter((f) => f.endsWith('.js'));
		return [
			...rows,
			{
				name: `all JavaScript in build/_app, gzip (${all.length} files)`,
				value: await gzipOf(all),
				unit: 'kB',
				target: null
			}
		];
	}
};
