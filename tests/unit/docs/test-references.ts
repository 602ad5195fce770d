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
 * The names come from vitest's own collection, so `it.each` titles count as vitest fills them in.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

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
	docName: string
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
		if (hits.length === 0) {
			const none = one ? `${files} has no` : `none of ${files} has`;
			problems.push(
				ref.title.endsWith(FAMILY)
					? `${where}: ${none} tests under "${ref.title.slice(0, -FAMILY.length)}"`
					: `${where}: ${none} ${one ? 'test' : 'a test'} "${ref.title}"`
			);
		} else if (hits.length > 1 && !ref.title.endsWith(FAMILY)) {
			problems.push(
				`${where}: "${ref.title}" is the name of ${hits.length} tests in ${files}; name one by its describe or its path too`
			);
		}
	}
	return problems;
}

/**
 * Asks vitest which tests `files` hold (`vitest list --json`: test files are collected, no test
 * runs). A file that fails to collect fails the call, with vitest's message.
 */
export async function listTests(root: string, files: string[]): Promise<TestNames> {
	const names: TestNames = new Map(files.map((f) => [f, []]));
	if (files.length === 0) return names;
	const dir = mkdtempSync(join(tmpdir(), 'lexpilot-doc-tests-'));
	const out = join(dir, 'tests.json');
	// The outer vitest's own variables would make the inner one think it is a worker.
	const env = Object.fromEntries(
		Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS')
	);
	try {
		await new Promise<void>((ok, fail) => {
			execFile(
				process.execPath,
				[
					join(root, 'node_modules/vitest/vitest.mjs'),
					'list',
					'--passWithNoTests',
					`--json=${out}`,
					...files
				],
				{ cwd: root, env, maxBuffer: 16 * 1024 * 1024 },
				(error, _stdout, stderr) =>
					error ? fail(new Error(`vitest list failed: ${error.message}\n${stderr}`)) : ok()
			);
		});
		const listed = JSON.parse(readFileSync(out, 'utf8')) as Array<{ name: string; file: string }>;
		for (const t of listed) {
			const file = relative(root, resolve(root, t.file)).split('\\').join('/');
			names.get(file)?.push(t.name);
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
	return names;
}

/** Every problem of the test references in the document at `docPath` (relative to `root`). */
export async function checkDocTests(root: string, docPath: string): Promise<string[]> {
	const { references, problems } = parseTestReferences(
		readFileSync(join(root, docPath), 'utf8'),
		docPath
	);
	const exists = (file: string) => existsSync(join(root, file));
	const files = [...new Set(references.flatMap((r) => r.files))].filter(exists);
	const names = await listTests(root, files);
	return [...problems, ...referenceProblems(references, names, exists, docPath)];
}
