/**
 * Loading a dataset file (PROTOCOL.md §1): bytes in, either a validated dataset or every problem
 * found. Used by the browser app and the CLI alike.
 */
import { sha256Hex } from '../hash';
import { DEFAULT_CATEGORIES } from './categories';
import { decodeUtf8, TextDecodeError } from '../text';
import { HistoryFieldTally } from './history-fields';
import {
	JsonObject,
	JsonSyntaxError,
	jsonTypeOf,
	parseOrderedJson,
	type JsonValue
} from './ordered-json';
import { problem, type DatasetProblem } from './problems';
import { summarise } from './summary';
import { coded } from '../said';
import { type LoadOptions, type LoadResult, PROGRESS_STEPS, type Mapping } from './load-types';
import { readInStretches } from './read-in-stretches';
import { checkCases } from './check-cases';
import { syntaxError, unclassifiedWarnings } from './load-problems';

export type { DatasetProblem } from './problems';
export type { DatasetSummary } from './summary';
// The dataset helpers, so one import serves the app and the CLI.
export { focalPointsText, keyDetailsText, renderHistory } from './render';
export { classOf, DEFAULT_CATEGORIES, DEFAULT_CLASSES, parseCategoryMap } from './categories';
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

export type { Dataset, LoadOptions, LoadProgress, LoadResult } from './load-types';
