/** A case's claims and their verdicts (result_dict) read by the PROTOCOL.md §1 rules. */
import { VERDICTS, type Claim, type Verdict } from './types';
import { JsonObject, jsonTypeOf, type JsonValue } from './ordered-json';
import { coded } from '../said';
import { textHead } from '../text/clip';
import { MISSING, type Report } from './case-said';

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
	return `"${claim.length > 30 ? `${textHead(claim, 30)}…` : claim}"`;
}
