/**
 * Modules of `src/` import each other in one direction: no module reaches itself again through
 * its imports (static, dynamic or type-only, by a relative or `$lib/` path; specs aside). A pair
 * that needs each other's types shares a third module instead (e.g. `adapters/workers/dataset-loader-types.ts`,
 * `core/record-names.ts` below `core/records.ts`).
 *
 * `PENDING` lists the cycles still to untangle, in files being edited elsewhere at the time the
 * check was added; the list must match exactly, so a new cycle fails and so does an untangled
 * one until its entry is removed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

/** Each cycle as its modules, sorted, joined by ' ↔ '. */
const PENDING = ['src/lib/core/prompts/pack-json.ts ↔ src/lib/core/prompts/pack.ts'];

function sources(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === 'paraglide' ? [] : sources(path);
		return /\.(ts|svelte)$/.test(entry.name) && !entry.name.endsWith('.spec.ts') ? [path] : [];
	});
}

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

/** The module graph of `files`: each file → the files of `files` it imports. */
export function importGraph(
	files: string[],
	read: (file: string) => string,
	exists: (file: string) => boolean = existsSync
): Map<string, string[]> {
	const known = new Set(files);
	const resolveSpec = (from: string, spec: string): string | null => {
		const base = spec.startsWith('$lib/')
			? join(SRC, 'lib', spec.slice('$lib/'.length))
			: spec.startsWith('.')
				? resolve(dirname(from), spec)
				: null;
		if (base === null) return null;
		return (
			[base, `${base}.ts`, join(base, 'index.ts')].find((c) => known.has(c) && exists(c)) ?? null
		);
	};
	return new Map(
		files.map((file) => [
			file,
			[...read(file).matchAll(IMPORT)].flatMap((m) => resolveSpec(file, m[1]) ?? [])
		])
	);
}

/** The groups of modules that reach each other (Tarjan's strongly connected components). */
export function cycles(graph: Map<string, string[]>): string[][] {
	let next = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const found: string[][] = [];
	const visit = (v: string) => {
		index.set(v, next);
		low.set(v, next++);
		stack.push(v);
		onStack.add(v);
		for (const w of graph.get(v) ?? []) {
			if (!index.has(w)) {
				visit(w);
				low.set(v, Math.min(low.get(v)!, low.get(w)!));
			} else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
		}
		if (low.get(v) === index.get(v)) {
			const group: string[] = [];
			let w: string;
			do {
				w = stack.pop()!;
				onStack.delete(w);
				group.push(w);
			} while (w !== v);
			if (group.length > 1 || graph.get(v)?.includes(v)) found.push(group.sort());
		}
	};
	for (const v of graph.keys()) if (!index.has(v)) visit(v);
	return found;
}

describe('import direction', () => {
	it('has no import cycle in src/ but the pending ones', () => {
		const files = sources(SRC);
		const graph = importGraph(files, (f) => readFileSync(f, 'utf8'));
		const shown = cycles(graph)
			.map((group) => group.map((f) => relative(ROOT, f).split('\\').join('/')).join(' ↔ '))
			.sort();
		expect(shown).toEqual(PENDING);
	});

	it('finds a cycle through a type-only or a dynamic import, and none in a chain', () => {
		const src = (name: string) => join(SRC, 'lib', name);
		const texts: Record<string, string> = {
			[src('a.ts')]: "import type { B } from './b';",
			[src('b.ts')]: "const a = () => import('$lib/a');\nimport { c } from './c';",
			[src('c.ts')]: "import { z } from 'zod';"
		};
		const graph = importGraph(
			Object.keys(texts),
			(f) => texts[f],
			() => true
		);
		expect(cycles(graph)).toEqual([[src('a.ts'), src('b.ts')]]);
		delete texts[src('a.ts')];
		texts[src('a.ts')] = "import { c } from './c';";
		expect(
			cycles(
				importGraph(
					Object.keys(texts),
					(f) => texts[f],
					() => true
				)
			)
		).toEqual([]);
	});
});
