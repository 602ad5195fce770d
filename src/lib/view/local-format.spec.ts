import { describe, expect, it } from 'vitest';
import { localDateTime, localList } from './local-format';

describe('localDateTime', () => {
	it('writes a saved run’s ISO time in the interface language, not as ISO', () => {
		const iso = '2026-12-05T14:39:00.941Z';
		for (const locale of ['zh-CN', 'en']) {
			const text = localDateTime(iso, locale);
			expect(text).not.toMatch(/\d{4}-\d\d-\d\dT/);
			expect(text).toContain('2026');
		}
		expect(localDateTime(iso, 'zh-CN')).toMatch(/2026年12月\d+日/);
	});

	it('keeps what is no date as it is', () => {
		expect(localDateTime('yesterday', 'en')).toBe('yesterday');
	});
});

describe('localList', () => {
	it('joins with 、 in Chinese and with commas in English', () => {
		expect(localList(['a1', 'DCG 追问', 'LCA 标签'], 'zh-CN')).toBe('a1、DCG 追问和LCA 标签');
		expect(localList(['a1', 'DCG', 'LCA'], 'en')).toBe('a1, DCG, and LCA');
	});
});
