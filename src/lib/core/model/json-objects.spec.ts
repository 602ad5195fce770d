import { describe, expect, it } from 'vitest';
import { findJsonObjects, MAX_ARRAY_DEPTH } from './json-objects';
import { JudgeDcgOutput, judgeExtractOutput, parseJudgeJson } from './output';

const values = (text: string) => findJsonObjects(text).objects.map((o) => o.value);

describe('findJsonObjects', () => {
	it.each([
		{ name: 'bare', text: '{"a": 1}', found: [{ a: 1 }] },
		{ name: 'in prose', text: '答：{"a": "是"}。', found: [{ a: '是' }] },
		{
			name: 'in a fence',
			text: '```json\n{"a": [1, 2.5e1, true, null]}\n```',
			found: [{ a: [1, 25, true, null] }]
		},
		{ name: 'braces in a string', text: '{"a": "} {\\"b\\": 1}"}', found: [{ a: '} {"b": 1}' }] },
		{ name: 'escapes', text: '{"a": "\\u662f\\n\\t\\/"}', found: [{ a: '是\n\t/' }] },
		{ name: 'prose in braces around one', text: '{注 {"a": 1} 完}', found: [{ a: 1 }] },
		{
			name: 'inner before outer',
			text: '{"a": {"b": {}}}',
			found: [{}, { b: {} }, { a: { b: {} } }]
		},
		{ name: 'in end order', text: '{"x": 1} 与 {"y": 2}', found: [{ x: 1 }, { y: 2 }] },
		{ name: 'a quote in prose outside braces', text: '5" 长 {"a": 1}', found: [{ a: 1 }] },
		{
			name: 'an unpaired quote inside prose braces, on an earlier line',
			text: '{注意 5" 长\n{"a": 1}',
			found: [{ a: 1 }]
		},
		{ name: 'no object', text: '{a} {"a"} {"a": } {"a": 1,} {"a": 01} [1]', found: [] },
		{ name: 'an unclosed one', text: '{"a": 1', found: [] }
	])('$name', ({ text, found }) => {
		expect(values(text)).toEqual(found);
	});

	it('builds values as JSON.parse does: a repeated key keeps its last value, __proto__ is own', () => {
		const [last] = values('{"label": "是", "label": "否"}');
		expect(last).toEqual({ label: '否' });
		const proto = values('{"__proto__": {"polluted": true}}').at(-1)!;
		expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
		expect(Object.keys(proto)).toEqual(['__proto__']);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it(`refuses arrays nested more than ${MAX_ARRAY_DEPTH} deep, without recursing further`, () => {
		const nested = (d: number) => `{"a": ${'['.repeat(d)}${']'.repeat(d)}}`;
		expect(values(nested(MAX_ARRAY_DEPTH))).toHaveLength(1);
		expect(values(nested(MAX_ARRAY_DEPTH + 1))).toEqual([]);
	});

	it('agrees with JSON.parse on random mixes of prose and JSON objects', () => {
		let seed = 7;
		const rand = (n: number) => {
			seed = (seed * 1103515245 + 12345) % 2 ** 31;
			return seed % n;
		};
		const value = (depth: number): unknown => {
			const k = rand(depth > 2 ? 4 : 7);
			if (k === 0) return rand(1000) - 500;
			if (k === 1) return ['是', '{"x"}', 'a\\b', '\n', '}'][rand(5)];
			if (k === 2) return [true, false, null][rand(3)];
			if (k === 3) return rand(100) / 8;
			if (k === 4) return Array.from({ length: rand(4) }, () => value(depth + 1));
			return Object.fromEntries(
				Array.from({ length: rand(4) }, (_, i) => [`k${i}`, value(depth + 1)])
			);
		};
		const prose = ['答：', ' {注意} ', '\n', '}', '{', ' 然后 ', '```json\n', '\n```'];
		for (let round = 0; round < 300; round++) {
			const inserted: unknown[] = [];
			let text = '';
			for (let part = 0; part < 6; part++) {
				if (rand(2) === 0) text += prose[rand(prose.length)];
				else {
					const v = { label: value(0), n: part };
					inserted.push(v);
					text += JSON.stringify(v, null, rand(2) ? 2 : undefined);
				}
			}
			const { objects } = findJsonObjects(text);
			for (const o of objects) expect(o.value).toEqual(JSON.parse(text.slice(o.start, o.end)));
			// Every inserted object is found, whatever prose braces stand around it.
			for (const v of inserted) expect(objects.map((o) => o.value)).toContainEqual(v);
		}
	});
});

/**
 * Adversarial answers: each parses in work linear in its length (both passes together look at no
 * more than twice its characters: the assertion that does not depend on the machine), and in
 * well under a second on an idle machine. The time bound is a generous 5 s, as these tests run on
 * 2 cores shared by several test runs (a load of 16 was seen); the quadratic search this replaced
 * took 2 s on 20,000 `{` of the first shape, and about a minute on 100,000.
 */
describe('a hostile judge answer parses in linear time', () => {
	const N = 100_000;
	const answer = '\n最终结论：{"label": "否"}';
	const shapes: [string, string][] = [
		[`${N} × {`, '{'.repeat(N)],
		[`${N} × {"a":`, '{"a":'.repeat(N)],
		[`${N} × {"a": nested and closed`, `${'{"a":'.repeat(N)}1${'}'.repeat(N)}`],
		[`${N} × { then ${N} × }`, `${'{'.repeat(N)}${'}'.repeat(N)}`],
		[`${N} small objects`, '{}'.repeat(N)],
		[`${N} contract objects`, '{"label": "是"}'.repeat(N)],
		[`${N} × "{`, '"{'.repeat(N)],
		[`${N} × {" (a string opened in each)`, '{"'.repeat(N)],
		[`${N} × \\`, `{"a": "${'\\'.repeat(N)}`],
		[`${N} deep array`, `{"a": ${'['.repeat(N)}${']'.repeat(N)}}`],
		[`${N} × {"a":[`, '{"a":['.repeat(N)],
		[`a ${N}-digit number`, `{"a": ${'1'.repeat(N)}}`],
		[`${N} numbers in an array`, `{"a": [${'1,'.repeat(N)}1]}`],
		[`${N} escapes`, `{"a": "${'\\u0041'.repeat(N)}"}`]
	];

	it.each(shapes)('%s', (_name, hostile) => {
		const text = hostile + answer;
		expect(findJsonObjects(text).work).toBeLessThanOrEqual(2 * text.length);
		const started = performance.now();
		const parsed = parseJudgeJson(text, JudgeDcgOutput);
		expect(performance.now() - started).toBeLessThan(5000);
		// The answer's own last object is its conclusion, whatever came before.
		expect(parsed).toEqual({ ok: true, value: { label: '否' } });
	});

	it('stays linear for the extraction contract too', () => {
		const text = `${'{"verdicts": ["支持"'.repeat(N)}]}`;
		const started = performance.now();
		const parsed = parseJudgeJson(text, judgeExtractOutput(2));
		expect(performance.now() - started).toBeLessThan(5000);
		expect(findJsonObjects(text).work).toBeLessThanOrEqual(2 * text.length);
		expect(parsed.ok).toBe(false);
	});
});
