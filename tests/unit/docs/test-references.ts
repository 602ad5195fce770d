/**
 * Tests named in a document's tables, and whether they exist. A row's last cell names its tests:
 *
 * - `` `path/to/file.spec.ts › title` ``: a test of that file;
 * - `` `› title` ``: a test of the files on the `Tests:` line above the table (a line starting
 *   `Tests:` that names them in backticks; it holds until the next heading or `Tests:` line);
 * - `` `› describe name > *` ``: every test of that describe block, a parametrised family; at
 *   least one must exist.
 *
 * A title is a test's full name as `vitest list` prints it (describe names joined by " > "), or
 * that name with leading describe names left off; it must name exactly one test of its files.
 * The names are read from the test files' source (`test-titles.ts`), `it.each` titles filled in
 * by vitest's own formatter, without collecting the files (which imports all they import).
 *
 * Some tests are known only in part: a table of rows read from a file when the test runs, a
 * title from a function's result. Such a test may be the one a title names, so a title it could
 * match is not counted as naming one test of the known ones; a family (`› block > *`) whose only
 * tests are such a table under that describe block counts as holding them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testReader, type MaybeTest, type Part } from './test-titles';

/** One test, or one family of tests, a row names. */
export interface TestReference {
	/** 1-based line of the row in the document. */
	line: number;
	/** The row's first cell, to say which row is wrong. */
	row: string;
	/**
	 * The files the title is looked up in, relative to the repository root: the path written in
	 * the cell, else the section's `Tests:` files; empty when there is neither.
	 */
	files: string[];
	title: string;
}

/** The rows a document names tests in, and what is wrong with its rows and `Tests:` lines. */
export interface ParsedDoc {
	references: TestReference[];
	/** One message per row whose last cell names no test, and per `Tests:` line naming no file. */
	problems: string[];
}

const SEPARATOR = /^\|(\s*:?-+:?\s*\|)+$/;
/** `` `path › title` `` or `` `› title` `` in a cell; a path has no spaces and ends in .ts. */
const REFERENCE = /`(?:([^`\s]+\.ts) )?› ([^`]+)`/g;
/** A path in backticks on a `Tests:` line. */
const SECTION_FILE = /`([^`\s]+\.ts)`/g;
/** A title naming every test of a describe block. */
const FAMILY = ' > *';

/** Splits a table row into its cells, keeping `\|` (an escaped pipe) inside a cell. */
export function tableCells(line: string): string[] {
	const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
	return inner.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

/** Every data row of every table in `markdown`: the tests its last cell names. */
export function parseTestReferences(markdown: string, docName: string): ParsedDoc {
	const lines = markdown.split(/\r?\n/);
	const references: TestReference[] = [];
	const problems: string[] = [];
	let sectionFiles: string[] = [];
	let inFence = false;
	for (const [i, raw] of lines.entries()) {
		const line = raw.trim();
		if (line.startsWith('```')) inFence = !inFence;
		if (inFence) continue;
		if (line.startsWith('#')) sectionFiles = [];
		if (line.startsWith('Tests:')) {
			sectionFiles = [...line.matchAll(SECTION_FILE)].map((m) => m[1]);
			if (sectionFiles.length === 0) {
				problems.push(`${docName} line ${i + 1}: the Tests: line names no \`path.ts\``);
			}
			continue;
		}
		if (!line.startsWith('|') || SEPARATOR.test(line)) continue;
		// A header row is the one right above the separator.
		if (SEPARATOR.test(lines[i + 1]?.trim() ?? '')) continue;
		const cells = tableCells(line);
		const row = cells[0] ?? '';
		const found = [...(cells.at(-1) ?? '').matchAll(REFERENCE)];
		if (found.length === 0) {
			problems.push(
				`${docName} line ${i + 1} (row "${row}"): the last column names no test as \`path › title\` or \`› title\``
			);
			continue;
		}
		for (const [, file, title] of found) {
			references.push({
				line: i + 1,
				row,
				files: file ? [file] : sectionFiles,
				title: title.trim()
			});
		}
	}
	return { references, problems };
}

/** Full test names (describe names joined by " > ") per file, relative to the repository root. */
export type TestNames = Map<string, string[]>;

/** Tests known only in part, per file. */
export type MaybeNames = Map<string, MaybeTest[]>;

/** One describe or test name as characters, `null` standing for any run of text. */
type Glob = (string | null)[];

/**
 * A full name known in part, as its levels (describe names, then the test's title). Unknown text
 * is taken to stay inside one level: a title computed at run time holds no " > ".
 */
function levels(parts: Part[]): Glob[] {
	const out: Glob[] = [[]];
	for (const p of parts) {
		if (p === null) out[out.length - 1].push(null);
		else {
			p.split(' > ').forEach((text, i) => {
				if (i > 0) out.push([]);
				out[out.length - 1].push(...text);
			});
		}
	}
	return out;
}

/** Whether some text matches both globs. */
function meet(a: Glob, b: Glob): boolean {
	const memo = new Map<number, boolean>();
	const go = (i: number, j: number): boolean => {
		const key = i * (b.length + 1) + j;
		const seen = memo.get(key);
		if (seen !== undefined) return seen;
		let ok: boolean;
		if (i === a.length && j === b.length) ok = true;
		else if (i < a.length && a[i] === null) ok = go(i + 1, j) || (j < b.length && go(i, j + 1));
		else if (j < b.length && b[j] === null) ok = go(i, j + 1) || (i < a.length && go(i + 1, j));
		else ok = i < a.length && j < b.length && a[i] === b[j] && go(i + 1, j + 1);
		memo.set(key, ok);
		return ok;
	};
	return go(0, 0);
}

/**
 * Where the levels of `block` sit in `name`, each pair passing `same`, with a level after them:
 * the start index of each such place.
 */
function blockAt(name: Glob[], block: Glob[], same: (a: Glob, b: Glob) => boolean): boolean {
	for (let s = 0; s + block.length < name.length; s++) {
		if (block.every((level, i) => same(name[s + i], level))) return true;
	}
	return false;
}

/** Whether a test known in part could be named by `title` (a full name, its end, or a family). */
function mayBeNamed(test: MaybeTest, title: string): boolean {
	const name = levels(test.parts);
	if (title.endsWith(FAMILY)) return blockAt(name, levels([title.slice(0, -FAMILY.length)]), meet);
	const end = levels([title]);
	const from = name.length - end.length;
	return from >= 0 && end.every((level, i) => meet(name[from + i], level));
}

/** Whether a test known in part surely sits under the describe block `block`. */
function isUnder(test: MaybeTest, block: string): boolean {
	const known = (a: Glob, b: Glob) => !a.includes(null) && a.join('') === b.join('');
	return blockAt(levels(test.parts), levels([block]), known);
}

/** Whether the full name `name` is `title`, or ends with it after whole describe names. */
function isNamed(name: string, title: string): boolean {
	if (title.endsWith(FAMILY)) {
		const block = title.slice(0, -FAMILY.length);
		return name.startsWith(`${block} > `) || name.includes(` > ${block} > `);
	}
	return name === title || name.endsWith(` > ${title}`);
}

/**
 * What is wrong with the references: no file to look in, a file that does not exist, a title no
 * test has, or one several tests share (it would not say which). Each message names the row.
 */
export function referenceProblems(
	references: TestReference[],
	names: TestNames,
	fileExists: (file: string) => boolean,
	docName: string,
	maybe: MaybeNames = new Map()
): string[] {
	const problems: string[] = [];
	for (const ref of references) {
		const where = `${docName} line ${ref.line} (row "${ref.row}")`;
		if (ref.files.length === 0) {
			problems.push(
				`${where}: "› ${ref.title}" names no file: write \`path › title\`, or a Tests: line above the table`
			);
			continue;
		}
		const missing = ref.files.filter((f) => !fileExists(f));
		if (missing.length > 0) {
			for (const file of missing) problems.push(`${where}: ${file} does not exist`);
			continue;
		}
		const hits = ref.files.flatMap((f) =>
			(names.get(f) ?? []).filter((n) => isNamed(n, ref.title))
		);
		const files = ref.files.join(', ');
		const one = ref.files.length === 1;
		const none = one ? `${files} has no` : `none of ${files} has`;
		const partly = ref.files.flatMap((f) =>
			(maybe.get(f) ?? [])
				.filter((t) => mayBeNamed(t, ref.title))
				.map((t) => ({ ...t, at: `${f} line ${t.line}` }))
		);
		if (ref.title.endsWith(FAMILY)) {
			const block = ref.title.slice(0, -FAMILY.length);
			if (hits.length === 0 && !partly.some((t) => isUnder(t, block))) {
				problems.push(`${where}: ${none} tests under "${block}"`);
			}
			continue;
		}
		if (partly.length > 0 && hits.length <= 1) {
			const at = [...new Set(partly.map((t) => t.at))].join(', ');
			problems.push(
				hits.length === 0
					? `${where}: no test of ${files} is known to be "${ref.title}"; the test at ${at}, whose title is known only when it runs, may be: name a test whose title is written out`
					: `${where}: "${ref.title}" may also be the name of the test at ${at}, whose title is known only when it runs; name one by its describe or its path too`
			);
			continue;
		}
		if (hits.length === 0) {
			problems.push(`${where}: ${none} ${one ? 'test' : 'a test'} "${ref.title}"`);
		} else if (hits.length > 1) {
			problems.push(
				`${where}: "${ref.title}" is the name of ${hits.length} tests in ${files}; name one by its describe or its path too`
			);
		}
	}
	return problems;
}

/** Every problem of the test references in the document at `docPath` (relative to `root`). */
export function checkDocTests(root: string, docPath: string): string[] {
	const { references, problems } = parseTestReferences(
		readFileSync(join(root, docPath), 'utf8'),
		docPath
	);
	const exists = (file: string) => existsSync(join(root, file));
	const files = [...new Set(references.flatMap((r) => r.files))].filter(exists);
	const names: TestNames = new Map();
	const maybe: MaybeNames = new Map();
	const readTests = testReader(root);
	for (const file of files) {
		const read = readTests(file);
		names.set(file, read.names);
		maybe.set(file, read.maybe);
	}
	return [...problems, ...referenceProblems(references, names, exists, docPath, maybe)];
}
