/**
 * The metrics of one run from records already in memory: what `computeReport` does per run,
 * and what the browser calls with records from IndexedDB.
 */
import type { CategoryMap } from '../dataset/types';
import { UNCLASSIFIED } from '../dataset/names';
import type { Manifest } from '../records';
import { coded, type CoreText } from '../said';
import { dcgMetrics } from '../metrics/dcg';
import { lcaMetrics } from '../metrics/lca';
import { ljpMetrics } from '../metrics/ljp';
import { orderClasses, splitByClass } from '../metrics/by-class';
import type { MetricsTree } from '../metrics/types';
import { EVAL_FILES, LJP_FILE, type EvalFile, type LjpSetup } from '../protocol';
import {
	checkCrossStage,
	checkStage,
	type EvalRecords,
	type StageCompleteness
} from './completeness';

export interface RunMetricsOptions {
	/**
	 * Score incomplete stages over the records saved so far (for a running evaluation). The
	 * result is marked `partial` and its notes give n of N for each such stage.
	 * @default false
	 */
	partial?: boolean;
	/** Names a stage file in error messages. @default the file name, e.g. `LJP_gold` */
	fileLabel?: (file: EvalFile) => string;
}

export interface RunMetrics {
	metrics: MetricsTree;
	/** The same metrics within each cause class present in the records. */
	by_class: Record<string, MetricsTree>;
	completeness: Record<EvalFile, StageCompleteness>;
	/** True when a figure was computed from an incomplete stage (only with `partial`). */
	partial: boolean;
	/** Why a stage is null or partial, and causes that fell into 未分类. */
	/** Why a figure is missing or partial, a cause outside the map: as codes (`../said.ts`). */
	notes: CoreText[];
}

function treeOf(records: EvalRecords, scored: (file: EvalFile) => boolean): MetricsTree {
	const ljp = (setup: LjpSetup) =>
		scored(LJP_FILE[setup]) ? ljpMetrics(records[LJP_FILE[setup]] ?? []) : null;
	return {
		lca: scored('LCA_results') ? lcaMetrics(records.LCA_results ?? []) : null,
		dcg: scored('DCG_results') ? dcgMetrics(records.DCG_results ?? []) : null,
		ljp: { direct: ljp('direct'), gold: ljp('gold'), interaction: ljp('interaction') }
	};
}

function completenessNote(file: EvalFile, c: StageCompleteness, partial: boolean): CoreText | null {
	if (c.status === 'complete') return null;
	if (c.status === 'missing') return coded('note_no_file', { file });
	// Records of the paired stages are two per case (PROTOCOL.md §4).
	const unit = coded(c.unit === 'records' ? 'unit_records_per_case' : 'unit_cases', {});
	return coded(
		partial ? 'note_partial' : 'note_incomplete',
		{ file, have: c.have, expected: c.expected },
		{ unit: [unit] }
	);
}

/** Splits each file's records by class; a class absent from a file gets an empty list. */
function recordsByClass(records: EvalRecords, categories: CategoryMap): Map<string, EvalRecords> {
	const split = EVAL_FILES.map(
		(file) =>
			[file, splitByClass<{ cause_of_action: string }>(records[file] ?? [], categories)] as const
	);
	const classes = orderClasses(
		split.flatMap(([, m]) => [...m.keys()]),
		categories
	);
	return new Map(
		classes.map((cls) => [
			cls,
			Object.fromEntries(
				split.filter(([file]) => records[file]).map(([file, m]) => [file, m.get(cls) ?? []])
			) as EvalRecords
		])
	);
}

/**
 * Checks completeness and alignment against `manifest.dataset.selected_case_numbers`, then
 * computes the run's metrics overall and per class. A missing stage, or an incomplete one
 * without `partial`, is null. Throws CheckpointError for unknown or duplicate case numbers.
 */
export function computeRunMetrics(
	manifest: Manifest,
	records: EvalRecords,
	options: RunMetricsOptions = {}
): RunMetrics {
	const partialMode = options.partial ?? false;
	const label = options.fileLabel ?? ((file: EvalFile) => file);
	const selected = manifest.dataset.selected_case_numbers;
	const completeness = Object.fromEntries(
		EVAL_FILES.map((file) => [file, checkStage(file, records[file], selected, label(file))])
	) as Record<EvalFile, StageCompleteness>;
	checkCrossStage(records, label);

	const scored = (file: EvalFile) =>
		completeness[file].status === 'complete' ||
		(partialMode && completeness[file].status === 'incomplete');
	const notes = EVAL_FILES.map((file) =>
		completenessNote(file, completeness[file], partialMode)
	).filter((n): n is CoreText => n !== null);
	const unknownCauses = new Set(
		EVAL_FILES.flatMap((file) => (records[file] ?? []).map((r) => r.cause_of_action)).filter(
			(cause) => !Object.hasOwn(manifest.categories, cause)
		)
	);
	for (const cause of unknownCauses) {
		notes.push(coded('note_cause', { cause, cls: UNCLASSIFIED }));
	}

	return {
		metrics: treeOf(records, scored),
		by_class: Object.fromEntries(
			[...recordsByClass(records, manifest.categories)].map(([cls, r]) => [cls, treeOf(r, scored)])
		),
		completeness,
		partial: EVAL_FILES.some((file) => scored(file) && completeness[file].status === 'incomplete'),
		notes
	};
}
