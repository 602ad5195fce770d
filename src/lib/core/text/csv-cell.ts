/**
 * One CSV field, the only way the workbench writes one (RFC 4180 quoting plus the OWASP
 * defence against CSV formula injection). A class name, a model id or a note from a file that
 * starts with `=`, `+`, `-`, `@`, a tab or a carriage return would run as a formula when the
 * copy is opened in a spreadsheet (`=HYPERLINK(…)`, `@SUM(…)`, `-2+3`); such text gets a
 * leading `'` and is quoted, so it shows as the text it is.
 *
 * Numbers are the workbench's own figures and stay numbers: pass them as `number`, never as
 * text, and a negative one (`-0.0123`) is written as is. Text that merely looks like a number
 * (a class called `-1`) is text, and is neutralised like any other.
 */

import { formatNumber } from '../report/format';

/** First characters a spreadsheet reads as the start of a formula (OWASP "CSV Injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** Characters that need the field quoted (RFC 4180), the separator and line breaks. */
const NEEDS_QUOTES = /[",\n\r]/;

/**
 * The field for `value`: a finite number with `decimals` decimals (@default 4), `null` or
 * `undefined` (or a non-finite number) as an empty field, text quoted when needed and
 * neutralised when it could start a formula.
 */
export function csvCell(value: string | number | null | undefined, decimals = 4): string {
	if (typeof value === 'number') return Number.isFinite(value) ? formatNumber(value, decimals) : '';
	if (value === null || value === undefined) return '';
	if (FORMULA_START.test(value)) return `"'${value.replace(/"/g, '""')}"`;
	return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
