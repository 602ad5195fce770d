/** A case's key details read by the PROTOCOL.md §1 rules (its claims: `case-claims.ts`). */
import type { KeyDetails } from './types';
import { JsonObject, jsonTypeOf, toPlain, type JsonValue } from './ordered-json';
import { coded } from '../said';
import { MISSING, type Report } from './case-said';
import { readTextOrList } from './case-fields';

export function readKeyDetails(
	v: JsonValue | undefined,
	bad: Report,
	warn: Report
): KeyDetails | null {
	const read = readTextOrList(v, bad, () => coded('key_details_empty_list', {}));
	if (read !== undefined) return read;
	if (v instanceof JsonObject) {
		if (v.keys.length === 0) {
			bad(coded('key_details_empty_object', {}));
			return null;
		}
		let ok = true;
		for (const key of v.duplicateKeys()) {
			bad(coded('key_details_entry_repeated', { key }));
			ok = false;
		}
		v.keys.forEach((key, i) => {
			const x = v.values[i];
			if (x === null || (typeof x === 'string' && x.trim() === '')) {
				bad(coded('key_details_entry_empty', { key }));
				ok = false;
			}
		});
		if (!ok) return null;
		const plain = toPlain(v) as Record<string, unknown>;
		if (Object.keys(plain).some((k, i) => k !== v.keys[i])) {
			// JS objects list integer-like keys first; say so rather than reorder silently.
			warn(coded('key_details_number_keys', {}));
		}
		return plain;
	}
	bad(v === undefined ? MISSING() : coded('key_details_type', { got: jsonTypeOf(v) }));
	return null;
}
