/**
 * Loading a dataset file (PROTOCOL.md §1): bytes in, either a validated dataset or every problem
 * found. Used by the browser app and the CLI alike.
 */
import { sha256Hex } from '../hash';
import { classOf, DEFAULT_CATEGORIES } from './categories';
import { checkCase, type CaseContext } from './check-case';
import { decodeUtf8, TextDecodeError } from '../text';
import { wideEncoding } from '../wide-encoding';
import { HistoryFieldTally, type HistoryFieldDetection } from './history-fields';
import { NotWellFormed, readItems, scanItems } from './json-items';
import {
	JsonObject,
	JsonSyntaxError,
	jsonTypeOf,
	parseOrderedJson,
	type JsonValue
} from './ordered-json';
import { MAX_LISTED_PROBLEMS, problem, ProblemCollector, type DatasetProblem } from './problems';
import { summarise, type DatasetSummary } from './summary';
import { UNCLASSIFIED, type Case, type CategoryMap, type HistoryFields } from './types';
import { coded, type CoreText } from '../said';

export type { DatasetProblem } from './problems';
export type { DatasetSummary } from './summary';
// The dataset helpers, so one import serves the app and the CLI.
export { focalPointsText, keyDetailsText, renderHistory } from './render';
export { classOf, DEFAULT_CATEGORIES, DEFAULT_CLASSES, parseCategoryMap } from './categories';

/** A dataset that passed every PROTOCOL.md §1 rule. */
export interface Dataset {
	/** The cases in file order. */
	cases: Case[];
	/** SHA-256 of the file's bytes exactly as given (BOM included): `dataset_sha256`. */
	sha256: string;
	/** The fields the histories were read from; recorded in the manifest. */
	historyFields: HistoryFields;
	/**
	 * The category map used (the whole map as given, or `DEFAULT_CATEGORIES`); causes it lacks
	 * are in class `未分类`. Recorded in the manifest.
	 */
	categories: CategoryMap;
	summary: DatasetSummary;
	/** The file's name, when the caller gave one. */
	fileName?: string;
}

/**
 * How far loading has got: `reading` counts bytes of the file parsed, `checking` counts
 * cases checked against PROTOCOL.md §1.
 */
export interface LoadProgress {
	phase: 'reading' | 'checking';
	done: number;
	total: number;
}

/** About a hundred progress reports per phase are plenty for a progress bar. */
const PROGRESS_STEPS = 100;

export interface LoadOptions {
	/**
	 * Which fields hold the histories. A field given here wins over detection; the other one
	 * is still detected.
	 * @default detected: `complete_consultation` / `underspecified_consultation`, else by name
	 */
	historyFields?: Partial<HistoryFields>;
	/**
	 * cause of action → class.
	 * @default DEFAULT_CATEGORIES
	 */
	categories?: CategoryMap;
	/** Named in syntax and encoding errors, and kept on the dataset. */
	fileName?: string;
	/** Called now and then while a large file loads (at most ~100 times a phase). */
	onProgress?: (progress: LoadProgress) => void;
}

export type LoadResult =
	| {
			ok: true;
			dataset: Dataset;
			/** The warnings, in file order, at most `MAX_LISTED_PROBLEMS` and a line for the rest. */
			warnings: DatasetProblem[];
			/** How many warnings there are in all. */
			warningCount: number;
			/** The warnings not listed, by kind (field, `case`, `file`), most frequent first. */
			moreWarnings: Record<string, number>;
	  }
	| {
			ok: false;
			/**
			 * The problems in file order: the first `MAX_LISTED_PROBLEMS`, then (when there are more)
			 * one line saying how many more of each kind; the rest are counted, never kept.
			 */
			problems: DatasetProblem[];
			/** How many problems there are in all (listed or not). */
			problemCount: number;
			/** The problems not listed, by kind (field, `case`, `file`), most frequent first. */
			moreProblems: Record<string, number>;
			/** SHA-256 of the bytes, or null when the file could not be hashed. */
			sha256: string | null;
			/** set when the two history fields could not be detected unambiguously: the fields whose values are message arrays */
			mapping?: { candidates: string[]; detected: Partial<HistoryFields> };
	  };

/**
 * Validates a dataset file and returns the dataset, or every problem at once.
 *
 * A well-formed file is read a stretch of items at a time (`json-items.ts`): its bytes are
 * scanned for the items' extents (the `reading` phase), then each stretch is decoded, parsed,
 * and its cases checked and built (`checking`), so the bytes and the cases are what stays alive,
 * not a decoded text and a parse tree of the whole file. A file that is not (bad encoding, bad
 * JSON, no top-level array) is read whole, as `parseOrderedJson` reads it, which names the
 * problem and its place; such a file's progress may go through `reading` twice.
 */
export function loadDataset(bytes: Uint8Array, options: LoadOptions = {}): Promise<LoadResult> {
	return load(bytes, options, true);
}

/**
 * `loadDataset` reading every file whole, as it did before it read in stretches: the reference
 * the tests compare it with, and the bench's baseline. Gives the same result, with more memory.
 */
export function loadDatasetWhole(
	bytes: Uint8Array,
	options: LoadOptions = {}
): Promise<LoadResult> {
	return load(bytes, options, false);
}

async function load(
	bytes: Uint8Array,
	options: LoadOptions,
	inStretches: boolean
): Promise<LoadResult> {
	// Started first: WebCrypto hashes off the main thread while the text is parsed.
	const hashing = sha256Hex(bytes);
	const fail = async (checked: {
		problems: DatasetProblem[];
		problemCount: number;
		moreProblems: Record<string, number>;
		mapping?: Mapping;
	}): Promise<LoadResult> => ({
		ok: false,
		problems: checked.problems,
		problemCount: checked.problemCount,
		moreProblems: checked.moreProblems,
		sha256: await hashing,
		...(checked.mapping ? { mapping: checked.mapping } : {})
	});
	const fileProblem = (p: DatasetProblem) =>
		fail({ problems: [p], problemCount: 1, moreProblems: {} });
	const onProgress = options.onProgress;

	let checked = inStretches ? readInStretches(bytes, options) : null;
	if (!checked) {
		let root: JsonValue;
		try {
			const text = decodeUtf8(bytes);
			let nextReport = 0;
			const step = Math.max(1, Math.ceil(text.length / PROGRESS_STEPS));
			// Offsets count UTF-16 units of the text; scaled to bytes, they read as "MB of the file".
			const scale = bytes.length / Math.max(1, text.length);
			root = parseOrderedJson(text, {
				onTopLevelItem: onProgress
					? (end) => {
							if (end < nextReport) return;
							nextReport = end + step;
							onProgress({ phase: 'reading', done: Math.round(end * scale), total: bytes.length });
						}
					: undefined
			});
		} catch (e) {
			if (e instanceof JsonSyntaxError || e instanceof TextDecodeError) {
				const said = e instanceof JsonSyntaxError ? syntaxError(e) : e.said;
				return fileProblem(
					problem(
						{},
						options.fileName
							? coded('in_file', { file: options.fileName }, { problem: [said] })
							: said
					)
				);
			}
			throw e;
		}
		if (!Array.isArray(root)) {
			return fileProblem(
				problem(
					{},
					root instanceof JsonObject
						? coded('top_level_object', {})
						: coded('top_level_not_array', { got: jsonTypeOf(root) })
				)
			);
		}
		if (root.length === 0) {
			return fileProblem(problem({}, coded('no_cases', {})));
		}
		const items = root;
		const tally = new HistoryFieldTally(options.historyFields);
		for (const c of items) if (c instanceof JsonObject) tally.add(c);
		checked = checkCases(
			{ count: items.length, each: (visit) => items.forEach(visit) },
			tally,
			onProgress
		);
	}

	const { fields, cases, warnings } = checked;
	if (checked.problemCount > 0 || !fields) return fail(checked);

	const categories = options.categories ?? DEFAULT_CATEGORIES;
	warnings.addAll(unclassifiedWarnings(cases, categories));
	return {
		ok: true,
		dataset: {
			cases,
			sha256: await hashing,
			historyFields: fields,
			categories,
			summary: summarise(cases, categories),
			...(options.fileName ? { fileName: options.fileName } : {})
		},
		warnings: warnings.list(),
		warningCount: warnings.total,
		moreWarnings: warnings.moreByKind()
	};
}

type Mapping = { candidates: string[]; detected: Partial<HistoryFields> };

/** The top-level array's items, visited in file order (as often as needed). */
interface Items {
	count: number;
	each(visit: (value: JsonValue, index: number) => void): void;
}

/** Every case checked: the problems (listed, counted), the warnings so far, the cases built. */
interface Checked {
	problems: DatasetProblem[];
	problemCount: number;
	moreProblems: Record<string, number>;
	mapping?: Mapping;
	warnings: ProblemCollector;
	cases: Case[];
	/** The history fields, or null when they could not be decided. */
	fields: HistoryFields | null;
}

/**
 * A well-formed file read a stretch of items at a time (see `loadDataset`), or null when it is
 * not one and must be read whole.
 */
function readInStretches(bytes: Uint8Array, options: LoadOptions): Checked | null {
	if (wideEncoding(bytes)) return null;
	const onProgress = options.onProgress;
	let nextReport = 0;
	const step = Math.max(1, Math.ceil(bytes.length / PROGRESS_STEPS));
	const scan = scanItems(
		bytes,
		onProgress
			? (end) => {
					if (end < nextReport) return;
					nextReport = end + step;
					onProgress({ phase: 'reading', done: end, total: bytes.length });
				}
			: undefined
	);
	if (!scan) return null;
	const items: Items = {
		count: scan.count,
		each: (visit) => readItems(bytes, scan, visit)
	};
	try {
		return checkAsRead(items, options.historyFields, onProgress);
	} catch (e) {
		if (e instanceof NotWellFormed) return null;
		throw e;
	}
}

/**
 * Checks the cases as they are read, deciding the history fields on the cases read so far
 * (for a usual file, the first case settles them). When the decision on the whole file differs
 * from one a case was checked with, or a mapped field is in no case (whose per-case problems
 * give way to one for the file), the cases are read and checked again with the whole file's
 * decision, so the result is always what deciding first would give.
 */
function checkAsRead(
	items: Items,
	explicit: Partial<HistoryFields> | undefined,
	onProgress: LoadOptions['onProgress']
): Checked {
	const tally = new HistoryFieldTally(explicit);
	const ctx: CaseContext = {
		fields: null,
		absentFields: new Set(),
		seenCaseNumbers: new Map()
	};
	let steady = true;
	let problems = null as ProblemCollector | null;
	const warnings = new ProblemCollector('warning');
	const cases: Case[] = [];
	const checkStep = Math.max(1, Math.ceil(items.count / PROGRESS_STEPS));
	items.each((value, index) => {
		if (onProgress && index % checkStep === 0) {
			onProgress({ phase: 'checking', done: index, total: items.count });
		}
		if (value instanceof JsonObject && tally.add(value)) {
			const decided = tally.decide();
			const fields = decided.ok ? decided.fields : null;
			if (index > 0 && !sameFields(fields, ctx.fields)) steady = false;
			ctx.fields = fields;
		}
		// Undecided fields make one problem for the file, listed first: its place is kept free.
		problems ??= new ProblemCollector(
			'problem',
			ctx.fields ? MAX_LISTED_PROBLEMS : MAX_LISTED_PROBLEMS - 1
		);
		const check = checkCase(value, index, ctx);
		problems.addAll(check.problems);
		warnings.addAll(check.warnings);
		if (check.kase) cases.push(check.kase);
	});

	const detection = tally.decide();
	if (steady && problems) {
		if (detection.ok && sameFields(detection.fields, ctx.fields)) {
			const { complete, underspecified } = detection.fields;
			if (tally.has(complete) && tally.has(underspecified)) {
				return {
					problems: problems.list(),
					problemCount: problems.total,
					moreProblems: problems.moreByKind(),
					warnings,
					cases,
					fields: detection.fields
				};
			}
		} else if (!detection.ok && ctx.fields === null) {
			return {
				problems: [undecidedProblem(detection), ...problems.list()],
				problemCount: problems.total + 1,
				moreProblems: problems.moreByKind(),
				mapping: { candidates: detection.candidates, detected: detection.detected },
				warnings,
				cases,
				fields: null
			};
		}
	}
	cases.length = 0;
	return checkCases(items, tally);
}

function sameFields(a: HistoryFields | null, b: HistoryFields | null): boolean {
	return (
		a === b || (!!a && !!b && a.complete === b.complete && a.underspecified === b.underspecified)
	);
}

/** Checks every case with the history fields decided on the whole file (`tally` holds every case). */
function checkCases(
	items: Items,
	tally: HistoryFieldTally,
	onProgress?: LoadOptions['onProgress']
): Checked {
	// Bounded: past MAX_LISTED_PROBLEMS each problem is only counted.
	const problems = new ProblemCollector('problem');
	const warnings = new ProblemCollector('warning');
	const detection = tally.decide();
	let fields: HistoryFields | null = null;
	let mapping: Mapping | undefined;
	const absentFields = new Set<string>();
	if (detection.ok) {
		fields = detection.fields;
		for (const role of ['complete', 'underspecified'] as const) {
			const name = fields[role];
			if (!tally.has(name)) {
				absentFields.add(name);
				problems.add(
					problem(
						{ field: `${role} history` },
						listOrNone('history_field_absent', { name }, detection.candidates)
					)
				);
			}
		}
	} else {
		mapping = { candidates: detection.candidates, detected: detection.detected };
		problems.add(undecidedProblem(detection));
	}

	const ctx: CaseContext = { fields, absentFields, seenCaseNumbers: new Map<string, number>() };
	const cases: Case[] = [];
	const checkStep = Math.max(1, Math.ceil(items.count / PROGRESS_STEPS));
	items.each((value, index) => {
		if (onProgress && index % checkStep === 0) {
			onProgress({ phase: 'checking', done: index, total: items.count });
		}
		const check = checkCase(value, index, ctx);
		problems.addAll(check.problems);
		warnings.addAll(check.warnings);
		if (check.kase) cases.push(check.kase);
	});
	return {
		problems: problems.list(),
		problemCount: problems.total,
		moreProblems: problems.moreByKind(),
		...(mapping ? { mapping } : {}),
		warnings,
		cases,
		fields
	};
}

function undecidedProblem(
	detection: Extract<HistoryFieldDetection, { ok: false }>
): DatasetProblem {
	const { candidates, reasons } = detection;
	return problem(
		{ field: 'history fields' },
		candidates.length
			? coded(
					'history_fields_undecided',
					{ candidates: candidates.join(', ') },
					{ reason: reasons }
				)
			: coded('history_fields_undecided', {}, { reason: reasons, candidates: [NONE()] })
	);
}

/** One warning per unknown cause (not per case), naming its first case and how many it has. */
function unclassifiedWarnings(cases: readonly Case[], categories: CategoryMap): DatasetProblem[] {
	const unknown = new Map<string, { first: Case; count: number }>();
	for (const c of cases) {
		if (classOf(c.cause_of_action, categories) !== UNCLASSIFIED) continue;
		const seen = unknown.get(c.cause_of_action);
		if (seen) seen.count++;
		else unknown.set(c.cause_of_action, { first: c, count: 1 });
	}
	return [...unknown].map(([cause, { first, count }]) =>
		problem(
			{ caseIndex: first.index, caseNumber: first.case_number, field: 'cause_of_action' },
			coded('cause_unclassified', { cause, count, unclassified: UNCLASSIFIED })
		)
	);
}

/** A file that is not JSON, as a code; `detail` stays the parser's English. */
function syntaxError(e: JsonSyntaxError): CoreText {
	return coded('json_syntax', { line: e.line, column: e.column, detail: e.detail });
}

const NONE = () => coded('names_none', {});

/** `code` with its `candidates` listed, or said to be none. */
function listOrNone(
	code: 'history_field_absent',
	params: { name: string },
	names: string[]
): CoreText {
	return names.length
		? coded(code, { ...params, candidates: names.join(', ') })
		: coded(code, params, { candidates: [NONE()] });
}
