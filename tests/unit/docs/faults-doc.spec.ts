/**
 * FAULTS.md names, for each scenario, the test that shows it. Every named test must exist under
 * that name, so the document cannot point at a test that was renamed or removed.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	checkDocTests,
	parseTestReferences,
	referenceProblems,
	tableCells
} from './test-references';

const ROOT = resolve(import.meta.dirname, '../../..');

describe('FAULTS.md', () => {
	it('names only tests that exist, each title naming one test of its files', async () => {
		expect(await checkDocTests(ROOT, 'FAULTS.md')).toEqual([]);
	}, 180_000);
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
