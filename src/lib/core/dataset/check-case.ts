/** The PROTOCOL.md §1 rules for one case: every problem is collected, none stops the others. */
import {
	VERDICTS,
	type Case,
	type Claim,
	type History,
	type HistoryFields,
	type KeyDetails,
	type Verdict
} from './types';
import { JsonObject, jsonTypeOf, toPlain, type JsonValue } from './ordered-json';
import { problem, type DatasetProblem } from './problems';
import { escapeControl, firstLoneSurrogate } from '../text/escape-control';
import { coded, type CoreText } from '../said';

/** What checking one case needs to know about the rest of the file. */
export interface CaseContext {
	/** The history fields of this file, or null when they could not be decided. */
	fields: HistoryFields | null;
	/** Mapped history fields that no case has: reported once for the file, not per case. */
	absentFields: ReadonlySet<string>;
	/** case_number → index of the first case that uses it; filled as cases are checked. */
	seenCaseNumbers: Map<string, number>;
}

export interface CaseCheck {
	/** The normalised case, or null when the case has a problem. */
	kase: Case | null;
	problems: DatasetProblem[];
	warnings: DatasetProblem[];
}

const HISTORY_ROLES = ['complete', 'underspecified'] as const;

export function checkCase(value: JsonValue, index: number, ctx: CaseContext): CaseCheck {
	const problems: DatasetProblem[] = [];
	const warnings: DatasetProblem[] = [];
	if (!(value instanceof JsonObject)) {
		problems.push(
			problem({ caseIndex: index }, coded('case_not_object', { got: jsonTypeOf(value) }))
		);
		return { kase: null, problems, warnings };
	}

	let caseNumber: string | null = null;
	const report = (into: DatasetProblem[], field: string, said: Said, messageIndex?: number) =>
		into.push(problem({ caseIndex: index, caseNumber, field, messageIndex }, said));
	const bad = (field: string, said: Said, messageIndex?: number) =>
		report(problems, field, said, messageIndex);

	caseNumber = readCaseNumber(
		value.get('case_number'),
		(m) => bad('case_number', m),
		value.rawNumber('case_number')
	);
	if (caseNumber !== null) {
		const first = ctx.seenCaseNumbers.get(caseNumber);
		if (first === undefined) ctx.seenCaseNumbers.set(caseNumber, index);
		else {
			bad('case_number', coded('case_number_duplicate', { first }));
		}
	}
	for (const key of value.duplicateKeys()) {
		bad(key, coded('field_repeated', {}));
	}
	// Histories are checked message by message below; every other string of the case here.
	const historyNames = new Set(ctx.fields ? [ctx.fields.complete, ctx.fields.underspecified] : []);
	value.keys.forEach((key, i) => {
		if (firstLoneSurrogate(key) >= 0) bad(key, loneSurrogate(key, 'name'));
		if (!historyNames.has(key)) {
			for (const found of loneSurrogates(value.values[i], '')) bad(key, found);
		}
	});

	const cause = readText(value.get('cause_of_action'), (m) => bad('cause_of_action', m));

	const plaintiff = value.get('plaintiff_type');
	let plaintiffType: string | null = null;
	if (plaintiff === undefined) {
		bad('plaintiff_type', coded('plaintiff_type_missing', {}));
	} else if (typeof plaintiff !== 'string') {
		bad('plaintiff_type', notString(plaintiff));
	} else {
		plaintiffType = plaintiff;
		if (plaintiff.trim() === '') report(warnings, 'plaintiff_type', EMPTY());
	}

	const focalPoints = readFocalPoints(value.get('focal_point'), (m) => bad('focal_point', m));
	const keyDetails = readKeyDetails(
		value.get('key_details'),
		(m) => bad('key_details', m),
		(m) => report(warnings, 'key_details', m)
	);
	const claims = readClaims(value.get('result_dict'), (m) => bad('result_dict', m));

	const histories: Partial<Record<(typeof HISTORY_ROLES)[number], History>> = {};
	const lengths: Partial<Record<(typeof HISTORY_ROLES)[number], number>> = {};
	if (ctx.fields) {
		for (const role of HISTORY_ROLES) {
			const name = ctx.fields[role];
			const label = `${role} history`;
			const raw = value.get(name);
			if (raw === undefined) {
				if (!ctx.absentFields.has(name)) {
					bad(label, coded('history_missing', { name }));
				}
				continue;
			}
			if (Array.isArray(raw)) lengths[role] = raw.length;
			const history = readHistory(raw, name, (m, mi) => bad(label, m, mi));
			if (history) histories[role] = history;
		}
		if (
			lengths.complete !== undefined &&
			lengths.underspecified !== undefined &&
			lengths.complete !== lengths.underspecified
		) {
			bad(
				'histories',
				coded('histories_unequal', {
					complete: lengths.complete,
					underspecified: lengths.underspecified
				})
			);
		}
	}

	if (
		problems.length > 0 ||
		caseNumber === null ||
		cause === null ||
		plaintiffType === null ||
		focalPoints === null ||
		keyDetails === null ||
		claims === null ||
		!histories.complete ||
		!histories.underspecified
	) {
		return { kase: null, problems, warnings };
	}
	return {
		kase: {
			index,
			case_number: caseNumber,
			// readCaseNumber accepted it, so it is a non-empty string or a safe integer.
			case_number_value: value.get('case_number') as string | number,
			cause_of_action: cause,
			plaintiff_type: plaintiffType,
			focal_points: focalPoints,
			key_details: keyDetails,
			claims,
			complete: histories.complete,
			underspecified: histories.underspecified
		},
		problems,
		warnings
	};
}

/** A problem, said as a code (its English is the catalogue's, `../voice.ts`). */
type Said = CoreText;
type Report = (said: Said) => void;

const EMPTY = (): Said => coded('field_empty', {});
const MISSING = (): Said => coded('field_missing', {});
const notString = (v: JsonValue): Said => coded('field_not_string', { got: jsonTypeOf(v) });

/** @param raw the digits as written, for an integer beyond 2^53 (its Number is rounded) */
function readCaseNumber(v: JsonValue | undefined, bad: Report, raw?: string): string | null {
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

function readText(v: JsonValue | undefined, bad: Report): string | null {
	if (v === undefined) bad(MISSING());
	else if (typeof v !== 'string') bad(notString(v));
	else if (v.trim() === '') bad(EMPTY());
	else return v;
	return null;
}

function readFocalPoints(v: JsonValue | undefined, bad: Report): string[] | null {
	if (typeof v === 'string') {
		if (v.trim() !== '') return [v];
		bad(EMPTY());
		return null;
	}
	if (Array.isArray(v)) {
		if (v.length === 0) {
			bad(coded('focal_point_empty_list', {}));
			return null;
		}
		const ok = checkTextItems(v, bad);
		return ok ? (v as string[]) : null;
	}
	bad(v === undefined ? MISSING() : coded('focal_point_type', { got: jsonTypeOf(v) }));
	return null;
}

function checkTextItems(items: JsonValue[], bad: Report): boolean {
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

function readKeyDetails(v: JsonValue | undefined, bad: Report, warn: Report): KeyDetails | null {
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

function readClaims(v: JsonValue | undefined, bad: Report): Claim[] | null {
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

function readHistory(
	v: JsonValue,
	fieldName: string,
	bad: (said: Said, messageIndex?: number) => void
): History | null {
	if (!Array.isArray(v)) {
		bad(coded('history_not_list', { name: fieldName, got: jsonTypeOf(v) }));
		return null;
	}
	if (v.length === 0) {
		bad(coded('history_no_messages', {}));
		return null;
	}
	const history: History = [];
	let ok = true;
	let previous: 'user' | 'assistant' | null = null;
	let lastReported = -1;
	const fail = (said: Said, i: number) => {
		bad(said, i);
		ok = false;
		lastReported = i;
	};
	for (let i = 0; i < v.length; i++) {
		const m = v[i];
		// Expected role follows the previous message, so one stray message is one problem,
		// not a problem at every later position.
		const expected =
			i === 0 ? 'user' : previous ? flip(previous) : i % 2 === 0 ? 'user' : 'assistant';
		previous = null;
		if (!(m instanceof JsonObject)) {
			fail(coded('message_not_object', { got: jsonTypeOf(m) }), i);
			continue;
		}
		const role = m.get('role');
		const content = m.get('content');
		if (role === undefined) fail(coded('role_missing', {}), i);
		else if (role !== 'user' && role !== 'assistant') {
			const got = typeof role === 'string' ? `"${role}"` : jsonTypeOf(role);
			fail(coded('role_unknown', { got }), i);
		} else {
			previous = role;
			if (role !== expected) {
				const code = i === 0 ? 'role_order_first' : 'role_order';
				fail(coded(code, { expected, got: role }), i);
			}
		}
		if (content === undefined) fail(coded('content_missing', {}), i);
		else if (typeof content !== 'string') {
			fail(coded('content_not_string', { got: jsonTypeOf(content) }), i);
		} else if (content.trim() === '') fail(coded('content_empty', {}), i);
		else if (firstLoneSurrogate(content) >= 0) {
			fail(loneSurrogate(content, 'content'), i);
		}
		if (ok && (role === 'user' || role === 'assistant') && typeof content === 'string') {
			history.push({ role, content });
		}
	}
	const last = v.length - 1;
	if (previous === 'assistant' && lastReported !== last) {
		fail(coded('history_ends_with_assistant', {}), last);
	}
	return ok ? history.slice() : null;
}

/**
 * Says where the first lone surrogate of `text` is: `content holds a lone surrogate \ud800 at
 * offset 12 (after "…"): …`. Offsets count UTF-16 code units, as JavaScript and JSON do.
 */
function loneSurrogate(text: string, kind: SurrogatePlace, path = ''): Said {
	const at = firstLoneSurrogate(text);
	const before = text.slice(Math.max(0, at - 20), at);
	// The text before it, when there is any, is said by a part of its own.
	const after = before ? [coded('surrogate_after', { before })] : [];
	return surrogateSaid(kind, path, { char: escapeControl(text[at]), offset: at }, { after });
}

/** What holds a lone surrogate: a field name, a message's content, a key or a value at `path`. */
type SurrogatePlace = 'name' | 'content' | 'key' | 'value';

function surrogateSaid(
	kind: SurrogatePlace,
	path: string,
	place: { char: string; offset: number },
	parts: { after: CoreText[] }
): CoreText {
	if (kind === 'name') return coded('lone_surrogate_name', place, parts);
	if (kind === 'content') return coded('lone_surrogate_content', place, parts);
	if (kind === 'key') {
		return path
			? coded('lone_surrogate_key_at', { path, ...place }, parts)
			: coded('lone_surrogate_key', place, parts);
	}
	return path
		? coded('lone_surrogate_value_at', { path, ...place }, parts)
		: coded('lone_surrogate_value', place, parts);
}

/** A message for each string (object keys included) of `v` holding a lone surrogate. */
function loneSurrogates(v: JsonValue, path: string): Said[] {
	if (typeof v === 'string') {
		return firstLoneSurrogate(v) >= 0 ? [loneSurrogate(v, 'value', path)] : [];
	}
	if (Array.isArray(v)) return v.flatMap((item, i) => loneSurrogates(item, `${path}[${i}]`));
	if (v instanceof JsonObject) {
		return v.keys.flatMap((k, i) => [
			...(firstLoneSurrogate(k) >= 0 ? [loneSurrogate(k, 'key', path)] : []),
			...loneSurrogates(v.values[i], `${path}[${JSON.stringify(escapeControl(k))}]`)
		]);
	}
	return [];
}

function flip(role: 'user' | 'assistant'): 'user' | 'assistant' {
	return role === 'user' ? 'assistant' : 'user';
}
