import { describe, expect, it } from 'vitest';
import { clipText, shortText } from './long-text';

describe('clipText', () => {
	it('keeps a short text whole and cuts a long one at the limit', () => {
		expect(clipText('abc', 3)).toEqual({ shown: 'abc', cut: false, length: 3 });
		expect(clipText('abcdef', 4)).toEqual({ shown: 'abcd', cut: true, length: 6 });
	});

	it('never leaves half of a surrogate pair at the cut', () => {
		const text = 'ab😀cd';
		expect(clipText(text, 3)).toEqual({ shown: 'ab', cut: true, length: 6 });
		expect(clipText(text, 4).shown).toBe('ab😀');
	});
});

describe('shortText', () => {
	it('says how long the whole text is', () => {
		expect(shortText('x'.repeat(5000), 10)).toBe('xxxxxxxxxx… (5,000 characters)');
		expect(shortText('short', 10)).toBe('short');
	});
});
