/** What loading a dataset file takes and gives (`./load.ts`). */
import type { ProblemCollector, DatasetProblem } from './problems';
import type { JsonValue } from './ordered-json';
import { type DatasetSummary } from './summary';
import { type Case, type CategoryMap, type HistoryFields } from './types';

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
export const PROGRESS_STEPS = 100;

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

export type Mapping = { candidates: string[]; detected: Partial<HistoryFields> };

/** The top-level array's items, visited in file order (as often as needed). */
export interface Items {
	count: number;
	each(visit: (value: JsonValue, index: number) => void): void;
}

/** Every case checked: the problems (listed, counted), the warnings so far, the cases built. */
export interface Checked {
	problems: DatasetProblem[];
	problemCount: number;
	moreProblems: Record<string, number>;
	mapping?: Mapping;
	warnings: ProblemCollector;
	cases: Case[];
	/** The history fields, or null when they could not be decided. */
	fields: HistoryFields | null;
}
