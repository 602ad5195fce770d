/** One dataset problem or warning, with the place it is about. */
import { formatCount } from '../report/format';
import { escapeControl } from '../text/escape-control';
import { coded, type CoreText } from '../said';
import { english, ENGLISH, sayAt } from '../voice';

/**
 * A problem (the dataset cannot be run) or a warning (it can) found while loading a dataset.
 * Indexes are zero-based, in data and in `text` alike, as PROTOCOL.md §1's example has them
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
	/**
	 * The problem alone as a code and its parameters (`../said.ts`), for the browser to say in
	 * the reader's language; `message` is its English. Absent on a problem without a code.
	 */
	said?: CoreText;
}

/** Where a problem is; every part optional. */
export interface ProblemPlace {
	caseIndex?: number | null;
	caseNumber?: string | null;
	field?: string | null;
	messageIndex?: number | null;
}

/**
 * A problem at `place`. Given as a code (`said`), its English is the catalogue's
 * (`../voice.ts`); the English-only form (`message`, with an optional code beside it) is kept for
 * callers not yet converted.
 */
export function problem(place: ProblemPlace, said: CoreText): DatasetProblem;
export function problem(place: ProblemPlace, message: string, said?: CoreText): DatasetProblem;
export function problem(
	place: ProblemPlace,
	what: string | CoreText,
	coded?: CoreText
): DatasetProblem {
	const said = typeof what === 'string' ? coded : what;
	const message = typeof what === 'string' ? what : english(what);
	const caseIndex = place.caseIndex ?? null;
	const caseNumber = place.caseNumber ?? null;
	const field = place.field ?? null;
	const messageIndex = place.messageIndex ?? null;
	// Case numbers, field names and quoted values come from the file: a control or bidi
	// character in one must show as an escape, never act on a terminal or reorder the line.
	const shown = escapeControl(message);
	const text = escapeControl(
		sayAt({ caseIndex, caseNumber, field, messageIndex }, message, ENGLISH)
	);
	return {
		caseIndex,
		caseNumber,
		field,
		messageIndex,
		message: shown,
		text,
		...(said ? { said } : {})
	};
}

/**
 * Problems (and warnings) a load keeps in full. A hostile file can hold millions (1,000,000
 * `{}` give 6,000,003), which nobody reads and which would take gigabytes; past this many each
 * is only counted, by kind, and one last line says how many more there are of which kind.
 */
export const MAX_LISTED_PROBLEMS = 500;
/** Kinds counted apart in that last line; the others are summed (kinds can be field names). */
const MAX_KINDS = 20;
const OTHER = 'other';

/** What a problem is about, for counting the unlisted ones: its field, else case or file. */
function kindOf(p: DatasetProblem): string {
	return p.field ?? (p.caseIndex !== null ? 'case' : 'file');
}

const count = formatCount;

/** Collects problems, keeping the first {@link MAX_LISTED_PROBLEMS} and counting the rest. */
export class ProblemCollector {
	readonly #listed: DatasetProblem[] = [];
	readonly #more = new Map<string, number>();
	#total = 0;

	/** @param noun what one item is called in the summary line ("problem", "warning") */
	constructor(
		readonly noun: 'problem' | 'warning' = 'problem',
		readonly limit = MAX_LISTED_PROBLEMS
	) {}

	/** How many were added, listed or not. */
	get total(): number {
		return this.#total;
	}

	add(p: DatasetProblem): void {
		this.#total++;
		if (this.#listed.length < this.limit) {
			this.#listed.push(p);
			return;
		}
		let kind = kindOf(p);
		if (!this.#more.has(kind) && this.#more.size >= MAX_KINDS) kind = OTHER;
		this.#more.set(kind, (this.#more.get(kind) ?? 0) + 1);
	}

	addAll(ps: readonly DatasetProblem[]): void {
		for (const p of ps) this.add(p);
	}

	/** Unlisted ones by kind (field, `case`, `file`, `other`), most frequent first. */
	moreByKind(): Record<string, number> {
		return Object.fromEntries([...this.#more].sort((a, b) => b[1] - a[1]));
	}

	/**
	 * The listed ones, then, when some were not listed, one file-level line saying how many more
	 * there are, by kind: `… and 5,999,503 more problems, not listed (by field: 999,917
	 * case_number, …)`.
	 */
	list(): DatasetProblem[] {
		const rest = this.#total - this.#listed.length;
		if (rest === 0) return [...this.#listed];
		const kinds = Object.entries(this.moreByKind())
			.map(([kind, n]) => `${count(n)} ${kind}`)
			.join(', ');
		return [
			...this.#listed,
			problem(
				{},
				coded(this.noun === 'problem' ? 'more_problems' : 'more_warnings', {
					count: count(rest),
					kinds
				})
			)
		];
	}
}
