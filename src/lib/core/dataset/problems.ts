/** One dataset problem or warning, with the place it is about. */
import { escapeControl } from '../text/escape-control';

/**
 * A problem (the dataset cannot be run) or a warning (it can) found while loading a dataset.
 * Indexes are zero-based, in data and in `text` alike, as SPEC §1's example has them
 * ("case #0" is the first case, "message 0" the first message of a history), so the text
 * matches the position a researcher finds with `data[17].underspecified_consultation[3]`.
 */
export interface DatasetProblem {
	/** Zero-based position of the case in the file, shown as "case #n". Null for file-level problems. */
	caseIndex: number | null;
	/** `case_number` as a string, when the case has a usable one. */
	caseNumber: string | null;
	/** What the problem is about, e.g. 'underspecified history', 'result_dict', 'focal_point'. */
	field: string | null;
	/** Zero-based message position in a history, shown as "message n". */
	messageIndex: number | null;
	/** The problem alone, without the place; control characters escaped like `text`. */
	message: string;
	/**
	 * One full readable line, control, bidi and invalid characters escaped (`\u001b`), e.g.
	 * `case #17 (case_number 2023-041) underspecified history, message 3: expected role "assistant", got "user"`.
	 */
	text: string;
}

/** Where a problem is; every part optional. */
export interface ProblemPlace {
	caseIndex?: number | null;
	caseNumber?: string | null;
	field?: string | null;
	messageIndex?: number | null;
}

export function problem(place: ProblemPlace, message: string): DatasetProblem {
	const caseIndex = place.caseIndex ?? null;
	const caseNumber = place.caseNumber ?? null;
	const field = place.field ?? null;
	const messageIndex = place.messageIndex ?? null;
	const parts: string[] = [];
	if (caseIndex !== null) {
		parts.push(
			caseNumber === null ? `case #${caseIndex}` : `case #${caseIndex} (case_number ${caseNumber})`
		);
	}
	if (field !== null) {
		parts.push(messageIndex === null ? field : `${field}, message ${messageIndex}`);
	}
	// Case numbers, field names and quoted values come from the file: a control or bidi
	// character in one must show as an escape, never act on a terminal or reorder the line.
	const shown = escapeControl(message);
	const text = escapeControl(parts.length ? `${parts.join(' ')}: ${message}` : message);
	return { caseIndex, caseNumber, field, messageIndex, message: shown, text };
}
