/** A case's text fields read by the PROTOCOL.md §1 rules: case_number, texts, focal points. */
import { jsonTypeOf, type JsonValue } from './ordered-json';
import { coded, type CoreText } from '../said';
import { EMPTY, MISSING, notString, type Report } from './case-said';

/** @param raw the digits as written, for an integer beyond 2^53 (its Number is rounded) */
export function readCaseNumber(v: JsonValue | undefined, bad: Report, raw?: string): string | null {
	if (v === undefined) {
		bad(coded('case_number_missing', {}));
		return null;
	}
	if (typeof v === 'string') {
		if (v.trim() !== '') return v;
		bad(EMPTY());
		return null;
	}
	if (typeof v === 'number' && Number.isInteger(v)) {
		if (Number.isSafeInteger(v)) return String(v);
		bad(coded('case_number_too_large', { value: raw ?? String(v) }));
		return null;
	}
	const got = `${jsonTypeOf(v)}${typeof v === 'number' ? ` ${v}` : ''}`;
	bad(coded('case_number_type', { got }));
	return null;
}

export function readText(v: JsonValue | undefined, bad: Report): string | null {
	if (v === undefined) bad(MISSING());
	else if (typeof v !== 'string') bad(notString(v));
	else if (v.trim() === '') bad(EMPTY());
	else return v;
	return null;
}

export function readFocalPoints(v: JsonValue | undefined, bad: Report): string[] | null {
	const read = readTextOrList(v, bad, () => coded('focal_point_empty_list', {}));
	if (read !== undefined) return typeof read === 'string' ? [read] : read;
	bad(v === undefined ? MISSING() : coded('focal_point_type', { got: jsonTypeOf(v) }));
	return null;
}

/**
 * A field given as a text or as a non-empty list of texts: the text, the list, or null with its
 * problem said; undefined when `v` is neither (the caller says what else it takes).
 */
export function readTextOrList(
	v: JsonValue | undefined,
	bad: Report,
	emptyList: () => CoreText
): string | string[] | null | undefined {
	if (typeof v === 'string') {
		if (v.trim() !== '') return v;
		bad(EMPTY());
		return null;
	}
	if (!Array.isArray(v)) return undefined;
	if (v.length === 0) {
		bad(emptyList());
		return null;
	}
	return checkTextItems(v, bad) ? (v as string[]) : null;
}

export function checkTextItems(items: JsonValue[], bad: Report): boolean {
	let ok = true;
	items.forEach((item, i) => {
		if (typeof item !== 'string') {
			bad(coded('item_not_string', { item: i + 1, got: jsonTypeOf(item) }));
		} else if (item.trim() === '') {
			bad(coded('item_empty', { item: i + 1 }));
		} else return;
		ok = false;
	});
	return ok;
}
