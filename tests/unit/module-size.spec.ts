/**
 * Modules stay small (docs/DEVELOPING.md: aim at 80 lines or fewer): a source file under `src`
 * over {@link MAX_LINES} lines says in its header why it is one file (a sentence with "one
 * file" in its leading comment), or the check fails naming it. The median module is at most
 * {@link MEDIAN_GOAL} lines, or the check fails with the modules that would bring it back. Specs and Paraglide's generated `src/lib/paraglide` are not modules of
 * ours and are not counted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');
const GENERATED = join(SRC, 'lib/paraglide');
/** Lines above which a module must say why it is one file. */
const MAX_LINES = 400;
/** The goal for the median module, in lines. */
const MEDIAN_GOAL = 80;

function modules(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return path === GENERATED ? [] : modules(path);
		return /\.(ts|svelte|js)$/.test(entry.name) && !entry.name.endsWith('.spec.ts') ? [path] : [];
	});
}

/** Lines as `wc -l` counts them: line feeds. */
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** The leading comment of a module: a `/** … *\/` block, or a Svelte file's `<!-- … -->`. */
function header(text: string): string {
	const start = text.trimStart();
	const block = /^\/\*\*?([\s\S]*?)\*\//.exec(start) ?? /^<!--([\s\S]*?)-->/.exec(start);
	return block ? block[1] : '';
}

/** Whether a header says why its module is one file. */
const saysWhyOneFile = (text: string) => /\bone file\b/i.test(header(text));

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const sizes = modules(SRC).map((path) => {
	const text = readFileSync(path, 'utf8');
	return { path: relative(ROOT, path), lines: lineCount(text), text };
});

describe('module size', () => {
	it('finds the modules', () => {
		expect(sizes.length).toBeGreaterThan(200);
		expect(sizes.some((s) => s.path.startsWith('src/lib/paraglide'))).toBe(false);
		expect(sizes.some((s) => s.path.endsWith('.spec.ts'))).toBe(false);
	});

	it(`a module over ${MAX_LINES} lines says in its header why it is one file`, () => {
		const unexplained = sizes
			.filter((s) => s.lines > MAX_LINES && !saysWhyOneFile(s.text))
			.map((s) => `${s.path} (${s.lines} lines)`);
		expect(
			unexplained,
			'split these by concern, or say in the header why each is one file'
		).toEqual([]);
	});

	it('reads a header as the leading comment only', () => {
		expect(saysWhyOneFile('/**\n * Parsing.\n *\n * One file: one grammar.\n */\nx();')).toBe(true);
		expect(saysWhyOneFile('<!--\n\tOne file for now: …\n-->\n<script lang="ts">')).toBe(true);
		expect(saysWhyOneFile('/** Parsing. */\n// one file\nx();')).toBe(false);
		expect(saysWhyOneFile('import x from "y";\n/** One file. */')).toBe(false);
	});

	it(`the median module is at most ${MEDIAN_GOAL} lines`, () => {
		const lines = sizes.map((s) => s.lines);
		const small = lines.filter((n) => n <= MEDIAN_GOAL).length;
		console.log(
			`median module: ${median(lines)} lines over ${lines.length} modules ` +
				`(${small} at most ${MEDIAN_GOAL} lines)`
		);
		expect(
			median(lines),
			`the median module is over ${MEDIAN_GOAL} lines: split the largest modules by concern`
		).toBeLessThanOrEqual(MEDIAN_GOAL);
	});

	it('reads the median of an odd and an even count', () => {
		expect(median([90, 10, 80])).toBe(80);
		expect(median([10, 90, 80, 70])).toBe(75);
	});
});
