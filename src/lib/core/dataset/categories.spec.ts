import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors';
import { classOf, DEFAULT_CATEGORIES, DEFAULT_CLASSES, parseCategoryMap } from './categories';

describe('DEFAULT_CATEGORIES', () => {
	it('maps at least 60 causes into exactly the six default classes', () => {
		expect(Object.keys(DEFAULT_CATEGORIES).length).toBeGreaterThanOrEqual(60);
		expect(new Set(Object.values(DEFAULT_CATEGORIES))).toEqual(new Set(DEFAULT_CLASSES));
		expect(DEFAULT_CLASSES).toHaveLength(6);
	});

	it.each([
		['借款合同纠纷', '合同纠纷'],
		['民间借贷纠纷', '合同纠纷'],
		['买卖合同纠纷', '合同纠纷'],
		['房屋租赁合同纠纷', '合同纠纷'],
		['物业服务合同纠纷', '合同纠纷'],
		['劳务合同纠纷', '合同纠纷'],
		['机动车交通事故责任纠纷', '侵权责任纠纷'],
		['提供劳务者受害责任纠纷', '侵权责任纠纷'],
		['医疗损害责任纠纷', '侵权责任纠纷'],
		['离婚纠纷', '婚姻家庭与继承纠纷'],
		['法定继承纠纷', '婚姻家庭与继承纠纷'],
		['抚养纠纷', '婚姻家庭与继承纠纷'],
		['劳动争议', '劳动与人事争议'],
		['追索劳动报酬纠纷', '劳动与人事争议'],
		['相邻关系纠纷', '物权纠纷'],
		['财产损害赔偿纠纷', '物权纠纷'],
		['健康权纠纷', '人格权与其他民事纠纷'],
		['名誉权纠纷', '人格权与其他民事纠纷']
	])('%s → %s', (cause, cls) => {
		expect(classOf(cause, DEFAULT_CATEGORIES)).toBe(cls);
	});

	it('puts causes the map lacks in 未分类, including names of object members', () => {
		expect(classOf('宠物寄养纠纷', DEFAULT_CATEGORIES)).toBe('未分类');
		expect(classOf('constructor', DEFAULT_CATEGORIES)).toBe('未分类');
		expect(classOf('toString', {})).toBe('未分类');
	});
});

describe('parseCategoryMap', () => {
	it('reads cause → class, with a BOM', () => {
		const bytes = new TextEncoder().encode('\uFEFF{"民间借贷纠纷": "金融", "离婚纠纷": "家事"}');
		expect(parseCategoryMap(bytes)).toEqual({ 民间借贷纠纷: '金融', 离婚纠纷: '家事' });
	});

	it('also reads class → [causes]', () => {
		expect(
			parseCategoryMap('{"金融": ["民间借贷纠纷", "借款合同纠纷"], "家事": ["离婚纠纷"]}')
		).toEqual({
			民间借贷纠纷: '金融',
			借款合同纠纷: '金融',
			离婚纠纷: '家事'
		});
	});

	it.each([
		['not JSON', '{"a": ', /category map: not valid JSON/],
		['an array', '["a"]', /expected a JSON object of cause of action → class/],
		['empty', '{}', /the object is empty/],
		[
			'a non-string class',
			'{"民间借贷纠纷": 3}',
			/"民间借贷纠纷": the class must be a non-empty string/
		],
		[
			'mixed forms',
			'{"民间借贷纠纷": "金融", "家事": ["离婚纠纷"]}',
			/"家事": mixes the two forms/
		],
		[
			'a cause in two classes',
			'{"金融": ["民间借贷纠纷"], "其他": ["民间借贷纠纷"]}',
			/class "其他", item 1: "民间借贷纠纷" is already in class "金融"/
		],
		[
			'invalid UTF-8',
			new Uint8Array([0x7b, 0xc4, 0xe3, 0x7d]),
			/category map: line 1, column 2: invalid UTF-8/
		]
	])('rejects %s with a clear message', (_name, input, message) => {
		expect(() => parseCategoryMap(input)).toThrow(UsageError);
		expect(() => parseCategoryMap(input)).toThrow(message);
	});

	it('lists every problem at once', () => {
		expect(() => parseCategoryMap('{"a": "", "b": 1, "c": "ok"}')).toThrow(
			'category map:\n  "a": the class must be a non-empty string\n  "b": the class must be a non-empty string'
		);
	});
});
