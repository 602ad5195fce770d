import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonObject, JsonSyntaxError, parseOrderedJson, toPlain } from './ordered-json';

describe('parseOrderedJson', () => {
	it('reads every JSON text to the same value as JSON.parse', () => {
		fc.assert(
			fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
				const text = JSON.stringify(value, null, pretty ? 2 : undefined);
				expect(toPlain(parseOrderedJson(text))).toEqual(JSON.parse(text));
			})
		);
	});

	it('rejects what JSON.parse rejects, and accepts what it accepts', () => {
		const jsonish = fc.stringMatching(/^[\s[\]{}":,0-9a-z.eE+\\-]{0,12}$/);
		fc.assert(
			fc.property(jsonish, (text) => {
				let expected = true;
				try {
					JSON.parse(text);
				} catch {
					expected = false;
				}
				let actual = true;
				try {
					parseOrderedJson(text);
				} catch (e) {
					expect(e).toBeInstanceOf(JsonSyntaxError);
					actual = false;
				}
				expect(actual).toBe(expected);
			}),
			{ numRuns: 2000 }
		);
	});

	it('keeps object keys in file order, integer-like keys included', () => {
		const value = parseOrderedJson('{"b": 1, "10": 2, "2": 3, "a": {"9": 0, "1": 0}}');
		expect(value).toBeInstanceOf(JsonObject);
		const obj = value as JsonObject;
		expect(obj.keys).toEqual(['b', '10', '2', 'a']);
		expect((obj.get('a') as JsonObject).keys).toEqual(['9', '1']);
	});

	it('keeps duplicate keys so they can be reported', () => {
		const obj = parseOrderedJson('{"a": 1, "b": 2, "a": 3}') as JsonObject;
		expect(obj.keys).toEqual(['a', 'b', 'a']);
		expect(obj.get('a')).toBe(1);
		expect(obj.duplicateKeys()).toEqual(['a']);
	});

	it('decodes escapes, surrogate pairs included', () => {
		expect(parseOrderedJson('"\\u6cd5\\n\\"\\\\\\/\\ud83d\\ude00"')).toBe('法\n"\\/😀');
	});

	it.each([
		['{"a":1', 1, 7, 'expected "," or "}" after an object entry, found the end of the file'],
		['[1,\r\n2,,3]', 2, 3, 'expected a value, found ","'],
		['{"a":\n "x\ny"}', 2, 4, 'line break inside a string (write it as \\n, or close the string)'],
		['{a: 1}', 1, 2, 'expected a quoted key, found "a"'],
		['["\\x"]', 1, 3, 'invalid escape "\\x" in a string'],
		['[01]', 1, 3, 'expected "," or "]" after an array item, found "1"'],
		['  \n ', 2, 2, 'the file is empty'],
		['[NaN]', 1, 2, 'expected a value, found "N"'],
		['["法律" 1]', 1, 7, 'expected "," or "]" after an array item, found "1"']
	])('%j → line %i, column %i: %s', (text, line, column, detail) => {
		try {
			parseOrderedJson(text);
			expect.unreachable();
		} catch (e) {
			expect(e).toBeInstanceOf(JsonSyntaxError);
			expect(e).toMatchObject({ line, column, detail });
		}
	});

	it('refuses absurd nesting with an error instead of overflowing the stack', () => {
		expect(() => parseOrderedJson('['.repeat(100_000))).toThrow(/nesting deeper than/);
	});

	it('turns a "__proto__" key into a plain property, not a prototype', () => {
		const plain = toPlain(parseOrderedJson('{"__proto__": {"x": 1}}')) as Record<string, unknown>;
		expect(Object.keys(plain)).toEqual(['__proto__']);
		expect((plain as { x?: number }).x).toBeUndefined();
	});
});
