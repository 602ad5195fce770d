/**
 * JavaScript the built site sends, gzip-compressed: each route's first load (the entry, the
 * route's nodes and their static imports, as a fresh visit to that URL fetches them before the
 * page runs; `first-load.ts`) and all of build/_app. Needs `npm run build` first; the bench does
 * not build, so it measures the build you have.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pageRoots, staticClosure } from './first-load';
import type { BenchModule } from './types';

const ROOT = resolve(import.meta.dirname, '../..');
const BUILD = join(ROOT, 'build');
/** First load of each route, in kB (1000 bytes) of gzip. */
const TARGET_FIRST_LOAD_KB = 100;

/** gzip at zlib's default level 6, what static hosts typically serve. */
const gzipKb = (bytes: Uint8Array) => gzipSync(bytes).length / 1000;

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

/** Every page of the app. */
const ROUTES = ['/', '/dataset', '/models', '/prompts', '/run', '/results', '/inspect', '/bundles'];

/** HTML file of a route in build/. */
const htmlOf = (route: string) =>
	join(BUILD, route === '/' ? 'index.html' : `${route.slice(1)}.html`);

/** The modules a fresh visit to `route` fetches before the page runs (see first-load.ts). */
async function firstLoadOf(route: string): Promise<string[]> {
	const html = htmlOf(route);
	return [...(await staticClosure(pageRoots(await readFile(html, 'utf8'), dirname(html))))];
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
			const files = await firstLoadOf(route);
			rows.push({
				name: `first load of ${route} JavaScript, gzip (${files.length} files)`,
				value: await gzipOf(files),
				unit: 'kB',
				target: TARGET_FIRST_LOAD_KB
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
