import { describe, expect, it } from 'vitest';
import { textHead } from '$lib/core/text/clip';
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

describe('the page cuts where the core cuts', () => {
	it.each([1, 3, 10, 200])('an emoji at character %i', (at) => {
		const text = `${'x'.repeat(at - 1)}😀${'y'.repeat(300)}`;
		const head = textHead(text, at);
		expect(head).toBe('x'.repeat(at - 1));
		expect(clipText(text, at)).toEqual({ shown: head, cut: true, length: text.length });
		expect(shortText(text, at)).toBe(`${head}… (${text.length.toLocaleString('en')} characters)`);
	});
});
