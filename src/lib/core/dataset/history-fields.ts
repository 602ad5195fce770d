/**
 * Finding the two history fields of a dataset file (PROTOCOL.md §1). The real file's names are not
 * known, so names are matched loosely; when that leaves any doubt the user maps them.
 */
import type { HistoryFields } from './types';
import { JsonObject, type JsonValue } from './ordered-json';
import { coded, type CoreText } from '../said';

/** Canonical field names, used whenever a file has them. */
export const CANONICAL_HISTORY_FIELDS: HistoryFields = {
	complete: 'complete_consultation',
	underspecified: 'underspecified_consultation'
};

const COMPLETE_NAME = /complete|full|gold/i;
const NOT_COMPLETE_NAME = /incomplete/i;
const UNDERSPECIFIED_NAME = /underspecified|incomplete|partial|missing/i;

export function looksComplete(name: string): boolean {
	return COMPLETE_NAME.test(name) && !NOT_COMPLETE_NAME.test(name);
}

export function looksUnderspecified(name: string): boolean {
	return UNDERSPECIFIED_NAME.test(name);
}

/** A non-empty array of objects with a `role` or `content` key: how a history looks in a file. */
export function isMessageArray(value: JsonValue | undefined): boolean {
	return (
		Array.isArray(value) &&
		value.length > 0 &&
		value.every((m) => m instanceof JsonObject && (m.has('role') || m.has('content')))
	);
}

export type HistoryFieldDetection =
	| {
			ok: true;
			fields: HistoryFields;
			/** Fields that hold a message array in at least one case, in file order. */
			candidates: string[];
	  }
	| {
			ok: false;
			/** Fields that hold a message array in at least one case, in file order. */
			candidates: string[];
			/** The roles that could be decided. */
			detected: Partial<HistoryFields>;
			/** Why detection failed, for the problem text. */
			/** Why, as codes: one per role that could not be decided. */
			reasons: CoreText[];
	  };

/**
 * What history-field detection needs to know about the cases, gathered one case at a time, so
 * a loader that drops each case's parse tree can still decide (and decide again as it goes).
 */
export class HistoryFieldTally {
	/** The names whose presence matters: the canonical ones and those given. */
	readonly #watched: Set<string>;
	readonly #present = new Set<string>();
	readonly #candidates = new Set<string>();

	constructor(readonly explicit: Partial<HistoryFields> = {}) {
		this.#watched = new Set(
			[
				CANONICAL_HISTORY_FIELDS.complete,
				CANONICAL_HISTORY_FIELDS.underspecified,
				explicit.complete,
				explicit.underspecified
			].filter((name): name is string => !!name)
		);
	}

	/** Counts in one case; says whether that changed anything `decide` looks at. */
	add(c: JsonObject): boolean {
		let changed = false;
		c.keys.forEach((k, i) => {
			if (this.#watched.has(k) && !this.#present.has(k)) {
				this.#present.add(k);
				changed = true;
			}
			if (!this.#candidates.has(k) && isMessageArray(c.values[i])) {
				this.#candidates.add(k);
				changed = true;
			}
		});
		return changed;
	}

	/** Whether some case counted in has the field `name` (a watched name or a message-array field). */
	has(name: string): boolean {
		return this.#present.has(name) || this.#candidates.has(name);
	}

	/** The decision on the cases counted in so far. */
	decide(): HistoryFieldDetection {
		return decide([...this.#candidates], (name) => this.#present.has(name), this.explicit);
	}
}

function decide(
	candidateList: string[],
	present: (name: string) => boolean,
	explicit: Partial<HistoryFields>
): HistoryFieldDetection {
	const pick = (role: keyof HistoryFields, matches: (name: string) => boolean) => {
		const given = explicit[role];
		if (given) return { field: given, said: null };
		if (present(CANONICAL_HISTORY_FIELDS[role])) {
			return { field: CANONICAL_HISTORY_FIELDS[role], said: null };
		}
		const other = explicit[role === 'complete' ? 'underspecified' : 'complete'];
		const found = candidateList.filter((name) => name !== other && matches(name));
		if (found.length === 1) return { field: found[0], said: null };
		return {
			field: undefined,
			said:
				found.length === 0
					? coded('history_field_unmarked', { role })
					: coded('history_field_several', { role, names: found.join(', ') })
		};
	};

	const complete = pick('complete', looksComplete);
	const underspecified = pick('underspecified', looksUnderspecified);
	const detected: Partial<HistoryFields> = {};
	if (complete.field) detected.complete = complete.field;
	if (underspecified.field) detected.underspecified = underspecified.field;

	if (complete.field && underspecified.field) {
		if (complete.field !== underspecified.field) {
			return {
				ok: true,
				fields: { complete: complete.field, underspecified: underspecified.field },
				candidates: candidateList
			};
		}
		return {
			ok: false,
			candidates: candidateList,
			detected: {},
			reasons: [coded('history_field_both', { name: complete.field })]
		};
	}
	const reasons = [complete, underspecified].flatMap((p) => (p.said ? [p.said] : []));
	return { ok: false, candidates: candidateList, detected, reasons };
}
