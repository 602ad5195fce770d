import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonReference } from './hash';

describe('canonicalJson', () => {
	it('sorts keys by code unit, keeps array order, drops undefined members', () => {
		expect(canonicalJson({ b: 1, a: [3, { d: undefined, c: 'x' }], B: null })).toBe(
			'{"B":null,"a":[3,{"c":"x"}],"b":1}'
		);
		// Index-like keys sort as strings, not as numbers.
		expect(canonicalJson({ 10: 'a', 9: 'b', x: 1 })).toBe('{"10":"a","9":"b","x":1}');
		expect(canonicalJson([undefined, 1])).toBe('[null,1]');
		expect(canonicalJson(undefined)).toBe('null');
	});

	it('refuses NaN and infinities like the reference', () => {
		expect(() => canonicalJson({ a: NaN })).toThrow(TypeError);
		expect(() => canonicalJson([Infinity])).toThrow(TypeError);
	});

	it('keeps a "__proto__" field, as JSON.parse makes it, in and out of order', () => {
		for (const text of ['{"__proto__":null,"":1}', '{"b":1,"__proto__":{"x":2}}']) {
			const value = JSON.parse(text);
			expect(canonicalJson(value)).toBe(canonicalJsonReference(value));
		}
		expect(canonicalJson(JSON.parse('{"b":1,"__proto__":2}'))).toBe('{"__proto__":2,"b":1}');
	});

	it('gives exactly the reference text for any JSON-like value', () => {
		const key = fc.oneof(fc.string(), fc.constantFrom('0', '1', '10', '9', '01', '-1', 'a'));
		const value = fc.letrec((tie) => ({
			leaf: fc.oneof(
				fc.string({ unit: 'binary' }),
				fc.double({ noNaN: true, noDefaultInfinity: true }),
				fc.integer(),
				fc.boolean(),
				fc.constant(null),
				fc.constant(undefined),
				fc.date({ noInvalidDate: true })
			),
			tree: fc.oneof(
				{ depthSize: 'small' },
				tie('leaf'),
				fc.array(tie('tree'), { maxLength: 4 }),
				fc.dictionary(key, tie('tree'), { maxKeys: 5 })
			)
		})).tree;
		fc.assert(
			fc.property(value, (v) => {
				expect(canonicalJson(v)).toBe(canonicalJsonReference(v));
			}),
			{ numRuns: 500 }
		);
	});
});
