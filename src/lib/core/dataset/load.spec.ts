/**
 * loadDataset, one rule at a time and all together: problems, case numbers, what a valid file
 * gives, history field detection, cause classes. One file because it tests the one entry point
 * against the same dataset factory, each block one part of PROTOCOL.md's dataset rules.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
	datasetBytes,
	history,
	validCase,
	validCases,
	withHistoryFields,
	type RawCase
} from '../../../../tests/fixtures/datasets/factory';
import { loadDataset, type LoadResult } from './load';

const encoder = new TextEncoder();

async function problemsOf(input: unknown, options = {}): Promise<string[]> {
	const bytes = input instanceof Uint8Array ? input : datasetBytes(input);
	const result = await loadDataset(bytes, options);
	if (result.ok) throw new Error('expected the dataset to be rejected');
	return result.problems.map((p) => p.text);
}

async function loaded(input: unknown, options = {}) {
	const bytes = input instanceof Uint8Array ? input : datasetBytes(input);
	const result = await loadDataset(bytes, options);
	if (!result.ok)
		throw new Error(`unexpected problems:\n${result.problems.map((p) => p.text).join('\n')}`);
	return result;
}

/** Two valid cases, then the broken one as case #2, so the reported position is not trivially 1. */
const thirdCase = (overrides: RawCase) => [validCase(1), validCase(2), validCase(3, overrides)];

describe('loadDataset: one rule broken at a time', () => {
	const at = 'case #2 (case_number T-003)';
	interface Rule {
		rule: string;
		overrides: RawCase;
		field: string;
		messageIndex?: number;
		text: string;
		/** Problems the broken input causes in all; the first one is checked. @default 1 */
		count?: number;
	}
	/** One top-level field broken per row: [what, its value, the problem after "<field>: "]. */
	const fieldRules = (field: string, rows: [string, unknown, string][], where = at): Rule[] =>
		rows.map(([what, value, problem]) => ({
			rule: `${field} ${what}`,
			overrides: { [field]: value },
			field,
			text: `${where} ${field}: ${problem}`
		}));
	const rules: Rule[] = [
		...fieldRules(
			'case_number',
			[
				[
					'missing',
					undefined,
					'missing; every case needs a case_number (string or integer), unique in the file'
				],
				['empty', ' ', 'is empty'],
				['fractional', 3.5, 'must be a string or an integer, got number 3.5'],
				['boolean', true, 'must be a string or an integer, got boolean'],
				[
					'beyond exact integers',
					2 ** 60,
					`${2 ** 60} is too large to keep exactly; write it as a string in quotes`
				]
			],
			'case #2'
		),
		...fieldRules('cause_of_action', [
			['missing', undefined, 'missing'],
			['empty', '', 'is empty'],
			['not a string', ['合同纠纷'], 'must be a string, got array']
		]),
		...fieldRules('plaintiff_type', [
			['missing', undefined, 'missing; give it as a string, e.g. "自然人"'],
			['not a string', 1, 'must be a string, got integer']
		]),
		...fieldRules('focal_point', [
			['missing', undefined, 'missing'],
			['empty string', '  ', 'is empty'],
			['empty list', [], 'is an empty list; give at least one focal point'],
			['empty item', ['借款是否交付', ''], 'item 2 is empty'],
			['object', { a: 'b' }, 'must be a string or a list of strings, got object']
		]),
		...fieldRules('key_details', [
			['missing', undefined, 'missing'],
			['empty string', '', 'is empty'],
			['empty list', [], 'is an empty list; the hidden facts cannot be empty'],
			['non-string item', ['借条', 5], 'item 2 must be a string, got integer'],
			['empty object', {}, 'is an empty object; the hidden facts cannot be empty'],
			['empty entry', { 借款金额: '5万元', 还款期限: '' }, 'entry "还款期限" is empty'],
			['number', 5, 'must be a string, a list of strings or an object, got integer']
		]),
		...fieldRules('result_dict', [
			['missing', undefined, 'missing'],
			['empty', {}, 'is empty; a case needs at least one claim'],
			['a list', ['支持'], 'must be an object of claim → verdict, got array'],
			[
				'unknown verdict',
				{ 判令被告还款: '支持', 判令被告赔礼道歉: '不支持' },
				'claim 2 ("判令被告赔礼道歉"): verdict "不支持" is not one of 支持, 部分支持, 驳回'
			],
			[
				'verdict not a string',
				{ 判令被告还款: 1 },
				'claim 1 ("判令被告还款"): verdict integer is not one of 支持, 部分支持, 驳回'
			],
			['empty claim text', { '': '支持' }, 'claim 1: the claim text is empty']
		]),
		{
			rule: 'history missing',
			overrides: { underspecified_consultation: undefined },
			field: 'underspecified history',
			text: `${at} underspecified history: missing (field "underspecified_consultation")`
		},
		{
			rule: 'history a string (old format)',
			overrides: { complete_consultation: '用户：借款5万元未还' },
			field: 'complete history',
			text: `${at} complete history: expected a list of {"role", "content"} messages in "complete_consultation", got string`
		},
		{
			rule: 'history empty',
			overrides: { complete_consultation: [], underspecified_consultation: [] },
			field: 'complete history',
			text: `${at} complete history: has no messages; a history starts and ends with a user message`,
			count: 2
		},
		{
			rule: 'message not an object',
			overrides: {
				complete_consultation: [
					{ role: 'user', content: 'a' },
					'b',
					{ role: 'user', content: 'c' }
				],
				underspecified_consultation: history(3)
			},
			field: 'complete history',
			messageIndex: 1,
			text: `${at} complete history, message 1: expected an object {"role", "content"}, got string`
		},
		{
			rule: 'role missing',
			overrides: { underspecified_consultation: [{ content: 'a' }] },
			field: 'underspecified history',
			messageIndex: 0,
			text: `${at} underspecified history, message 0: role is missing`
		},
		{
			rule: 'role unknown',
			overrides: { underspecified_consultation: [{ role: 'system', content: 'a' }] },
			field: 'underspecified history',
			messageIndex: 0,
			text: `${at} underspecified history, message 0: role must be "user" or "assistant", got "system"`
		},
		{
			rule: 'starts with assistant',
			overrides: { underspecified_consultation: [{ role: 'assistant', content: 'a' }] },
			field: 'underspecified history',
			messageIndex: 0,
			text: `${at} underspecified history, message 0: expected role "user", got "assistant" (a history starts with the client)`
		},
		{
			rule: 'two user messages in a row',
			overrides: {
				complete_consultation: history(5),
				underspecified_consultation: [...history(3), { role: 'user', content: 'x' }, ...history(1)]
			},
			field: 'underspecified history',
			messageIndex: 3,
			text: `${at} underspecified history, message 3: expected role "assistant", got "user"`,
			count: 2
		},
		{
			rule: 'ends with assistant',
			overrides: {
				complete_consultation: history(3),
				underspecified_consultation: [
					...history(1),
					{ role: 'assistant', content: 'x' },
					{ role: 'assistant', content: 'y' }
				]
			},
			field: 'underspecified history',
			messageIndex: 2,
			text: `${at} underspecified history, message 2: expected role "user", got "assistant"`
		},
		{
			rule: 'ends with assistant (even length)',
			overrides: { complete_consultation: history(2), underspecified_consultation: history(2) },
			field: 'complete history',
			messageIndex: 1,
			text: `${at} complete history, message 1: the history ends with an assistant message; it must end with a user message`,
			count: 2
		},
		{
			rule: 'content missing',
			overrides: { complete_consultation: [{ role: 'user' }] },
			field: 'complete history',
			messageIndex: 0,
			text: `${at} complete history, message 0: content is missing`
		},
		{
			rule: 'content empty',
			overrides: {
				complete_consultation: history(3).map((m, i) => (i === 2 ? { ...m, content: ' ' } : m)),
				underspecified_consultation: history(3)
			},
			field: 'complete history',
			messageIndex: 2,
			text: `${at} complete history, message 2: content is empty`
		},
		{
			rule: 'content not a string',
			overrides: { complete_consultation: [{ role: 'user', content: ['a'] }] },
			field: 'complete history',
			messageIndex: 0,
			text: `${at} complete history, message 0: content must be a string, got array`
		},
		{
			rule: 'histories of different lengths',
			overrides: { complete_consultation: history(3), underspecified_consultation: history(1) },
			field: 'histories',
			text: `${at} histories: the complete history has 3 messages and the underspecified history 1; both histories of a case must have the same number of messages`
		}
	];

	it.each(rules)('$rule', async ({ overrides, field, messageIndex, text, count = 1 }) => {
		const result = await loadDataset(datasetBytes(thirdCase(overrides)));
		expect(result.ok).toBe(false);
		if (result.ok) return;
		expect(result.problems).toHaveLength(count);
		const [p] = result.problems;
		expect(p.text).toBe(text);
		expect(p.caseIndex).toBe(2);
		expect(p.caseNumber).toBe(field === 'case_number' ? null : 'T-003');
		expect(p.field).toBe(field);
		expect(p.messageIndex).toBe(messageIndex ?? null);
	});

	it('reports a case that is not an object by its position', async () => {
		expect(await problemsOf([validCase(1), '第二个案件'])).toEqual([
			'case #1: expected an object (one case), got string'
		]);
	});

	it('reports a field given twice in one case', async () => {
		const text = datasetBytes([validCase(1)]);
		const doubled = new TextDecoder()
			.decode(text)
			.replace(
				'"plaintiff_type": "自然人"',
				'"plaintiff_type": "自然人", "plaintiff_type": "法人"'
			);
		expect(await problemsOf(encoder.encode(doubled))).toEqual([
			'case #0 (case_number T-001) plaintiff_type: this field appears more than once in the case; keep one'
		]);
	});

	it('reports a claim given twice instead of keeping only one', async () => {
		const text = new TextDecoder()
			.decode(datasetBytes([validCase(1, { result_dict: { 判令被告还款: '支持' } })]))
			.replace('"判令被告还款": "支持"', '"判令被告还款": "支持", "判令被告还款": "驳回"');
		expect(await problemsOf(encoder.encode(text))).toEqual([
			'case #0 (case_number T-001) result_dict: claim "判令被告还款" appears more than once; each claim once'
		]);
	});
});

describe('loadDataset: whole-file problems', () => {
	const cases: Array<{ name: string; text: string | Uint8Array; problem: string }> = [
		{
			name: 'top level object',
			text: '{"cases": []}',
			problem:
				'the top level must be an array of cases, got object (if the cases sit under a key of this object, save that array as the file)'
		},
		{
			name: 'top level string',
			text: '"x"',
			problem: 'the top level must be an array of cases, got string'
		},
		{ name: 'no cases', text: '[]', problem: 'the file holds no cases' },
		{
			name: 'empty file',
			text: '',
			problem: 'data.json, line 1, column 1: not valid JSON: the file is empty'
		},
		{
			name: 'trailing comma',
			text: '[\n  {"case_number": 1,}\n]',
			problem: 'data.json, line 2, column 21: not valid JSON: trailing comma before "}"'
		},
		{
			name: 'missing comma',
			text: '[\r\n  {"a": 1}\r\n  {"a": 2}\r\n]',
			problem:
				'data.json, line 3, column 3: not valid JSON: expected "," or "]" after an array item, found "{"'
		},
		{
			name: 'unterminated string',
			text: '[{"a": "abc',
			problem:
				'data.json, line 1, column 8: not valid JSON: unterminated string (missing closing ")'
		},
		{
			name: 'text after the array',
			text: '[] x',
			problem:
				'data.json, line 1, column 4: not valid JSON: unexpected "x" after the end of the JSON value'
		},
		{
			name: 'invalid UTF-8 (GBK bytes)',
			text: new Uint8Array([0x5b, 0x0a, 0x20, 0x22, 0xbd, 0xe8, 0x22, 0x5d]),
			problem:
				'data.json, line 2, column 3: invalid UTF-8 (byte 0xBD); save the file as UTF-8 (not GBK or another encoding)'
		},
		{
			name: 'UTF-16',
			text: new Uint8Array([0xff, 0xfe, 0x5b, 0x00, 0x5d, 0x00]),
			problem:
				'data.json, the file is UTF-16 (little-endian) text; save it as UTF-8 and load it again'
		}
	];
	it.each(cases)('$name', async ({ text, problem }) => {
		const bytes = typeof text === 'string' ? encoder.encode(text) : text;
		const result = await loadDataset(bytes, { fileName: 'data.json' });
		expect(result).toMatchObject({ ok: false });
		expect((result as Extract<LoadResult, { ok: false }>).problems.map((p) => p.text)).toEqual([
			problem
		]);
	});
});

describe('loadDataset: every problem at once', () => {
	it('lists problems of several cases and several fields in file order, not just the first', async () => {
		const problems = await problemsOf([
			validCase(1, { cause_of_action: '' }),
			validCase(2),
			validCase(3, {
				focal_point: [],
				result_dict: { 判令被告还款: '胜诉' },
				underspecified_consultation: [{ role: 'assistant', content: '您好' }]
			}),
			7
		]);
		expect(problems).toEqual([
			'case #0 (case_number T-001) cause_of_action: is empty',
			'case #2 (case_number T-003) focal_point: is an empty list; give at least one focal point',
			'case #2 (case_number T-003) result_dict: claim 1 ("判令被告还款"): verdict "胜诉" is not one of 支持, 部分支持, 驳回',
			'case #2 (case_number T-003) underspecified history, message 0: expected role "user", got "assistant" (a history starts with the client)',
			'case #3: expected an object (one case), got integer'
		]);
	});

	it('reports one stray message once, not at every later position', async () => {
		const shifted = [
			{ role: 'user', content: 'a' },
			{ role: 'assistant', content: 'b' },
			{ role: 'assistant', content: 'c' },
			{ role: 'user', content: 'd' },
			{ role: 'assistant', content: 'e' },
			{ role: 'user', content: 'f' }
		];
		expect(
			await problemsOf([
				validCase(1, { complete_consultation: shifted, underspecified_consultation: history(5) })
			])
		).toEqual([
			'case #0 (case_number T-001) complete history, message 2: expected role "user", got "assistant"',
			'case #0 (case_number T-001) histories: the complete history has 6 messages and the underspecified history 5; both histories of a case must have the same number of messages'
		]);
	});
});

describe('loadDataset: case numbers', () => {
	it('keeps an integer case_number, as a string', async () => {
		const { dataset } = await loaded([validCase(1, { case_number: 20240013 }), validCase(2)]);
		expect(dataset.cases.map((c) => c.case_number)).toEqual(['20240013', 'T-002']);
	});

	it('names both positions of a duplicate case_number', async () => {
		expect(
			await problemsOf([validCase(1), validCase(2), validCase(3, { case_number: 'T-001' })])
		).toEqual([
			'case #2 (case_number T-001) case_number: duplicate: case #0 has the same case_number; case numbers must be unique'
		]);
	});

	it('compares case numbers as strings, so 7 and "7" collide', async () => {
		const problems = await problemsOf([
			validCase(1, { case_number: 7 }),
			validCase(2, { case_number: '7' })
		]);
		expect(problems).toEqual([
			'case #1 (case_number 7) case_number: duplicate: case #0 has the same case_number; case numbers must be unique'
		]);
	});
});

describe('loadDataset: what a valid file gives', () => {
	it('accepts a UTF-8 BOM and CRLF line ends, and hashes the bytes as given (BOM included)', async () => {
		const cases = validCases(2);
		const bomCrlf = datasetBytes(cases, { bom: true, crlf: true });
		const plain = datasetBytes(cases);
		const a = await loaded(bomCrlf);
		const b = await loaded(plain);
		expect(a.dataset.sha256).toBe(createHash('sha256').update(bomCrlf).digest('hex'));
		expect(b.dataset.sha256).toBe(createHash('sha256').update(plain).digest('hex'));
		expect(a.dataset.sha256).not.toBe(b.dataset.sha256);
		expect(a.dataset.cases).toEqual(b.dataset.cases);
	});

	it('keeps CRLF inside message content as written (escaped in JSON)', async () => {
		const content = '第一行\r\n第二行';
		const { dataset } = await loaded([
			validCase(1, { complete_consultation: [{ role: 'user', content }] })
		]);
		expect(dataset.cases[0].complete[0].content).toBe(content);
	});

	it('normalises a case: focal points as a list, claims in order, every message kept', async () => {
		const complete = history(5, '完整');
		const underspecified = history(5, '缺失');
		const { dataset } = await loaded([
			validCase(1, {
				focal_point: '借款是否交付',
				key_details: { 借款金额: '5万元', 约定利息: '年利率6%' },
				complete_consultation: complete,
				underspecified_consultation: underspecified,
				extra_field: 'ignored'
			})
		]);
		expect(dataset.cases[0]).toEqual({
			index: 0,
			case_number: 'T-001',
			case_number_value: 'T-001',
			cause_of_action: '民间借贷纠纷',
			plaintiff_type: '自然人',
			focal_points: ['借款是否交付'],
			key_details: { 借款金额: '5万元', 约定利息: '年利率6%' },
			claims: [
				{ claim: '判令被告偿还借款本金5万元', verdict: '支持' },
				{ claim: '判令被告支付逾期利息', verdict: '部分支持' }
			],
			complete,
			underspecified
		});
	});

	it('keeps integer-like claim keys in file order (JSON.parse would move them first)', async () => {
		const text = JSON.stringify([validCase(1)]).replace(
			/"result_dict":\{[^}]*\}/,
			'"result_dict":{"判令被告还款":"支持","2":"驳回","10":"部分支持","1":"支持"}'
		);
		const { dataset } = await loaded(encoder.encode(text));
		expect(dataset.cases[0].claims).toEqual([
			{ claim: '判令被告还款', verdict: '支持' },
			{ claim: '2', verdict: '驳回' },
			{ claim: '10', verdict: '部分支持' },
			{ claim: '1', verdict: '支持' }
		]);
	});

	it('warns (does not reorder silently) when key_details object keys are integer-like out of order', async () => {
		const text = JSON.stringify([validCase(1)]).replace(
			/"key_details":\[[^\]]*\]/,
			'"key_details":{"2":"后来的事实","1":"先前的事实"}'
		);
		const { warnings, dataset } = await loaded(encoder.encode(text));
		expect(dataset.cases[0].key_details).toEqual({ 1: '先前的事实', 2: '后来的事实' });
		expect(warnings.map((w) => w.text)).toEqual([
			'case #0 (case_number T-001) key_details: entries with number-like keys will be listed in numeric order, not file order; write key_details as a list to keep the order'
		]);
	});

	it('summarises counts, message lengths and extra pairs', async () => {
		const { dataset } = await loaded([
			validCase(1),
			validCase(2, { complete_consultation: history(3), underspecified_consultation: history(3) }),
			validCase(3, {
				cause_of_action: '离婚纠纷',
				complete_consultation: history(5),
				underspecified_consultation: history(5)
			})
		]);
		expect(dataset.summary).toEqual({
			cases: 3,
			histories: 6,
			causes: 2,
			classes: { 合同纠纷: 2, 婚姻家庭与继承纠纷: 1 },
			causeCounts: { 民间借贷纠纷: 2, 离婚纠纷: 1 },
			messages: { min: 1, max: 5, mean: 3, total: 18 },
			extraPairs: 2
		});
	});

	it('keeps the file name when given', async () => {
		const { dataset } = await loaded([validCase(1)], { fileName: 'mine.json' });
		expect(dataset.fileName).toBe('mine.json');
	});
});

describe('loadDataset: history field detection', () => {
	it.each([
		['full_consultation', 'incomplete_consultation'],
		['gold_history', 'partial_history'],
		['complete_dialogue', 'missing_facts_dialogue'],
		['FullHistory', 'UnderspecifiedHistory']
	])('detects %s / %s', async (complete, underspecified) => {
		const { dataset } = await loaded(withHistoryFields(validCases(2), complete, underspecified));
		expect(dataset.historyFields).toEqual({ complete, underspecified });
		expect(dataset.cases[0].complete[0].content).toContain('有借条');
		expect(dataset.cases[0].underspecified[0].content).toContain('借钱不还');
	});

	it('prefers the canonical names over other message-array fields', async () => {
		const cases = validCases(2).map((c) => ({ ...c, full_history: history(1) }));
		const { dataset } = await loaded(cases);
		expect(dataset.historyFields).toEqual({
			complete: 'complete_consultation',
			underspecified: 'underspecified_consultation'
		});
	});

	it('asks for a mapping when names give no answer, and reports the other problems too', async () => {
		const cases = withHistoryFields(validCases(2), 'dialogue_a', 'dialogue_b');
		cases[1].cause_of_action = '';
		const result = await loadDataset(datasetBytes(cases));
		expect(result).toMatchObject({
			ok: false,
			mapping: { candidates: ['dialogue_a', 'dialogue_b'], detected: {} }
		});
		const texts = (result as Extract<LoadResult, { ok: false }>).problems.map((p) => p.text);
		expect(texts).toEqual([
			'history fields: cannot tell which fields hold the complete and the underspecified history (no message-array field has a name that marks the complete history; no message-array field has a name that marks the underspecified history; fields holding message lists: dialogue_a, dialogue_b). Name them: in the CLI with --complete-field NAME --underspecified-field NAME, in the app in the field mapping.',
			'case #1 (case_number T-002) cause_of_action: is empty'
		]);
	});

	it('asks for a mapping when two fields could be the same history, keeping what it did detect', async () => {
		const cases = withHistoryFields(validCases(1), 'full_history', 'partial_history').map((c) => ({
			...c,
			gold_history: history(1)
		}));
		const result = await loadDataset(datasetBytes(cases));
		expect(result).toMatchObject({
			ok: false,
			mapping: {
				candidates: ['full_history', 'partial_history', 'gold_history'],
				detected: { underspecified: 'partial_history' }
			}
		});
		expect((result as Extract<LoadResult, { ok: false }>).problems[0].text).toContain(
			'several fields could be the complete history (full_history, gold_history)'
		);
	});

	it('uses an explicit mapping, which beats detection', async () => {
		const cases = withHistoryFields(validCases(2), 'dialogue_a', 'dialogue_b');
		const { dataset } = await loaded(cases, {
			historyFields: { complete: 'dialogue_a', underspecified: 'dialogue_b' }
		});
		expect(dataset.historyFields).toEqual({ complete: 'dialogue_a', underspecified: 'dialogue_b' });

		const swapped = await loaded(
			validCases(1).map((c) => ({ ...c, complete_consultation: c.underspecified_consultation })),
			{
				historyFields: {
					complete: 'underspecified_consultation',
					underspecified: 'complete_consultation'
				}
			}
		);
		expect(swapped.dataset.historyFields.complete).toBe('underspecified_consultation');
	});

	it('detects the other field when only one is mapped', async () => {
		const cases = withHistoryFields(validCases(1), 'dialogue_a', 'partial_history');
		const { dataset } = await loaded(cases, { historyFields: { complete: 'dialogue_a' } });
		expect(dataset.historyFields).toEqual({
			complete: 'dialogue_a',
			underspecified: 'partial_history'
		});
	});

	it('reports a mapped field that no case has once, not once per case', async () => {
		expect(await problemsOf(validCases(3), { historyFields: { complete: 'gold' } })).toEqual([
			'complete history: no case has the field "gold"; fields holding message lists: complete_consultation, underspecified_consultation'
		]);
	});

	it('refuses one field for both histories', async () => {
		const result = await loadDataset(datasetBytes(validCases(1)), {
			historyFields: { complete: 'complete_consultation', underspecified: 'complete_consultation' }
		});
		expect(result.ok).toBe(false);
		expect((result as Extract<LoadResult, { ok: false }>).problems[0].text).toContain(
			'"complete_consultation" cannot hold both histories'
		);
	});
});

describe('loadDataset: cause classes', () => {
	it('puts unknown causes in 未分类 with one warning per cause, not per case', async () => {
		const result = await loaded([
			validCase(1, { cause_of_action: '宠物寄养纠纷' }),
			validCase(2),
			validCase(3, { cause_of_action: '宠物寄养纠纷' })
		]);
		expect(result.dataset.summary.classes).toEqual({ 未分类: 2, 合同纠纷: 1 });
		expect(result.warnings.map((w) => w.text)).toEqual([
			'case #0 (case_number T-001) cause_of_action: "宠物寄养纠纷" is not in the category map (2 cases); counted as 未分类. Add it to a category map to classify it.'
		]);
	});

	it('uses a given map instead of the default', async () => {
		const categories = { 民间借贷纠纷: '金融类' };
		const result = await loaded(validCases(2), { categories });
		expect(result.dataset.summary.classes).toEqual({ 金融类: 2 });
		expect(result.dataset.categories).toBe(categories);
		expect(result.warnings).toEqual([]);
	});
});
