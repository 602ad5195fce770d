import { describe, expect, it } from 'vitest';
import { localList } from './local-format';

describe('localList', () => {
	it('joins with 、 in Chinese and with commas in English', () => {
		expect(localList(['a1', 'DCG 追问', 'LCA 标签'], 'zh-CN')).toBe('a1、DCG 追问和LCA 标签');
		expect(localList(['a1', 'DCG', 'LCA'], 'en')).toBe('a1, DCG, and LCA');
	});
});
