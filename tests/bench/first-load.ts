/**
 * The JavaScript a fresh visit to a page of the built site fetches before the page runs: the
 * two entry modules its HTML imports, the route's nodes (layout and page, named by the HTML's
 * modulepreload links) and everything those import statically, transitively. Dynamic
 * `import()`s and workers are not followed: they load on an action or after the page is up.
 * Read from the built files themselves, because SvelteKit's modulepreload list can miss a chunk
 * a node imports (the browser fetches it all the same).
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

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
