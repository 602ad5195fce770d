/** The SPEC §1 rules for one case: every problem is collected, none stops the others. */
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
			problem(
				{ caseIndex: index },
				`expected an object (one case), got ${jsonTypeOf(value)}`,
				coded('case_not_object', { got: jsonTypeOf(value) })
			)
		);
		return { kase: null, problems, warnings };
	}

	let caseNumber: string | null = null;
	const report = (into: DatasetProblem[], field: string, said: Said, messageIndex?: number) =>
		into.push(problem({ caseIndex: index, caseNumber, field, messageIndex }, said[0], said[1]));
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
			bad('case_number', [
				`duplicate: case #${first} has the same case_number; case numbers must be unique`,
				coded('case_number_duplicate', { first })
			]);
		}
	}
	for (const key of value.duplicateKeys()) {
		bad(key, [
			'this field appears more than once in the case; keep one',
			coded('field_repeated', {})
		]);
	}
	// Histories are checked message by message below; every other string of the case here.
	const historyNames = new Set(ctx.fields ? [ctx.fields.complete, ctx.fields.underspecified] : []);
	value.keys.forEach((key, i) => {
		if (firstLoneSurrogate(key) >= 0) bad(key, loneSurrogate(key, 'the field name', 'name'));
		if (!historyNames.has(key)) {
			for (const found of loneSurrogates(value.values[i], '')) bad(key, found);
		}
	});

	const cause = readText(value.get('cause_of_action'), (m) => bad('cause_of_action', m));

	const plaintiff = value.get('plaintiff_type');
	let plaintiffType: string | null = null;
	if (plaintiff === undefined) {
		bad('plaintiff_type', [
			'missing; give it as a string, e.g. "自然人"',
			coded('plaintiff_type_missing', {})
		]);
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
					bad(label, [`missing (field "${name}")`, coded('history_missing', { name })]);
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
			bad('histories', [
				`the complete history has ${lengths.complete} message${lengths.complete === 1 ? '' : 's'} and the underspecified history ` +
					`${lengths.underspecified}; both histories of a case must have the same number of messages`,
				coded('histories_unequal', {
					complete: lengths.complete,
					underspecified: lengths.underspecified
				})
			]);
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

/** A problem's English sentence and its code. */
type Said = [message: string, said: CoreText];
type Report = (said: Said) => void;

const EMPTY = (): Said => ['is empty', coded('field_empty', {})];
const MISSING = (): Said => ['missing', coded('field_missing', {})];
const notString = (v: JsonValue): Said => [
	`must be a string, got ${jsonTypeOf(v)}`,
	coded('field_not_string', { got: jsonTypeOf(v) })
];

/** @param raw the digits as written, for an integer beyond 2^53 (its Number is rounded) */
function readCaseNumber(v: JsonValue | undefined, bad: Report, raw?: string): string | null {
	if (v === undefined) {
		bad([
			'missing; every case needs a case_number (string or integer), unique in the file',
			coded('case_number_missing', {})
		]);
		return null;
	}
	if (typeof v === 'string') {
		if (v.trim() !== '') return v;
		bad(EMPTY());
		return null;
	}
	if (typeof v === 'number' && Number.isInteger(v)) {
		if (Number.isSafeInteger(v)) return String(v);
		bad([
			`${raw ?? v} is too large to keep exactly; write it as a string in quotes`,
			coded('case_number_too_large', { value: raw ?? String(v) })
		]);
		return null;
	}
	const got = `${jsonTypeOf(v)}${typeof v === 'number' ? ` ${v}` : ''}`;
	bad([`must be a string or an integer, got ${got}`, coded('case_number_type', { got })]);
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
			bad(['is an empty list; give at least one focal point', coded('focal_point_empty_list', {})]);
			return null;
		}
		const ok = checkTextItems(v, bad);
		return ok ? (v as string[]) : null;
	}
	bad(
		v === undefined
			? MISSING()
			: [
					`must be a string or a list of strings, got ${jsonTypeOf(v)}`,
					coded('focal_point_type', { got: jsonTypeOf(v) })
				]
	);
	return null;
}

function checkTextItems(items: JsonValue[], bad: Report): boolean {
	let ok = true;
	items.forEach((item, i) => {
		if (typeof item !== 'string') {
			bad([
				`item ${i + 1} must be a string, got ${jsonTypeOf(item)}`,
				coded('item_not_string', { item: i + 1, got: jsonTypeOf(item) })
			]);
		} else if (item.trim() === '') {
			bad([`item ${i + 1} is empty`, coded('item_empty', { item: i + 1 })]);
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
			bad([
				'is an empty list; the hidden facts cannot be empty',
				coded('key_details_empty_list', {})
			]);
			return null;
		}
		return checkTextItems(v, bad) ? (v as string[]) : null;
	}
	if (v instanceof JsonObject) {
		if (v.keys.length === 0) {
			bad([
				'is an empty object; the hidden facts cannot be empty',
				coded('key_details_empty_object', {})
			]);
			return null;
		}
		let ok = true;
		for (const key of v.duplicateKeys()) {
			bad([
				`entry "${key}" appears more than once; one of them would be lost`,
				coded('key_details_entry_repeated', { key })
			]);
			ok = false;
		}
		v.keys.forEach((key, i) => {
			const x = v.values[i];
			if (x === null || (typeof x === 'string' && x.trim() === '')) {
				bad([`entry "${key}" is empty`, coded('key_details_entry_empty', { key })]);
				ok = false;
			}
		});
		if (!ok) return null;
		const plain = toPlain(v) as Record<string, unknown>;
		if (Object.keys(plain).some((k, i) => k !== v.keys[i])) {
			// JS objects list integer-like keys first; say so rather than reorder silently.
			warn([
				'entries with number-like keys will be listed in numeric order, not file order; ' +
					'write key_details as a list to keep the order',
				coded('key_details_number_keys', {})
			]);
		}
		return plain;
	}
	bad(
		v === undefined
			? MISSING()
			: [
					`must be a string, a list of strings or an object, got ${jsonTypeOf(v)}`,
					coded('key_details_type', { got: jsonTypeOf(v) })
				]
	);
	return null;
}

function readClaims(v: JsonValue | undefined, bad: Report): Claim[] | null {
	if (!(v instanceof JsonObject)) {
		bad(
			v === undefined
				? MISSING()
				: [
						`must be an object of claim → verdict, got ${jsonTypeOf(v)}`,
						coded('result_dict_type', { got: jsonTypeOf(v) })
					]
		);
		return null;
	}
	if (v.keys.length === 0) {
		bad(['is empty; a case needs at least one claim', coded('result_dict_empty', {})]);
		return null;
	}
	let ok = true;
	for (const key of v.duplicateKeys()) {
		bad([
			`claim ${quoteClaim(key)} appears more than once; each claim once`,
			coded('claim_repeated', { claim: quoteClaim(key) })
		]);
		ok = false;
	}
	const claims: Claim[] = [];
	v.keys.forEach((claim, i) => {
		const verdict = v.values[i];
		const where = `claim ${i + 1}`;
		if (claim.trim() === '') {
			bad([`${where}: the claim text is empty`, coded('claim_text_empty', { item: i + 1 })]);
			ok = false;
		} else if (typeof verdict !== 'string' || !(VERDICTS as readonly string[]).includes(verdict)) {
			const got = typeof verdict === 'string' ? `"${verdict}"` : jsonTypeOf(verdict);
			bad([
				`${where} (${quoteClaim(claim)}): verdict ${got} is not one of ${VERDICTS.join(', ')}`,
				coded('claim_verdict', {
					item: i + 1,
					claim: quoteClaim(claim),
					got,
					verdicts: VERDICTS.join(', ')
				})
			]);
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
		bad([
			`expected a list of {"role", "content"} messages in "${fieldName}", got ${jsonTypeOf(v)}`,
			coded('history_not_list', { name: fieldName, got: jsonTypeOf(v) })
		]);
		return null;
	}
	if (v.length === 0) {
		bad([
			'has no messages; a history starts and ends with a user message',
			coded('history_no_messages', {})
		]);
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
			fail(
				[
					`expected an object {"role", "content"}, got ${jsonTypeOf(m)}`,
					coded('message_not_object', { got: jsonTypeOf(m) })
				],
				i
			);
			continue;
		}
		const role = m.get('role');
		const content = m.get('content');
		if (role === undefined) fail(['role is missing', coded('role_missing', {})], i);
		else if (role !== 'user' && role !== 'assistant') {
			const got = typeof role === 'string' ? `"${role}"` : jsonTypeOf(role);
			fail([`role must be "user" or "assistant", got ${got}`, coded('role_unknown', { got })], i);
		} else {
			previous = role;
			if (role !== expected) {
				const hint = i === 0 ? ' (a history starts with the client)' : '';
				const code = i === 0 ? 'role_order_first' : 'role_order';
				fail(
					[
						`expected role "${expected}", got "${role}"${hint}`,
						coded(code, { expected, got: role })
					],
					i
				);
			}
		}
		if (content === undefined) fail(['content is missing', coded('content_missing', {})], i);
		else if (typeof content !== 'string') {
			fail(
				[
					`content must be a string, got ${jsonTypeOf(content)}`,
					coded('content_not_string', { got: jsonTypeOf(content) })
				],
				i
			);
		} else if (content.trim() === '') fail(['content is empty', coded('content_empty', {})], i);
		else if (firstLoneSurrogate(content) >= 0) {
			fail(loneSurrogate(content, 'content', 'content'), i);
		}
		if (ok && (role === 'user' || role === 'assistant') && typeof content === 'string') {
			history.push({ role, content });
		}
	}
	const last = v.length - 1;
	if (previous === 'assistant' && lastReported !== last) {
		fail(
			[
				'the history ends with an assistant message; it must end with a user message',
				coded('history_ends_with_assistant', {})
			],
			last
		);
	}
	return ok ? history.slice() : null;
}

/**
 * Says where the first lone surrogate of `text` is: `content holds a lone surrogate \ud800 at
 * offset 12 (after "…"): …`. Offsets count UTF-16 code units, as JavaScript and JSON do.
 */
function loneSurrogate(text: string, what: string, kind: SurrogatePlace, path = ''): Said {
	const at = firstLoneSurrogate(text);
	const before = text.slice(Math.max(0, at - 20), at);
	const place = { char: escapeControl(text[at]), offset: at, before };
	return [
		`${what} holds a lone surrogate ${escapeControl(text[at])} at offset ${at}` +
			`${before ? ` (after "${before}")` : ''}: an unpaired \\u escape, not a character, which ` +
			'cannot be sent to a provider; fix or remove that escape',
		surrogateSaid(kind, path, place)
	];
}

/** What holds a lone surrogate: a field name, a message's content, a key or a value at `path`. */
type SurrogatePlace = 'name' | 'content' | 'key' | 'value';

function surrogateSaid(
	kind: SurrogatePlace,
	path: string,
	place: { char: string; offset: number; before: string }
): CoreText {
	if (kind === 'name') return coded('lone_surrogate_name', place);
	if (kind === 'content') return coded('lone_surrogate_content', place);
	if (kind === 'key') {
		return path
			? coded('lone_surrogate_key_at', { path, ...place })
			: coded('lone_surrogate_key', place);
	}
	return path
		? coded('lone_surrogate_value_at', { path, ...place })
		: coded('lone_surrogate_value', place);
}

/** A message for each string (object keys included) of `v` holding a lone surrogate. */
function loneSurrogates(v: JsonValue, path: string): Said[] {
	if (typeof v === 'string') {
		return firstLoneSurrogate(v) >= 0 ? [loneSurrogate(v, path || 'the value', 'value', path)] : [];
	}
	if (Array.isArray(v)) return v.flatMap((item, i) => loneSurrogates(item, `${path}[${i}]`));
	if (v instanceof JsonObject) {
		return v.keys.flatMap((k, i) => [
			...(firstLoneSurrogate(k) >= 0
				? [loneSurrogate(k, `${path ? `${path} ` : ''}key`, 'key', path)]
				: []),
			...loneSurrogates(v.values[i], `${path}[${JSON.stringify(escapeControl(k))}]`)
		]);
	}
	return [];
}

function flip(role: 'user' | 'assistant'): 'user' | 'assistant' {
	return role === 'user' ? 'assistant' : 'user';
}
