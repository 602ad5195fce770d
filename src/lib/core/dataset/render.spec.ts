import { describe, expect, it } from 'vitest';
import { focalPointsText, keyDetailsText, renderHistory } from './render';

describe('renderHistory', () => {
	it('renders every message in order as User:/Assistant: lines', () => {
		expect(
			renderHistory([
				{ role: 'user', content: '我借给朋友5万元。' },
				{ role: 'assistant', content: '有借条吗？\n有转账记录吗？' },
				{ role: 'user', content: '都有。' }
			])
		).toBe('User: 我借给朋友5万元。\nAssistant: 有借条吗？\n有转账记录吗？\nUser: 都有。');
	});

	it('renders an empty history as empty text', () => {
		expect(renderHistory([])).toBe('');
	});
});

describe('keyDetailsText', () => {
	it.each([
		['a string as is', '借条载明借款5万元', '借条载明借款5万元'],
		['a list numbered', ['借条载明借款5万元', '已转账'], '1. 借条载明借款5万元\n2. 已转账'],
		[
			'an object as key：value lines',
			{
				借款金额: '5万元',
				证据: ['借条', '转账记录'],
				利息: { 约定: '年6%', 已付: 0 },
				备注: null
			},
			'借款金额：5万元\n证据：借条；转账记录\n利息：约定：年6%；已付：0\n备注：'
		]
	])('renders %s', (_name, kd, text) => {
		expect(keyDetailsText(kd)).toBe(text);
	});
});

describe('focalPointsText', () => {
	it.each([
		[['借款是否交付'], '借款是否交付'],
		[['借款是否交付', '利息如何计算'], '1. 借款是否交付\n2. 利息如何计算']
	])('%j', (points, text) => {
		expect(focalPointsText(points)).toBe(text);
	});
});
