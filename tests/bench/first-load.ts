/**
 * The JavaScript a fresh visit to a page of the built site fetches before the page runs: the
 * two entry modules its HTML imports, the route's nodes (layout and page, named by the HTML's
 * modulepreload links) and everything those import statically, transitively. Dynamic
 * `import()`s and workers are not followed: they load on an action or after the page is up.
 * Read from the built files themselves, because SvelteKit's modulepreload list can miss a chunk
 * a node imports (the browser fetches it all the same).
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Every page of the app. */
export const ROUTES = [
	'/',
	'/dataset',
	'/models',
	'/prompts',
	'/run',
	'/results',
	'/inspect',
	'/bundles'
] as const;

/** The budget of each route's first load, in kB (1000 bytes) of gzip (PERFORMANCE.md, Targets). */
export const FIRST_LOAD_BUDGET_KB = 100;

/** gzip at zlib's default level 6, what static hosts typically serve, in kB. */
export const gzipKb = (bytes: Uint8Array) => gzipSync(bytes).length / 1000;

/** The modules a fresh visit to `route` of the site built in `build` fetches, and their gzip kB. */
export async function firstLoad(
	build: string,
	route: string
): Promise<{ files: string[]; kb: number }> {
	const html = join(build, route === '/' ? 'index.html' : `${route.slice(1)}.html`);
	const files = [...(await staticClosure(pageRoots(await readFile(html, 'utf8'), dirname(html))))];
	let kb = 0;
	for (const file of files) kb += gzipKb(await readFile(file));
	return { files, kb };
}

/** Relative specifiers of a built ES module's static imports and re-exports. */
export function staticImports(code: string): string[] {
	const out: string[] = [];
	// Minified output: `import{a as b}from"./x.js"`, `import*as c from"./x.js"`, `import"./x.js"`,
	// `export{d}from"./x.js"`. `import(` (dynamic) never matches: a quote must follow directly
	// or after `from`.
	const pattern = /\b(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?(["'])(\.{1,2}\/[^"']+)\1/g;
	for (const match of code.matchAll(pattern)) out.push(match[2]);
	return out;
}

/** Entry modules and route nodes a built page's HTML starts from, as absolute paths. */
export function pageRoots(html: string, htmlDir: string): string[] {
	const entries = [...html.matchAll(/\bimport\(\s*"(\.{1,2}\/[^"]+\.js)"\s*\)/g)].map((m) => m[1]);
	const nodes = [
		...html.matchAll(/<link\s+href="([^"]+\/nodes\/[^"]+\.js)"\s+rel="modulepreload"/g)
	].map((m) => m[1]);
	if (entries.length === 0) throw new Error('the page imports no entry module');
	if (nodes.length === 0) throw new Error('the page preloads no route node');
	return [...entries, ...nodes].map((path) => resolve(htmlDir, path));
}

/** Every module reachable from `roots` through static imports, as absolute paths. */
export async function staticClosure(
	roots: string[],
	read: (path: string) => Promise<string> = (path) => readFile(path, 'utf8')
): Promise<Set<string>> {
	const seen = new Set<string>();
	const pending = [...roots];
	while (pending.length > 0) {
		const file = pending.pop()!;
		if (seen.has(file)) continue;
		seen.add(file);
		for (const spec of staticImports(await read(file))) pending.push(resolve(dirname(file), spec));
	}
	return seen;
}
