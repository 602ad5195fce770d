/**
 * JavaScript the built site sends, gzip-compressed: what the first page loads (every .js
 * response while opening `/` in Chromium, until the network is idle) and all of build/_app.
 * Needs `npm run build` first; the bench does not build, so it measures the build you have.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startBrowser } from '../e2e/browser';
import type { BenchModule } from './types';

const ROOT = resolve(import.meta.dirname, '../..');
const BUILD = join(ROOT, 'build');
/** First page, in kB (1000 bytes) of gzip. */
const TARGET_FIRST_PAGE_KB = 100;

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

/** gzip kB of each .js response while `route` is the first page opened, until the network is idle. */
async function firstLoadOf(route: string): Promise<Map<string, number>> {
	const e2e = await startBrowser();
	const sizes = new Map<string, number>();
	try {
		const pending: Promise<void>[] = [];
		e2e.page.on('response', (response) => {
			if (!new URL(response.url()).pathname.endsWith('.js')) return;
			pending.push(response.body().then((body) => void sizes.set(response.url(), gzipKb(body))));
		});
		await e2e.page.goto(`${e2e.url}${route}`, { waitUntil: 'networkidle' });
		await Promise.all(pending);
		e2e.assertClean();
	} finally {
		await e2e.close();
	}
	if (sizes.size === 0) throw new Error(`opening ${route} loaded no JavaScript`);
	return sizes;
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
		// Each route opened first, in a fresh profile: what a visitor landing there downloads.
		const firstLoad = new Map<string, Map<string, number>>();
		for (const route of ROUTES) firstLoad.set(route, await firstLoadOf(route));
		const firstPage = firstLoad.get('/')!;
		let total = 0;
		const all = (await filesUnder(join(BUILD, '_app'))).filter((f) => f.endsWith('.js'));
		for (const file of all) total += gzipKb(await readFile(file));
		const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);
		return [
			{
				name: `first page (/) JavaScript, gzip (${firstPage.size} files)`,
				value: sum(firstPage.values()),
				unit: 'kB',
				target: TARGET_FIRST_PAGE_KB
			},
			...ROUTES.filter((r) => r !== '/').map((route) => ({
				name: `first load of ${route} JavaScript, gzip (${firstLoad.get(route)!.size} files)`,
				value: sum(firstLoad.get(route)!.values()),
				unit: 'kB',
				target: TARGET_FIRST_PAGE_KB
			})),
			{
				name: `all JavaScript in build/_app, gzip (${all.length} files)`,
				value: total,
				unit: 'kB',
				target: null
			}
		];
	}
};
