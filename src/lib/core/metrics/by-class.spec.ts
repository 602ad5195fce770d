import { describe, expect, it } from 'vitest';
import { UNCLASSIFIED } from '../dataset/types';
import { classOf } from '../dataset/categories';
import { orderClasses, splitByClass } from './by-class';

const categories = { 民间借贷纠纷: '合同纠纷', 离婚纠纷: '婚姻家庭纠纷', 买卖合同纠纷: '合同纠纷' };

describe('cause classes', () => {
	it.each([
		['民间借贷纠纷', '合同纠纷'],
		['离婚纠纷', '婚姻家庭纠纷'],
		['劳动争议', UNCLASSIFIED],
		// Inherited object keys are not causes.
		['constructor', UNCLASSIFIED]
	])('%s → %s', (cause, cls) => {
		expect(classOf(cause, categories)).toBe(cls);
	});

	it('splits records by class', () => {
		const split = splitByClass(
			[
				{ cause_of_action: '离婚纠纷' },
				{ cause_of_action: '民间借贷纠纷' },
				{ cause_of_action: '买卖合同纠纷' }
			],
			categories
		);
		expect([...split].map(([cls, rs]) => [cls, rs.length])).toEqual([
			['婚姻家庭纠纷', 1],
			['合同纠纷', 2]
		]);
	});

	it('orders classes as the map names them, unknown ones after, 未分类 last', () => {
		expect(
			orderClasses([UNCLASSIFIED, '婚姻家庭纠纷', '其他', '合同纠纷', '合同纠纷'], categories)
		).toEqual(['合同纠纷', '婚姻家庭纠纷', '其他', UNCLASSIFIED]);
	});
});
