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
	it('names only tests that exist, each by a name no other test in its file has', async () => {
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
		'```'
	].join('\n');

	it('reads every data row, skipping headers, separators and code blocks', () => {
		const { references, problems } = parseTestReferences(DOC, 'DOC.md');
		expect(references).toEqual([
			{ line: 5, row: 'a', file: 'tests/x.spec.ts', title: 'does a' },
			{ line: 5, row: 'a', file: 'tests/y.spec.ts', title: 'outer > does b' },
			{ line: 6, row: 'pipes | inside', file: 'tests/x.spec.ts', title: 'splits a | b' }
		]);
		expect(problems).toEqual([
			'DOC.md line 7 (row "no test here"): the last column names no test as `path › title`'
		]);
	});

	it('splits cells at pipes that are not escaped', () => {
		expect(tableCells('| a \\| b | `c` |')).toEqual(['a | b', '`c`']);
	});

	it('says which row names a missing file, a missing test or an ambiguous title', () => {
		const names = new Map([
			['tests/x.spec.ts', ['suite > does a', 'suite > splits a | b', 'other > splits a | b']],
			['tests/y.spec.ts', ['outer > inner > does b']]
		]);
		const { references } = parseTestReferences(DOC, 'DOC.md');
		const exists = (f: string) => names.has(f);
		expect(referenceProblems(references, names, exists, 'DOC.md')).toEqual([
			'DOC.md line 5 (row "a"): tests/y.spec.ts has no test "outer > does b"',
			'DOC.md line 6 (row "pipes | inside"): "splits a | b" is the name of 2 tests in tests/x.spec.ts; name one by its describe too'
		]);
		const gone = referenceProblems(references, names, (f) => f !== 'tests/x.spec.ts', 'DOC.md');
		expect(gone[0]).toBe('DOC.md line 5 (row "a"): tests/x.spec.ts does not exist');
	});

	it('takes a full name, or its end after whole describe names, never part of a name', () => {
		const names = new Map([['t.spec.ts', ['suite > does a thing']]]);
		const ref = (title: string) => [{ line: 1, row: 'r', file: 't.spec.ts', title }];
		const check = (title: string) => referenceProblems(ref(title), names, () => true, 'D');
		expect(check('suite > does a thing')).toEqual([]);
		expect(check('does a thing')).toEqual([]);
		expect(check('a thing')).toHaveLength(1);
		expect(check('does a')).toHaveLength(1);
	});
});
