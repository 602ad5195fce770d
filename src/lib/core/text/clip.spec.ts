import { describe, expect, it } from 'vitest';
import { checkBaseUrl } from '../model/base-url';
import { providerWords, providerWordsSaid } from '../model/failure-message';
import { clipText, QUOTED_CHARS, textHead } from './clip';

const EMOJI = '😀';
/** A text whose `at`-th character is the first half of an emoji. */
const emojiAt = (at: number) => `${'x'.repeat(at - 1)}${EMOJI}${'y'.repeat(50)}`;
const lone = (text: string) => /[\ud800-\udbff](?![\udc00-\udfff])/.test(text);

describe('one cut of text, never half a surrogate pair', () => {
	it.each([
		['ab😀cd', 3, 'ab'],
		['ab😀cd', 4, 'ab😀'],
		['ab😀cd', 2, 'ab'],
		['abc', 3, 'abc'],
		['abcdef', 4, 'abcd']
	])('textHead(%j, %i) is %j', (text, max, head) => {
		expect(textHead(text, max)).toBe(head);
	});

	// Every place that quotes a cut text cuts it at the same place: a copy that drifts fails here.
	it.each([1, 2, 30, 200, QUOTED_CHARS])(
		'an emoji at character %i is kept whole or left out',
		(at) => {
			const text = emojiAt(at);
			const head = textHead(text, at);
			expect(head).toBe('x'.repeat(at - 1));
			expect(clipText(text, at)).toBe(`${head}… (${text.length} characters in all)`);
			expect(clipText(clipText(text, at), at)).toBe(clipText(text, at));
		}
	);

	it('cuts a provider’s words where clipText does', () => {
		const text = emojiAt(QUOTED_CHARS);
		const head = textHead(text, QUOTED_CHARS);
		expect(providerWords(text)).toBe(clipText(text, QUOTED_CHARS));
		expect(providerWords(text, 1024)).toBe(
			`${head}… (more than 1024 bytes; the rest was not read)`
		);
		expect((providerWordsSaid(text, 1024).params as { said: string }).said).toBe(head);
		for (const quoted of [providerWords(text), providerWords(text, 1024)]) {
			expect(lone(quoted)).toBe(false);
		}
	});

	it('quotes a long base URL it refuses without half an emoji', () => {
		const checked = checkBaseUrl(emojiAt(200));
		expect(checked.ok).toBe(false);
		if (!checked.ok) {
			expect(lone(checked.problem)).toBe(false);
			expect(checked.problem).toContain(`"${'x'.repeat(199)}…"`);
		}
	});
});
