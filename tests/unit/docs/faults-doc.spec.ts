/**
 * FAULTS.md names, for each scenario, the test that shows it. Every named test must exist under
 * that name, so the document cannot point at a test that was renamed or removed.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	checkDocTests,
	parseTestReferences,
	referenceProblems,
	tableCells
} from './test-references';
import { testReader } from './test-titles';

const ROOT = resolve(import.meta.dirname, '../../..');

describe('FAULTS.md', () => {
	// Reading ~80 files' source takes about 2 s; the timeout only bounds a machine under load.
	it('names only tests that exist, each title naming one test of its files', () => {
		expect(checkDocTests(ROOT, 'FAULTS.md')).toEqual([]);
	}, 60_000);

	it('fails once a test it names is renamed in its file', () => {
		const file = 'tests/unit/faults/fault-matrix.spec.ts';
		const text = readFileSync(join(ROOT, file), 'utf8');
		const { references } = parseTestReferences(readFileSync(join(ROOT, 'FAULTS.md'), 'utf8'), 'F');
		const mine = references.filter((r) => r.files.length === 1 && r.files[0] === file);
		const problems = (source: string) => {
			const read = testReader(ROOT)(file, source);
			const names = new Map([[file, read.names]]);
			return referenceProblems(mine, names, () => true, 'F', new Map([[file, read.maybe]]));
		};
		expect(mine.length).toBeGreaterThan(5);
		expect(problems(text)).toEqual([]);
		// A row of the file's table of faults, its title built by `it.each` from two fields.
		const renamed = text.replace(
			"fault: '429 storm: every first attempt",
			"fault: '429 burst: every first attempt"
		);
		expect(renamed).not.toBe(text);
		expect(problems(renamed)).toEqual([
			expect.stringMatching(
				/^F line 26 \(row "429 storm"\): .* has no test "429 storm: every first attempt/
			)
		]);
	}, 60_000);
});

describe('reading test names from source, as vitest names them', () => {
	const read = testReader(ROOT);
	const SOURCE = `
		import { describe, it, test as check } from 'vitest';
		import { MAX_LISTED_PROBLEMS } from '../../../src/lib/core/dataset/problems';
		const N = 1_000;
		const ROWS = [
			{ fault: 'a 429', expect: 'same records', run: () => 1 },
			{ fault: 'a 503', expect: 'stop' }
		];
		function edges(name: string): [string, number][] {
			const out: [string, number][] = [[name, 1]];
			if (name === 'b') out.push([name, 2]);
			return out;
		}
		describe('outer', () => {
			it('plain', () => {});
			it.skip(\`on \${N.toLocaleString('en')} cases, \${MAX_LISTED_PROBLEMS} listed\`, () => {});
			describe.each(['x', 'y'])('block %s', (name) => {
				check(\`\${name} inside\`, () => {});
			});
			it.each(ROWS.map((row) => [\`\${row.fault} → \${row.expect}\`, row] as const))('%s', () => {});
		});
		it.each([{ a: 1, b: 'two' }])('object $a and $b (%#)', () => {});
		it.each([[1, 'one'], [2, 'two']])('%i is %s', () => {});
		for (const name of ['a', 'b']) {
			it.each(edges(name))(\`\${name}: %s = %d\`, () => {});
		}
		it.skipIf(true).concurrent('modified', () => {});
	`;

	it('fills in describe nesting, loops, constants, imports and .each rows', () => {
		const { names, maybe } = read('tests/unit/docs/example.spec.ts', SOURCE);
		expect(maybe).toEqual([]);
		expect(names).toEqual([
			'outer > plain',
			expect.stringMatching(/^outer > on 1,000 cases, \d+ listed$/),
			'outer > block x > x inside',
			'outer > block y > y inside',
			'outer > a 429 → same records',
			'outer > a 503 → stop',
			"object 1 and 'two' (0)",
			'1 is one',
			'2 is two',
			'a: a = 1',
			'b: b = 1',
			'b: b = 2',
			'modified'
		]);
	});

	it('keeps in part a title or a table known only when the file runs, and a test it cannot place', () => {
		const { names, maybe } = read(
			'tests/unit/docs/example.spec.ts',
			`
			import { describe, it } from 'vitest';
			import { readCorpus } from './corpus';
			const corpus = readCorpus();
			describe('bad files', () => {
				it.each(corpus.map((e) => [\`\${e.file} → exit 2\`, e] as const))('%s', () => {});
				it(\`reads \${corpus.length} files\`, () => {});
			});
			function family(name: string) {
				it(name, () => {});
			}
			family('hidden');
			`
		);
		expect(names).toEqual([]);
		expect(maybe).toEqual([
			{ parts: ['bad files > ', null, ' → exit 2'], line: 6 },
			{ parts: ['bad files > reads ', null, ' files'], line: 7 },
			{ parts: [null], line: 10 }
		]);
	});

	it('counts a test known in part against a title it may be, not one it cannot', () => {
		const names = new Map([['t.spec.ts', ['bad files > reads the corpus']]]);
		const maybe = new Map([
			['t.spec.ts', [{ parts: ['bad files > ', null, ' → exit 2'], line: 6 }]]
		]);
		const ref = (title: string) => [{ line: 1, row: 'r', files: ['t.spec.ts'], title }];
		const check = (title: string) => referenceProblems(ref(title), names, () => true, 'D', maybe);
		expect(check('reads the corpus')).toEqual([]);
		expect(check('bad files > *')).toEqual([]);
		expect(check('a.json → exit 2')).toEqual([
			'D line 1 (row "r"): no test of t.spec.ts is known to be "a.json → exit 2"; the test at t.spec.ts line 6, whose title is known only when it runs, may be: name a test whose title is written out'
		]);
		const onlyTable = new Map([['t.spec.ts', []]]);
		expect(referenceProblems(ref('bad files > *'), onlyTable, () => true, 'D', maybe)).toEqual([]);
		expect(referenceProblems(ref('good files > *'), onlyTable, () => true, 'D', maybe)).toEqual([
			'D line 1 (row "r"): t.spec.ts has no tests under "good files"'
		]);
		const clash = new Map([['t.spec.ts', ['bad files > a.json → exit 2']]]);
		expect(referenceProblems(ref('a.json → exit 2'), clash, () => true, 'D', maybe)).toEqual([
			'D line 1 (row "r"): "a.json → exit 2" may also be the name of the test at t.spec.ts line 6, whose title is known only when it runs; name one by its describe or its path too'
		]);
	});
});

describe('reading test references from a document', () => {
	const DOC = [
		'Intro | with a pipe that is no table',
		'',
		'| scenario | expected | test |',
		'| --- | :-- | --- |',
		'| a | b | `tests/x.spec.ts › does a`<br>`tests/y.spec.ts › outer > does b` |',
		'| pipes \\| inside | c | `tests/x.spec.ts › splits a \\| b` |',
		'| no test here | d | see above |',
		'```',
		'| in a code block | e | f |',
		'Tests: `tests/fenced.spec.ts`',
		'```',
		'',
		'Tests: `tests/x.spec.ts`, `tests/z.spec.ts`',
		'',
		'| scenario | expected | test |',
		'| --- | --- | --- |',
		'| short | g | `› does a`<br>`tests/y.spec.ts › does b` |',
		'| family | h | `› a block > *` |',
		'## Next section',
		'| orphan | i | `› does a` |',
		'Tests: nothing in backticks'
	].join('\n');

	it('reads every data row, skipping headers, separators and code blocks', () => {
		const { references, problems } = parseTestReferences(DOC, 'DOC.md');
		expect(references).toEqual([
			{ line: 5, row: 'a', files: ['tests/x.spec.ts'], title: 'does a' },
			{ line: 5, row: 'a', files: ['tests/y.spec.ts'], title: 'outer > does b' },
			{ line: 6, row: 'pipes | inside', files: ['tests/x.spec.ts'], title: 'splits a | b' },
			{ line: 17, row: 'short', files: ['tests/x.spec.ts', 'tests/z.spec.ts'], title: 'does a' },
			{ line: 17, row: 'short', files: ['tests/y.spec.ts'], title: 'does b' },
			{
				line: 18,
				row: 'family',
				files: ['tests/x.spec.ts', 'tests/z.spec.ts'],
				title: 'a block > *'
			},
			// A heading ends the section, so this row has no file to look in.
			{ line: 20, row: 'orphan', files: [], title: 'does a' }
		]);
		expect(problems).toEqual([
			'DOC.md line 7 (row "no test here"): the last column names no test as `path › title` or `› title`',
			'DOC.md line 21: the Tests: line names no `path.ts`'
		]);
	});

	it('splits cells at pipes that are not escaped', () => {
		expect(tableCells('| a \\| b | `c` |')).toEqual(['a | b', '`c`']);
	});

	it('says which row names a missing file, a missing test or an ambiguous title', () => {
		const names = new Map([
			['tests/x.spec.ts', ['suite > does a', 'suite > splits a | b', 'other > splits a | b']],
			['tests/y.spec.ts', ['outer > inner > does b']],
			['tests/z.spec.ts', ['a block > one', 'a block > two']]
		]);
		const { references } = parseTestReferences(DOC, 'DOC.md');
		const exists = (f: string) => names.has(f);
		expect(referenceProblems(references, names, exists, 'DOC.md')).toEqual([
			'DOC.md line 5 (row "a"): tests/y.spec.ts has no test "outer > does b"',
			'DOC.md line 6 (row "pipes | inside"): "splits a | b" is the name of 2 tests in tests/x.spec.ts; name one by its describe or its path too',
			'DOC.md line 20 (row "orphan"): "› does a" names no file: write `path › title`, or a Tests: line above the table'
		]);
		const gone = referenceProblems(references, names, (f) => f !== 'tests/x.spec.ts', 'DOC.md');
		expect(gone[0]).toBe('DOC.md line 5 (row "a"): tests/x.spec.ts does not exist');
		expect(gone).toContain('DOC.md line 17 (row "short"): tests/x.spec.ts does not exist');
	});

	it('looks a short title up in every file of the section, which must hold it once', () => {
		const ref = (title: string) => [
			{ line: 3, row: 'r', files: ['a.spec.ts', 'b.spec.ts'], title }
		];
		const names = new Map([
			['a.spec.ts', ['s > only in a', 's > in both']],
			['b.spec.ts', ['t > in both']]
		]);
		const check = (title: string) => referenceProblems(ref(title), names, () => true, 'D');
		expect(check('only in a')).toEqual([]);
		expect(check('t > in both')).toEqual([]);
		expect(check('in both')).toEqual([
			'D line 3 (row "r"): "in both" is the name of 2 tests in a.spec.ts, b.spec.ts; name one by its describe or its path too'
		]);
		expect(check('renamed')).toEqual([
			'D line 3 (row "r"): none of a.spec.ts, b.spec.ts has a test "renamed"'
		]);
	});

	it('takes a full name, or its end after whole describe names, never part of a name', () => {
		const names = new Map([['t.spec.ts', ['suite > does a thing']]]);
		const ref = (title: string) => [{ line: 1, row: 'r', files: ['t.spec.ts'], title }];
		const check = (title: string) => referenceProblems(ref(title), names, () => true, 'D');
		expect(check('suite > does a thing')).toEqual([]);
		expect(check('does a thing')).toEqual([]);
		expect(check('a thing')).toHaveLength(1);
		expect(check('does a')).toHaveLength(1);
	});

	it('takes a family for every test of a whole describe name, and fails on an empty one', () => {
		const names = new Map([
			['t.spec.ts', ['outer > rows > one', 'outer > rows > two', 'rowsy > x']]
		]);
		const ref = (title: string) => [{ line: 1, row: 'r', files: ['t.spec.ts'], title }];
		const check = (title: string) => referenceProblems(ref(title), names, () => true, 'D');
		expect(check('rows > *')).toEqual([]);
		expect(check('outer > rows > *')).toEqual([]);
		expect(check('row > *')).toEqual(['D line 1 (row "r"): t.spec.ts has no tests under "row"']);
		expect(check('one > *')).toHaveLength(1);
	});
});
