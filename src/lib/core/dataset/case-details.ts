/** A case's key details and claims (result_dict) read by the PROTOCOL.md §1 rules. */
import { VERDICTS, type Claim, type KeyDetails, type Verdict } from './types';
import { JsonObject, jsonTypeOf, toPlain, type JsonValue } from './ordered-json';
import { coded } from '../said';
import { EMPTY, MISSING, type Report } from './case-said';
import { checkTextItems } from './case-fields';

export function readKeyDetails(
	v: JsonValue | undefined,
	bad: Report,
	warn: Report
): KeyDetails | null {
	if (typeof v === 'string') {
		if (v.trim() !== '') return v;
		bad(EMPTY());
		return null;
	}
	if (Array.isArray(v)) {
		if (v.length === 0) {
			bad(coded('key_details_empty_list', {}));
			return null;
		}
		return checkTextItems(v, bad) ? (v as string[]) : null;
	}
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

export function readClaims(v: JsonValue | undefined, bad: Report): Claim[] | null {
	if (!(v instanceof JsonObject)) {
		bad(v === undefined ? MISSING() : coded('result_dict_type', { got: jsonTypeOf(v) }));
		return null;
	}
	if (v.keys.length === 0) {
		bad(coded('result_dict_empty', {}));
		return null;
	}
	let ok = true;
	for (const key of v.duplicateKeys()) {
		bad(coded('claim_repeated', { claim: quoteClaim(key) }));
		ok = false;
	}
	const claims: Claim[] = [];
	v.keys.forEach((claim, i) => {
		const verdict = v.values[i];
		if (claim.trim() === '') {
			bad(coded('claim_text_empty', { item: i + 1 }));
			ok = false;
		} else if (typeof verdict !== 'string' || !(VERDICTS as readonly string[]).includes(verdict)) {
			const got = typeof verdict === 'string' ? `"${verdict}"` : jsonTypeOf(verdict);
			bad(
				coded('claim_verdict', {
					item: i + 1,
					claim: quoteClaim(claim),
					got,
					verdicts: VERDICTS.join(', ')
				})
			);
			ok = false;
		} else claims.push({ claim, verdict: verdict as Verdict });
	});
	// An exact-size copy: an array grown by push keeps room for 17 items, most of a short list's memory.
	return ok ? claims.slice() : null;
}

function quoteClaim(claim: string): string {
	return `"${claim.length > 30 ? `${claim.slice(0, 30)}…` : claim}"`;
}
