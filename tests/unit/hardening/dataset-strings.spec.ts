/**
 * Issue 14, item 9: text the providers cannot take. Lone surrogates (JSON `\ud800` escapes with
 * no pair) in message content and in every other string of a case are errors at validation,
 * naming case, field, message and offset; ids that differ only in such code points print
 * escaped, so they can be told apart; an integer case_number beyond 2^53 is quoted as written.
 */
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../../src/lib/core/dataset/load';
import { parseOrderedJson, JsonObject } from '../../../src/lib/core/dataset/ordered-json';

const base = {
	cause_of_action: '民间借贷纠纷',
	plaintiff_type: '自然人',
	focal_point: ['借款是否交付'],
	key_details: ['转账3万元'],
	result_dict: { 判令被告还款: '支持' },
	complete_consultation: [{ role: 'user', content: '我借给朋友3万元，他不还。' }],
	underspecified_consultation: [{ role: 'user', content: '朋友欠钱不还。' }]
};

/** The file's text: JSON.stringify writes lone surrogates as \ud800 escapes, as a hostile file would. */
async function problemsOf(cases: unknown[] | string): Promise<string[]> {
	const text = typeof cases === 'string' ? cases : JSON.stringify(cases);
	const result = await loadDataset(new TextEncoder().encode(text));
	return result.ok ? [] : result.problems.map((p) => p.text);
}

describe('lone surrogates', () => {
	it('in message content: an error naming case, field, message and offset', async () => {
		const problems = await problemsOf([
			{
				...base,
				case_number: 'C-1',
				underspecified_consultation: [
					{ role: 'user', content: '朋友欠钱\ud800不还。' },
					{ role: 'assistant', content: '多少钱？' },
					{ role: 'user', content: 'ok \udfff' }
				],
				complete_consultation: [
					{ role: 'user', content: 'a' },
					{ role: 'assistant', content: 'b' },
					{ role: 'user', content: 'c' }
				]
			}
		]);
		expect(problems).toEqual([
			'case #0 (case_number C-1) underspecified history, message 0: content holds a lone surrogate \\ud800 at offset 4 (after "朋友欠钱"): an unpaired \\u escape, not a character, which cannot be sent to a provider; fix or remove that escape',
			'case #0 (case_number C-1) underspecified history, message 2: content holds a lone surrogate \\udfff at offset 3 (after "ok "): an unpaired \\u escape, not a character, which cannot be sent to a provider; fix or remove that escape'
		]);
	});

	it('in the other strings of a case, keys included', async () => {
		const problems = await problemsOf([
			{
				...base,
				case_number: 'C-1',
				cause_of_action: '借贷\udc00',
				focal_point: ['ok', 'x\ud83d'],
				result_dict: { '还款\ud800': '支持' }
			}
		]);
		expect(problems).toEqual([
			expect.stringMatching(
				/^case #0 \(case_number C-1\) cause_of_action: the value holds a lone surrogate \\udc00 at offset 2/
			),
			expect.stringMatching(
				/^case #0 \(case_number C-1\) focal_point: \[1\] holds a lone surrogate \\ud83d at offset 1/
			),
			expect.stringMatching(
				/^case #0 \(case_number C-1\) result_dict: key holds a lone surrogate \\ud800 at offset 2/
			)
		]);
	});

	it('a valid surrogate pair (an emoji) is fine', async () => {
		expect(await problemsOf([{ ...base, case_number: 'C-😀' }])).toEqual([]);
	});

	it('ids differing only in invalid code points print escaped, each its own', async () => {
		const problems = await problemsOf([
			{ ...base, case_number: 'LONE-\ud800-X' },
			{ ...base, case_number: 'LONE-\udbff-X' }
		]);
		expect(problems).toEqual([
			expect.stringMatching(
				/^case #0 \(case_number LONE-\\ud800-X\) case_number: the value holds a lone surrogate \\ud800/
			),
			expect.stringMatching(
				/^case #1 \(case_number LONE-\\udbff-X\) case_number: the value holds a lone surrogate \\udbff/
			)
		]);
		for (const p of problems) expect(p).not.toContain('\ufffd');
	});
});

describe('integers beyond 2^53', () => {
	it('are quoted as written, not rounded', async () => {
		const cases = JSON.stringify([{ ...base, case_number: 0 }]).replace(
			'"case_number":0',
			'"case_number":12345678901234567891'
		);
		expect(await problemsOf(cases)).toEqual([
			'case #0 case_number: 12345678901234567891 is too large to keep exactly; write it as a string in quotes'
		]);
	});

	it('the parser keeps the digits of such numbers, only for object values', () => {
		const v = parseOrderedJson(
			'{"a": 9007199254740993, "b": 5, "c": [9007199254740993], "d": -99999999999999999999}'
		);
		expect(v).toBeInstanceOf(JsonObject);
		const o = v as JsonObject;
		expect(o.rawNumber('a')).toBe('9007199254740993');
		expect(o.rawNumber('b')).toBeUndefined();
		expect(o.rawNumber('c')).toBeUndefined();
		expect(o.rawNumber('d')).toBe('-99999999999999999999');
	});
});
