import { describe, expect, it } from 'vitest';
import { isMessageArray, looksComplete, looksUnderspecified } from './history-fields';
import { parseOrderedJson } from './ordered-json';

describe('history field names', () => {
	it.each([
		['complete_consultation', true, false],
		['full_history', true, false],
		['GoldDialogue', true, false],
		['incomplete_consultation', false, true],
		['underspecified_consultation', false, true],
		['partial_history', false, true],
		['missing_info_history', false, true],
		['consultation', false, false]
	])('%s: complete %s, underspecified %s', (name, complete, underspecified) => {
		expect(looksComplete(name)).toBe(complete);
		expect(looksUnderspecified(name)).toBe(underspecified);
	});
});

describe('isMessageArray', () => {
	it.each([
		['[{"role": "user", "content": "a"}]', true],
		['[{"content": "a"}]', true],
		['[]', false],
		['["User: a"]', false],
		['"User: a"', false],
		['[{"role": "user"}, "x"]', false]
	])('%s → %s', (json, expected) => {
		expect(isMessageArray(parseOrderedJson(json))).toBe(expected);
	});
});
