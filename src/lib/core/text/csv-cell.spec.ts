import { describe, expect, it } from 'vitest';
import { csvCell } from './csv-cell';

describe('csvCell', () => {
	it.each([
		// Text a spreadsheet would run as a formula: a leading quote, and the field quoted.
		['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
		['+cmd|/c calc', `"'+cmd|/c calc"`],
		['-2+3', `"'-2+3"`],
		['-0.0123', `"'-0.0123"`],
		['@SUM(A1:A9)', `"'@SUM(A1:A9)"`],
		['\t=1+1', `"'\t=1+1"`],
		['\r=1+1', `"'\r=1+1"`],
		// Ordinary text: as is, or quoted (RFC 4180) when it holds a quote, a comma or a break.
		['gpt-4o · run1', 'gpt-4o · run1'],
		['a, "b"', '"a, ""b"""'],
		['line\nbreak', '"line\nbreak"'],
		['合同纠纷', '合同纠纷'],
		['', '']
	])('text %j → %s', (text, field) => {
		expect(csvCell(text)).toBe(field);
	});

	it.each([
		[-0.0123, '-0.0123'],
		[0.123456, '0.1235'],
		[1, '1.0000'],
		[null, ''],
		[undefined, ''],
		[Number.NaN, '']
	])("the workbench's own number %s → %s, a negative one kept a number", (n, field) => {
		expect(csvCell(n)).toBe(field);
	});
});
