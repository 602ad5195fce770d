/**
 * What makes a saved record unique within its stage file. The a1 and LCA files hold two
 * records per case (one per history_type); every other file holds one record per case.
 */
import { CheckpointError } from '../errors';
import { coded, type CoreText } from '../said';
import { english } from '../voice';
import { caseKey, STAGE_FILE_NAMES, STAGE_PATHS, type StageFile } from '../record-names';
import type { CaseNumber } from '../records';

/** Stage files whose records are keyed by case_number and history_type: two records a case. */
export const PAIRED_FILES: ReadonlySet<StageFile> = new Set(
	STAGE_FILE_NAMES.filter((f) => STAGE_PATHS[f].perCase === 2)
);

/** The fields that name a record: enough of any record, or of a case about to be run. */
export interface RecordName {
	case_number: CaseNumber;
	history_type?: unknown;
}

/**
 * The identity of a record within `file`: an opaque string, equal for two records exactly when
 * they stand for the same case (and history, in the paired files). Build the `expected` map of
 * `loadCheckpoint` with it.
 */
export function recordIdentity(file: StageFile, record: RecordName): string {
	// A JSON tuple cannot collide, whatever characters a case_number holds; the string form makes
	// `1001` and `"1001"` one case (PROTOCOL.md §5), so runs saved either way resume alike.
	const key = caseKey(record.case_number);
	return PAIRED_FILES.has(file)
		? JSON.stringify([key, String(record.history_type ?? '')])
		: JSON.stringify([key]);
}

/**
 * A record identity as a coded part: its case and, where it has one, its history. The
 * case_number comes from a file: `coded` escapes it, so it cannot break the message's line.
 */
export function identitySaid(identity: string): CoreText {
	const [caseNumber, historyType] = JSON.parse(identity) as [string, string?];
	return historyType === undefined
		? coded('identity_case', { caseNumber })
		: coded('identity_case_history', { caseNumber, role: historyType });
}

/** A record identity as a person reads it: `case_number 2023-041 (underspecified history)`. */
export function describeIdentity(identity: string): string {
	return english(identitySaid(identity));
}

/** `code` about the record `identity` of `file`, the identity said as its part. */
export function aboutRecord(
	code: 'record_saved_twice' | 'record_not_selected' | 'record_saved_already',
	file: string,
	identity: string
): CheckpointError {
	return new CheckpointError([coded(code, { file }, { identity: [identitySaid(identity)] })]);
}

/**
 * Sorts stored items into `order` (identities in dataset order), keeping each item untouched.
 * Refuses, rather than drop or keep twice, an item whose identity is repeated or not in `order`.
 */
export function orderByIdentity<T>(
	items: readonly T[],
	identityOf: (item: T) => string,
	order: readonly string[],
	fileLabel: string
): T[] {
	const position = new Map(order.map((identity, i) => [identity, i]));
	const seen = new Set<string>();
	const keyed = items.map((item) => {
		const identity = identityOf(item);
		if (seen.has(identity)) {
			throw aboutRecord('record_saved_twice', fileLabel, identity);
		}
		seen.add(identity);
		const at = position.get(identity);
		if (at === undefined) {
			throw aboutRecord('record_not_selected', fileLabel, identity);
		}
		return { item, at };
	});
	return keyed.sort((a, b) => a.at - b.at).map(({ item }) => item);
}
