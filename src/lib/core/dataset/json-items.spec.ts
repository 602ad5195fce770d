/**
 * The loader reads a well-formed file a stretch of items at a time (`json-items.ts`) and any
 * other file whole. Both must give exactly what the whole-file read gives: every case, every
 * problem with its place, every error with its line and column. Each input here is loaded both
 * ways and the results compared, and the inputs meant for the stretch reader are checked to
 * take it (not to fall back to the whole-file read).
 */
import { describe, expect, it } from 'vitest';
import {
	datasetBytes,
	datasetText,
	validCase,
	validCases,
	withHistoryFields
} from '../../../../tests/fixtures/datasets/factory';
import { readItems, scanItems } from './json-items';
import { loadDataset, loadDatasetWhole, type LoadOptions } from './load';
import { parseOrderedJson, type JsonValue } from './ordered-json';

const encoder = new TextEncoder();
const bytesOf = (input: string | Uint8Array) =>
	typeof input === 'string' ? encoder.encode(input) : input;

/** Whether the stretch reader reads `bytes` (else the loader reads the file whole). */
function readInStretches(bytes: Uint8Array): boolean {
	const scan = scanItems(bytes);
	if (!scan) return false;
	try {
		readItems(bytes, scan, () => {});
		return true;
	} catch {
		return false;
	}
}

async function expectSameLoad(input: string | Uint8Array, options: LoadOptions = {}) {
	const bytes = bytesOf(input);
	const streamed = await loadDataset(bytes, options);
	const whole = await loadDatasetWhole(bytes, options);
	expect(streamed).toEqual(whole);
	// toEqual ignores key order; a key_details object's order is part of the case.
	expect(JSON.stringify(streamed)).toBe(JSON.stringify(whole));
	return streamed;
}

/** A case as JSON text with `extra` spliced in before its closing brace. */
const caseWith = (n: number, extra: string) =>
	JSON.stringify(validCase(n)).replace(/}$/, `,${extra}}`);

describe('the stretch reader gives what the whole-file read gives', () => {
	const wellFormed: [string, string | Uint8Array, LoadOptions?][] = [
		['valid, pretty', datasetText(validCases(5))],
		['valid, compact', JSON.stringify(validCases(5))],
		['BOM and CRLF', datasetBytes(validCases(3), { bom: true, crlf: true })],
		['1,500 cases over many stretches', JSON.stringify(validCases(1500))],
		[
			'a case larger than a stretch',
			JSON.stringify([
				validCase(1),
				validCase(2, { focal_point: '很长的争议焦点'.repeat(30_000) }),
				validCase(3)
			])
		],
		[
			'a repeated field, a repeated claim and a repeated key_details entry',
			`[${caseWith(1, '"cause_of_action": "买卖合同纠纷"')},${JSON.stringify(validCase(2)).replace(
				'"result_dict":{',
				'"result_dict":{"判令被告偿还借款本金5万元":"驳回",'
			)},${JSON.stringify(validCase(3, { key_details: {} })).replace('"key_details":{}', '"key_details":{"a":"x","a":"y"}')}]`
		],
		[
			'integer-like keys, kept in file order',
			JSON.stringify([
				validCase(1, { key_details: { 10: '第十', 2: '第二', b: '乙' } }),
				validCase(2, { result_dict: { 2: '支持', 1: '驳回' } })
			]).replace('{"1":"驳回","2":"支持"}', '{"2":"支持","1":"驳回"}')
		],
		[
			'integers beyond 2^53, quoted as written',
			`[${JSON.stringify(validCase(1)).replace('"T-001"', '1152921504606846977')},${JSON.stringify(
				validCase(2)
			).replace('"T-002"', '12345678901234567890123')},${JSON.stringify(validCase(3)).replace(
				'"T-003"',
				'9007199254740991'
			)}]`
		],
		[
			'__proto__ keys',
			`[${caseWith(1, '"__proto__": {"polluted": true}')},${JSON.stringify(
				validCase(2, { key_details: {} })
			).replace('"key_details":{}', '"key_details":{"__proto__":"原型","b":"乙"}')}]`
		],
		[
			'escaped keys and escapes in values',
			`[${JSON.stringify(validCase(1))
				.replace('"case_number"', '"\\u0063ase_number"')
				.replace('"key_details":[', '"key_details":{"\\u0031":"一"},"x":[')},${JSON.stringify(
				validCase(2, {
					focal_point: `引号"与反斜杠\\，${'长'.repeat(30)}"\\\\"结尾\\`
				})
			)}]`
		],
		[
			'lone surrogates in a key, a value and a message',
			`[${JSON.stringify(validCase(1)).replace(
				'"plaintiff_type":"自然人"',
				'"plaintiff_type":"自然人\\ud800","\\udc00k":"v"'
			)},${JSON.stringify(validCase(2)).replace('朋友借钱不还怎么办？', '朋友\\ud83d借钱')}]`
		],
		[
			'items that are not cases',
			`[1, "案件", null, true, [], -0, 1e400, ${JSON.stringify(validCase(1))}]`
		],
		['a long number item', `[12345678901234567890, ${JSON.stringify(validCase(1))}]`],
		[
			'the first case without histories (fields decided later)',
			JSON.stringify([
				validCase(1, { complete_consultation: undefined, underspecified_consultation: undefined }),
				validCase(2),
				validCase(3)
			])
		],
		[
			'aliased fields, then a second candidate makes them ambiguous',
			JSON.stringify([
				...withHistoryFields(validCases(2), 'full_consultation', 'partial_consultation'),
				{ ...validCase(3), gold_dialogue: [{ role: 'user', content: '另一段' }] }
			])
		],
		[
			'aliased fields',
			JSON.stringify(withHistoryFields(validCases(4), 'full_consultation', 'partial_consultation'))
		],
		['undecided fields, few problems', JSON.stringify([{ a: 1 }, { b: [] }])],
		['undecided fields, more problems than are listed', `[${Array(1000).fill('{}').join(',')}]`],
		[
			'no cases decide the fields, then one does, with many problems',
			`[${Array(200).fill('{}').join(',')},${JSON.stringify(validCase(1))}]`
		],
		[
			'mapped fields that no case has',
			JSON.stringify(validCases(3)),
			{ historyFields: { complete: 'dialogue_a', underspecified: 'dialogue_b' } }
		],
		[
			'a mapped field only a later case has',
			JSON.stringify([
				validCase(1),
				{ ...validCase(2), dialogue_b: [{ role: 'user', content: '问' }] }
			]),
			{ historyFields: { underspecified: 'dialogue_b' } }
		],
		['every broken rule of the problem list', JSON.stringify(brokenCases())],
		[
			'unknown causes, with a category map',
			JSON.stringify([validCase(1, { cause_of_action: '未知纠纷' }), validCase(2)]),
			{ categories: { 民间借贷纠纷: '金钱债务' } }
		]
	];
	it.each(wellFormed)('%s', async (_, input, options) => {
		expect(readInStretches(bytesOf(input))).toBe(true);
		await expectSameLoad(input, options);
	});

	const malformed: [string, string | Uint8Array][] = [
		['an empty file', ''],
		['spaces only', '  \n'],
		['an empty array', '[]'],
		['a top-level object', '{"cases": []}'],
		['a top-level string', '"案件"'],
		['cut off inside an item', `[${JSON.stringify(validCase(1))},\n  {"case_number": "A",\n`],
		['cut off inside a string', `[${JSON.stringify(validCase(1))}, {"a": "没有结尾`],
		['a trailing comma between items', `[${JSON.stringify(validCase(1))},]`],
		['a trailing comma inside an item', `[${JSON.stringify(validCase(1)).replace(/}$/, ',}')}]`],
		['a missing comma', `[${JSON.stringify(validCase(1))} ${JSON.stringify(validCase(2))}]`],
		['a bad escape in the third item', `[{}, {}, {"a": "\\q"}]`],
		['a line break inside a string', `[{}, {"a": "一\n二"}]`],
		['a control character inside a string', '[{"a": "\u0001"}]'],
		['text after the array', `[${JSON.stringify(validCase(1))}] x`],
		['a second array', '[{}] [{}]'],
		['mismatched brackets', '[{"a": [1}]'],
		['a bad literal', '[tru]'],
		['a bad number', '[{"a": 01}]'],
		['a BOM inside the file', `[\uFEFF${JSON.stringify(validCase(1))}]`],
		['a BOM after the first', `\uFEFF\uFEFF${JSON.stringify(validCases(1))}`],
		['nesting deeper than 512', `[${'['.repeat(600)}${']'.repeat(600)}]`],
		['nesting of 300 (read whole, within the limit)', `[${'['.repeat(300)}${']'.repeat(300)}]`],
		['UTF-16 with a BOM', new Uint8Array([0xff, 0xfe, 0x5b, 0x00, 0x5d, 0x00])],
		[
			'GBK text',
			// [{"cause_of_action": "民间借贷"}] with the cause in GBK
			new Uint8Array([
				...encoder.encode('[{"cause_of_action": "'),
				0xc3,
				0xf1,
				0xbc,
				0xe4,
				0xbd,
				0xe8,
				0xb4,
				0xfb,
				...encoder.encode('"}]')
			])
		],
		[
			'invalid UTF-8 in the second item',
			new Uint8Array([
				...encoder.encode(`[${JSON.stringify(validCase(1))},\n{"a": "`),
				0xc3,
				...encoder.encode('"}]')
			])
		],
		[
			'invalid UTF-8 between items',
			new Uint8Array([...encoder.encode(`[${JSON.stringify(validCase(1))}`), 0xa0, 0x5d])
		],
		[
			'a surrogate written as UTF-8 bytes',
			new Uint8Array([...encoder.encode('[{"a": "'), 0xed, 0xa0, 0x80, ...encoder.encode('"}]')])
		],
		[
			'a later stretch broken after many good ones',
			`[${Array(1500)
				.fill(JSON.stringify(validCase(1)))
				.join(',')}, {"a": }]`
		]
	];
	it.each(malformed)('%s: the same message and place', async (_, input) => {
		const result = await expectSameLoad(input);
		expect(result.ok).toBe(false);
	});
});

describe('scanItems and readItems', () => {
	it('find each item of the top-level array and read it as parseOrderedJson does', () => {
		const text =
			'\uFEFF [ {"a": "x\\"y", "b": [1, {"c": null}]} ,\r\n"s\\\\", 12, -3.5e2 , true,' +
			'{"1": 2, "0": 1}, {"k": 1, "k": 2}, {"n": 12345678901234567890}, [] ]\n';
		const bytes = encoder.encode(text);
		const scan = scanItems(bytes)!;
		expect(scan.count).toBe(9);
		const decoded = new TextDecoder().decode(bytes.subarray(0));
		const items = [...scan.starts].map((s, i) =>
			new TextDecoder().decode(bytes.subarray(s, scan.ends[i]))
		);
		expect(items).toEqual([
			'{"a": "x\\"y", "b": [1, {"c": null}]}',
			'"s\\\\"',
			'12',
			'-3.5e2',
			'true',
			'{"1": 2, "0": 1}',
			'{"k": 1, "k": 2}',
			'{"n": 12345678901234567890}',
			'[]'
		]);
		expect([...scan.entries]).toEqual([3, 0, 0, 0, 0, 2, 2, 1, 0]);
		// Integer-like keys and long integers are read in order; a repeated key is caught by count.
		expect([...scan.special]).toEqual([0, 0, 0, 0, 0, 1, 0, 1, 0]);
		const read: JsonValue[] = [];
		readItems(bytes, scan, (value, index) => {
			expect(index).toBe(read.length);
			read.push(value);
		});
		expect(read).toEqual(parseOrderedJson(decoded.slice(1)));
	});

	it('report the offset past each item, and leave anything else to the whole-file read', () => {
		const ends: number[] = [];
		scanItems(encoder.encode('[1, [2, 3], {"a": [4]}]'), (end) => ends.push(end));
		expect(ends).toEqual([2, 10, 22]);
		for (const text of ['', '[]', '{}', '[1,]', '[1 2]', '[1] 2', '[1', '["a]', '[1]\u00a0']) {
			expect(scanItems(encoder.encode(text)), text).toBeNull();
		}
	});
});

/** Cases breaking many rules at once, so the problem lists compare on every kind of place. */
function brokenCases(): unknown[] {
	return [
		validCase(1),
		validCase(2, { cause_of_action: '', result_dict: { 判令被告还款: '胜诉' } }),
		validCase(1, {
			focal_point: [],
			underspecified_consultation: [
				{ role: 'user', content: '一' },
				{ role: 'user', content: '二' },
				{ role: 'assistant', content: '' }
			]
		}),
		'not a case',
		validCase(5, { case_number: 3.5, key_details: { a: null }, plaintiff_type: 1 }),
		validCase(6, { complete_consultation: [{ role: 'system', content: 1 }] })
	];
}
