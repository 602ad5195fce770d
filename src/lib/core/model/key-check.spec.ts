import { describe, expect, it } from 'vitest';
import { keyProblem } from './key-check';

describe('keyProblem', () => {
	it.each([
		['an ordinary key', 'sk-proj-AbC123_xyz.-', null],
		['no key (keyless local server)', '', null],
		['a zero-width space', 'sk-abc\u200bdef', /U\+200B at position 7/],
		['a non-breaking space', '\u00a0sk-abc', /U\+00A0 at position 1/],
		['an inner space', 'sk abc', /U\+0020 at position 3/],
		['a line end or spaces around it (fetch strips them)', ' sk-abc\r\n', null],
		['a line end inside', 'sk-\nabc', /U\+000A at position 4/],
		['a typographic quote', '“sk-abc”', /U\+201C at position 1/]
	])('%s', (_what, key, expected) => {
		const problem = keyProblem(key);
		if (expected === null) expect(problem).toBeNull();
		else expect(problem).toMatch(expected);
	});

	it('never repeats the key itself', () => {
		expect(keyProblem('sk-secret-value\u200b')).not.toContain('sk-secret-value');
	});
});
