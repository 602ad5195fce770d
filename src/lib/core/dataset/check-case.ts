/** The PROTOCOL.md §1 rules for one case: every problem is collected, none stops the others. */
import { type Case, type History, type HistoryFields } from './types';
import { JsonObject, jsonTypeOf, type JsonValue } from './ordered-json';
import { problem, type DatasetProblem } from './problems';
import { firstLoneSurrogate } from '../text/lone-surrogate';
import { coded } from '../said';
import type { Said } from './case-said';
import { readCaseNumber, readFocalPoints, readText } from './case-fields';
import { readClaims } from './case-claims';
import { readKeyDetails } from './case-details';
import { readHistory } from './case-history';
import { EMPTY, notString } from './case-said';
import { loneSurrogate, loneSurrogates } from './lone-surrogates';

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
