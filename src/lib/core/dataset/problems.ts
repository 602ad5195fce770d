/** One dataset problem or warning, with the place it is about. */

/**
 * A problem (the dataset cannot be run) or a warning (it can) found while loading a dataset.
 * Indexes are zero-based in data and shown 1-based in `text` ("case #1" is the first case,
 * "message 1" the first message of a history), as a person counts them.
 */
export interface DatasetProblem {
	/** Zero-based position of the case in the file; shown 1-based as "case #n". Null for file-level problems. */
	caseIndex: number | null;
	/** `case_number` as a string, when the case has a usable one. */
	caseNumber: string | null;
	/** What the problem is about, e.g. 'underspecified history', 'result_dict', 'focal_point'. */
	field: string | null;
	/** Zero-based message position in a history; shown 1-based as "message n". */
	messageIndex: number | null;
	/** The problem alone, without the place. */
	message: string;
	/**
	 * One full readable line, e.g.
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
			caseNumber === null
				? `case #${caseIndex + 1}`
				: `case #${caseIndex + 1} (case_number ${caseNumber})`
		);
	}
	if (field !== null) {
		parts.push(messageIndex === null ? field : `${field}, message ${messageIndex + 1}`);
	}
	const text = parts.length ? `${parts.join(' ')}: ${message}` : message;
	return { caseIndex, caseNumber, field, messageIndex, message, text };
}
